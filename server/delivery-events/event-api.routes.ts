import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApiEventBatchBody,
  ApiEventBody,
  AuthenticationAnswer,
  DailyMetricsBody,
  DELIVERY_BATCH_MAX_BYTES,
  EmailMetricEventBody,
  IngestAnswer,
  PostfixEventBody,
} from '@contracts/delivery-events';
import { EmailMetric } from '@contracts/email-metrics';
import { webhookTokenStatus } from '../api-keys/api-keys.service';
import type { AppContext } from '../platform/context';
import { currentUser, requireUser } from '../platform/http/session';
import { dayTotalsPush, planOf, requireEmailAllowance } from '../plans/plan-gate.service';
import { countedIngest } from './counted-ingest';
import { checkBatchSize, setDayTotals } from './delivery-events.service';
import { registerIntakeParsers } from './intake-parsers';
import { parseApiEvent, parseEmailMetricEvent } from './parsers/api-event';
import { parsePostfixLines } from './parsers/postfix';

/** InboxPulse's own event shapes, for scripts with an API key (or the signed-in web app). */
export async function eventApiRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  registerIntakeParsers(app);
  const signedIn = requireUser(ctx.db);
  const ingest = countedIngest(ctx);

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
}
