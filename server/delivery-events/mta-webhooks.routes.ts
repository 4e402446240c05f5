import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  DELIVERY_BATCH_MAX_BYTES,
  IngestAnswer,
  JsonBatchBody,
  Smtp2goParams,
  TextBatchBody,
  WebhookTokenQuery,
  type MtaSource,
} from '@contracts/delivery-events';
import type { AppContext } from '../platform/context';
import { countedIngest } from './counted-ingest';
import { parseBatch } from './delivery-events.service';
import { registerIntakeParsers } from './intake-parsers';
import { requireWebhookToken, webhookUser } from './webhook-token';

/** The MTAs whose webhook URL is /api/webhooks/<source> (SMTP2GO's has the account after it). */
const MTA_ROUTES: { source: Exclude<MtaSource, 'smtp2go'>; summary: string; body: z.ZodType }[] = [
  {
    source: 'postfix',
    summary: 'Postfix log lines (text/plain, one per line), or a JSON list of lines',
    body: JsonBatchBody,
  },
  {
    source: 'powermta',
    summary: 'A PowerMTA accounting CSV file (text/csv or text/plain), header line first',
    body: TextBatchBody,
  },
  {
    source: 'greenarrow',
    summary: 'GreenArrow Engine event notifications (JSON, or form fields)',
    body: JsonBatchBody,
  },
  { source: 'halon', summary: 'Halon post-delivery records (JSON or NDJSON)', body: JsonBatchBody },
  { source: 'kumo', summary: 'KumoMTA log hook records (JSON or NDJSON)', body: JsonBatchBody },
  { source: 'postal', summary: 'Postal webhooks (JSON)', body: JsonBatchBody },
];

/**
 * The MTA webhooks: delivery events posted by a mail server, authenticated by the account's webhook
 * token. Batches of up to 1,000 rows; the answer says what was stored, what was stored already, what
 * was not a delivery event and which rows could not be read (ADR 029).
 */
export async function mtaWebhookRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  registerIntakeParsers(app);
  const ingest = countedIngest(ctx);
  const batchOptions = {
    onRequest: requireWebhookToken(ctx.db),
    bodyLimit: DELIVERY_BATCH_MAX_BYTES,
    config: { webhookToken: true },
  } as const;

  for (const route of MTA_ROUTES) {
    r.post(
      `/api/webhooks/${route.source}`,
      {
        ...batchOptions,
        schema: {
          summary: route.summary,
          tags: ['Delivery events'],
          querystring: WebhookTokenQuery,
          body: route.body,
          response: { 200: IngestAnswer },
        },
      },
      async (request) => ingest(webhookUser(request), route.source, parseBatch(route.source, request.body)),
    );
  }
  r.post(
    '/api/webhooks/smtp2go/:account',
    {
      ...batchOptions,
      schema: {
        summary: 'SMTP2GO webhooks (form fields or JSON); the account names which SMTP2GO account posts',
        tags: ['Delivery events'],
        params: Smtp2goParams,
        querystring: WebhookTokenQuery,
        body: JsonBatchBody,
        response: { 200: IngestAnswer },
      },
    },
    async (request) => {
      request.log.info({ smtp2goAccount: request.params.account }, 'smtp2go webhook');
      return ingest(webhookUser(request), 'smtp2go', parseBatch('smtp2go', request.body));
    },
  );
}
