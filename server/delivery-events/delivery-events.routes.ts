import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_KEY_PREFIX } from '@contracts/api-keys';
import {
  ApiEventBatchBody,
  ApiEventBody,
  AuthenticationAnswer,
  BounceCauses,
  DailyMetricsBody,
  DaysQuery,
  DELIVERY_BATCH_MAX,
  DELIVERY_BATCH_MAX_BYTES,
  DeliveryEventsQuery,
  DomainStatus,
  DomainStatusParams,
  EmailMetricEventBody,
  IngestAnswer,
  JsonBatchBody,
  PostfixAnalytics,
  PostfixConfig,
  PostfixEventBody,
  PostfixQueueAnswer,
  Smtp2goParams,
  StoredDeliveryEvent,
  TextBatchBody,
  WebhookTokenQuery,
  type EventSource,
  type MtaSource,
} from '@contracts/delivery-events';
import { EmailMetric } from '@contracts/email-metrics';
import { daysAgo } from '@contracts/utc-day';
import { webhookTokenStatus } from '../api-keys/api-keys.service';
import { findUserDomain } from '../domains/domains.service';
import type { AppContext } from '../platform/context';
import { AppError } from '../platform/errors';
import { bearerTokenOf } from '../platform/http/api-key-auth';
import { dayTotalsPush, eventPush, planOf, requireEmailAllowance } from '../plans/plan-gate.service';
import { currentUser, requireUser, signIn } from '../platform/http/session';
import { countEvents, countEventsByMailboxProvider, listLatestEvents } from './delivery-events.repo';
import type { RowOutcome } from './delivery-event';
import { checkBatchSize, eventRowCount, ingestEvents, parseBatch, setDayTotals } from './delivery-events.service';
import {
  bounceCauses,
  causeCounts,
  classifiedFailures,
  toFigures,
  toStoredEvent,
  topDeferrals,
} from './delivery-reports';
import type { BounceCause } from '@contracts/delivery-events';
import { parseApiEvent, parseEmailMetricEvent } from './parsers/api-event';
import { jsonRecords } from './parsers/json-records';
import { parsePostfixLines } from './parsers/postfix';
import { readPostqueue } from './parsers/postqueue';
import { requireWebhookToken, webhookUser } from './webhook-token';
import { postfixConfig } from './postfix-config';

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

const UNSUPPORTED =
  'Send text/plain (Postfix lines), text/csv (PowerMTA accounting), application/json or application/x-ndjson (records), or form fields';

/**
 * Delivery events in: the MTA webhooks (webhook token), InboxPulse's own event shapes and the
 * Postfix API (API key or session), and what the stored events say (bounce causes, a domain's
 * status, Postfix analytics). Batches of up to 1,000 rows; the answer says what was stored, what
 * was stored already, what was not a delivery event and which rows could not be read (ADR 029).
 */
