import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateInboxTestBody,
  InboxTest,
  InboxTestIdParams,
  InboxTestList,
  InboxTestReport,
  InboxTestResults,
} from '@contracts/inbox-tests';
import type { AppContext } from '../platform/context';
import { hasHealthyDomain } from '../domains/domains.service';
import type { Executor } from '../platform/db/client';
import { AppError } from '../platform/errors';
import { claimMonthlyAllowance } from '../plans/plan-gate.service';
import { enforceRateLimit, RATE_RULES } from '../platform/security/rate-limit';
import { acceptIdempotencyKeys } from '../platform/http/idempotency';
import { currentUser, requireUser } from '../platform/http/session';
import {
  createInboxTest,
  deleteUserTest,
  findUserTest,
  findUserTestReport,
  listUserTests,
  testResults,
  toInboxTests,
} from './inbox-tests.repo';

const NOT_FOUND = 'Inbox test not found';
export const NO_HEALTHY_DOMAIN = 'Add and verify at least one domain to start testing';

export async function inboxTestRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // onRequest: a signed-out caller gets 401 before its input is parsed or validated.
  const signedIn = requireUser(ctx.db);
  // POSTs that create something replay their first answer for a repeated Idempotency-Key.
  acceptIdempotencyKeys(app, ctx.db);

  // Every test answer says how long the seeds are searched after the message arrives, so a running
  // test's expected completion is this server's window, not a fixed figure.
  const answerOf = async (rows: Parameters<typeof toInboxTests>[1]) =>
    (await toInboxTests(ctx.db, rows)).map((test) => ({
      ...test,
      placementWindowMinutes: ctx.env.PLACEMENT_WINDOW_MINUTES,
    }));

  async function ownTest(userId: number, id: number) {
    const row = await findUserTest(ctx.db, userId, id);
    if (!row) throw new AppError('not_found', NOT_FOUND);
    return row;
  }

  r.get('/api/inbox-tests', { onRequest: signedIn, schema: { response: { 200: InboxTestList } } }, async (request) => {
    return answerOf(await listUserTests(ctx.db, currentUser(request).id));
  });

  r.post(
    '/api/inbox-tests',
    {
      onRequest: signedIn,
      config: { idempotent: true },
      schema: { body: CreateInboxTestBody, response: { 200: InboxTest } },
    },
    async (request) => {
      const user = currentUser(request);
      const userId = user.id;
      // A test is about a domain the user sends from; one that passes its DNS checks (spec, section 2).
      if (!(await hasHealthyDomain(ctx.db, userId))) throw new AppError('conflict', NO_HEALTHY_DOMAIN);
      await enforceRateLimit(ctx.db, RATE_RULES.inboxTestPerUser, String(userId));
      // The plan's tests a month (ADR 032), counted in the test's own transaction.
      const claim = (tx: Executor) => claimMonthlyAllowance(tx, user, 'inboxTestsPerMonth');
      const settings = { oneClickUnsubscribeTest: request.body.oneClickUnsubscribeTest };
      const [test] = await answerOf([await createInboxTest(ctx.db, userId, ctx.env.INBOUND_DOMAIN, claim, settings)]);
      return test!;
    },
  );

  // The public API's way to follow one test (part 2, section 7); 404 for another user's, as for every test route.
  r.get(
    '/api/inbox-tests/:id',
    { onRequest: signedIn, schema: { params: InboxTestIdParams, response: { 200: InboxTest } } },
    async (request) => {
      const [test] = await answerOf([await ownTest(currentUser(request).id, request.params.id)]);
      return test!;
    },
  );

  r.get(
    '/api/inbox-tests/:id/results',
    { onRequest: signedIn, schema: { params: InboxTestIdParams, response: { 200: InboxTestResults } } },
    async (request) => testResults(ctx.db, (await ownTest(currentUser(request).id, request.params.id)).id),
  );

  r.get(
    '/api/inbox-tests/:id/report',
    { onRequest: signedIn, schema: { params: InboxTestIdParams, response: { 200: InboxTestReport } } },
    async (request) => {
      const userId = currentUser(request).id;
      const test = await ownTest(userId, request.params.id);
      const report = await findUserTestReport(ctx.db, userId, test.id);
      if (!report) throw new AppError('not_found', 'The test e-mail has not arrived yet');
      return report;
    },
  );

  r.delete(
    '/api/inbox-tests/:id',
    { onRequest: signedIn, schema: { params: InboxTestIdParams, response: { 204: z.undefined() } } },
    async (request, reply) => {
      // Placements and the report go with it.
      if (!(await deleteUserTest(ctx.db, currentUser(request).id, request.params.id)))
        throw new AppError('not_found', NOT_FOUND);
      return reply.code(204).send();
    },
  );
}
