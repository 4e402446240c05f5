import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_KEY_PREFIX } from '@contracts/api-keys';
import {
  DaysQuery,
  DELIVERY_BATCH_MAX,
  DELIVERY_BATCH_MAX_BYTES,
  IngestAnswer,
  JsonBatchBody,
  PostfixAnalytics,
  PostfixConfig,
  PostfixQueueAnswer,
  type BounceCause,
} from '@contracts/delivery-events';
import { daysAgo } from '@contracts/utc-day';
import { webhookTokenStatus } from '../api-keys/api-keys.service';
import type { AppContext } from '../platform/context';
import { AppError } from '../platform/errors';
import { bearerTokenOf } from '../platform/http/api-key-auth';
import { currentUser, signIn } from '../platform/http/session';
import { countedIngest } from './counted-ingest';
import { countEvents, countEventsByMailboxProvider } from './delivery-events.repo';
import { checkBatchSize, parseBatch } from './delivery-events.service';
import { causeCounts, classifiedFailures, toFigures, topDeferrals } from './delivery-reports';
import { registerIntakeParsers } from './intake-parsers';
import { jsonRecords } from './parsers/json-records';
import { readPostqueue } from './parsers/postqueue';
import { postfixConfig } from './postfix-config';

/**
 * The Postfix API the MTA pages document, for scripts on the mail server: an API key only. These
 * paths are outside /api, where the browser's Origin check does not run, so a session cookie
 * (which any page could make a browser send) is not taken here.
 */
export async function postfixApiRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  registerIntakeParsers(app);
  const ingest = countedIngest(ctx);
  const apiKeyOnly = async (request: FastifyRequest, reply: FastifyReply) => {
    if (bearerTokenOf(request) === undefined) {
      throw new AppError(
        'unauthorized',
        `Send your API key: Authorization: Bearer ${API_KEY_PREFIX}… (Settings, API Keys)`,
        { 'www-authenticate': 'Bearer' },
      );
    }
    await signIn(ctx.db, request, reply);
  };
  const keyOnly = { onRequest: apiKeyOnly, config: { apiKeyOnly: true } } as const;

  r.post(
    '/v1/postfix/logs',
    {
      ...keyOnly,
      bodyLimit: DELIVERY_BATCH_MAX_BYTES,
      schema: { body: JsonBatchBody, response: { 200: IngestAnswer } },
    },
    async (request) => ingest(currentUser(request), 'postfix', parseBatch('postfix', request.body)),
  );
  r.post(
    '/v1/postfix/queue',
    {
      ...keyOnly,
      bodyLimit: DELIVERY_BATCH_MAX_BYTES,
      schema: { body: JsonBatchBody, response: { 200: PostfixQueueAnswer } },
    },
    async (request) => {
      const records = jsonRecords(request.body);
      checkBatchSize(records.length);
      const snapshot = readPostqueue(records);
      const deferred =
        snapshot.rows.length === 0 || snapshot.rows.every((row) => 'ignored' in row)
          ? { accepted: 0, duplicates: 0, ignored: snapshot.rows.length, rejected: [] }
          : await ingest(currentUser(request), 'postfix', snapshot.rows);
      return {
        messages: snapshot.messages,
        recipients: snapshot.recipients,
        byQueue: snapshot.byQueue,
        oldestArrival: snapshot.oldestArrival?.toISOString() ?? null,
        deferred,
      };
    },
  );
  r.get(
    '/v1/postfix/analytics',
    { ...keyOnly, schema: { querystring: DaysQuery, response: { 200: PostfixAnalytics } } },
    async (request) => {
      const userId = currentUser(request).id;
      const { days } = request.query;
      const since = daysAgo(days);
      const [counts, byProvider, failures] = await Promise.all([
        countEvents(ctx.db, userId, since, { source: 'postfix' }),
        countEventsByMailboxProvider(ctx.db, userId, since, 'postfix'),
        classifiedFailures(ctx, userId, since, 'postfix'),
      ]);
      const causes = new Map<BounceCause, number>();
      for (const g of failures.classified) causes.set(g.cause, (causes.get(g.cause) ?? 0) + g.count);
      if (failures.unread > 0) causes.set('other', (causes.get('other') ?? 0) + failures.unread);
      return {
        days,
        since: since.toISOString(),
        figures: toFigures(counts),
        byMailboxProvider: byProvider.map(({ mailboxProvider, ...c }) => ({ mailboxProvider, figures: toFigures(c) })),
        bounceCauses: causeCounts(causes),
        topDeferrals: topDeferrals(failures.classified),
      };
    },
  );
  r.get('/v1/postfix/config', { ...keyOnly, schema: { response: { 200: PostfixConfig } } }, async (request) => {
    const token = await webhookTokenStatus(ctx.db, currentUser(request).id);
    return postfixConfig(ctx.env.APP_URL, token.hasToken, DELIVERY_BATCH_MAX);
  });
}