export async function deliveryEventRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = requireUser(ctx.db);
  const tokenOwner = requireWebhookToken(ctx.db);

  // This plugin's bodies besides JSON and text/plain (Fastify encapsulation: the rest of the API is unchanged).
  app.addContentTypeParser(
    [
      'text/csv',
      'application/csv',
      'application/x-ndjson',
      'application/ndjson',
      'application/jsonl',
      'application/x-jsonlines',
    ],
    { parseAs: 'string' },
    (_request, body, done) => done(null, body),
  );
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.addContentTypeParser('*', (_request, _payload, done) =>
    done(new AppError('unsupported_media_type', UNSUPPORTED), undefined),
  );

  // Every write of sent mail is counted against the plan's e-mails a month first (ADR 032), once its
  // rows are read: a request with no delivery event in it (the guides' check commands) stores
  // nothing and is never refused (ADR 043).
  const ingest = async (user: number | ReturnType<typeof currentUser>, source: EventSource, rows: RowOutcome[]) => {
    const userId = typeof user === 'number' ? user : user.id;
    const events = eventRowCount(rows);
    if (events > 0) await requireEmailAllowance(ctx.db, user, eventPush(source, events), ctx.env.APP_URL);
    return ingestEvents(ctx, userId, source, rows);
  };
  const batchOptions = {
    onRequest: tokenOwner,
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

  // InboxPulse's own shapes, for scripts with an API key (or the signed-in web app).
  r.post(
    '/api/postfix/events',
    { onRequest: signedIn, schema: { body: PostfixEventBody, response: { 200: IngestAnswer } } },
    async (request) => ingest(currentUser(request), 'postfix', parsePostfixLines([request.body.log_entry])),
  );
  r.post(
    '/api/events',
    { onRequest: signedIn, schema: { body: ApiEventBody, response: { 200: IngestAnswer } } },
    async (request) => ingest(currentUser(request), 'api', [parseApiEvent(request.body)]),
  );
  r.post(
    '/api/email-metrics',
    { onRequest: signedIn, schema: { body: EmailMetricEventBody, response: { 200: IngestAnswer } } },
    async (request) => ingest(currentUser(request), 'api', [parseEmailMetricEvent(request.body)]),
  );
  r.post(
    '/api/v1/events',
    {
      onRequest: signedIn,
      bodyLimit: DELIVERY_BATCH_MAX_BYTES,
      schema: { body: z.union([z.array(z.unknown()), ApiEventBatchBody]), response: { 200: IngestAnswer } },
    },
    async (request) => {
      const events = Array.isArray(request.body) ? request.body : request.body.events;
      checkBatchSize(events.length);
      const now = Date.now();
      return ingest(
        currentUser(request),
        'api',
        events.map((e) => parseApiEvent(e, now)),
      );
    },
  );
  r.post(
    '/api/v1/metrics',
    { onRequest: signedIn, schema: { body: DailyMetricsBody, response: { 200: EmailMetric } } },
    async (request) => {
      const { provider, date, ...totals } = request.body;
      await requireEmailAllowance(ctx.db, currentUser(request), dayTotalsPush('api'), ctx.env.APP_URL);
      const row = await setDayTotals(ctx, currentUser(request).id, provider, date, totals);
      return {
        id: row.id,
        provider: row.provider,
        date: row.date,
        emailsSent: row.emailsSent,
        delivered: row.delivered,
        bounced: row.bounced,
        complaints: row.complaints,
      };
    },
  );
  r.post(
    '/api/v1/authentication',
    { onRequest: signedIn, schema: { response: { 200: AuthenticationAnswer } } },
    async (request) => {
      const user = currentUser(request);
      const token = await webhookTokenStatus(ctx.db, user.id);
      return {
        authenticated: true as const,
        userId: user.id,
        username: user.username,
        plan: planOf(user),
        hasWebhookToken: token.hasToken,
      };
    },
  );
  r.get(
    '/api/v1/domains/:id/status',
    { onRequest: signedIn, schema: { params: DomainStatusParams, response: { 200: DomainStatus } } },
    async (request) => {
      const userId = currentUser(request).id;
      const domain = await findUserDomain(ctx.db, userId, request.params.id);
      if (!domain) throw new AppError('not_found', 'Domain not found');
      const days = 7;
      const counts = await countEvents(ctx.db, userId, daysAgo(days), { domain: domain.domain.toLowerCase() });
      return {
        id: domain.id,
        domain: domain.domain,
        status: domain.status,
        isVerified: domain.isVerified,
        spfStatus: domain.spfStatus,
        dkimStatus: domain.dkimStatus,
        dmarcStatus: domain.dmarcStatus,
        lastCheckedAt: domain.lastCheckedAt?.toISOString() ?? null,
        delivery: { days, ...toFigures(counts) },
      };
    },
  );

  r.get(
    '/api/delivery-events',
    {
      onRequest: signedIn,
      schema: { querystring: DeliveryEventsQuery, response: { 200: z.array(StoredDeliveryEvent) } },
    },
    async (request) => (await listLatestEvents(ctx.db, currentUser(request).id, request.query)).map(toStoredEvent),
  );
  r.get(
    '/api/delivery-events/bounce-causes',
    { onRequest: signedIn, schema: { querystring: DaysQuery, response: { 200: BounceCauses } } },
    async (request) => bounceCauses(ctx, currentUser(request).id, request.query.days),
  );

  // The Postfix API the MTA pages document, for scripts on the mail server: an API key only. These
  // paths are outside /api, where the browser's Origin check does not run, so a session cookie
  // (which any page could make a browser send) is not taken here.
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
