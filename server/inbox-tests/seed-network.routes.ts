import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { InboxTestReport, SeedNetworkStatus, SimulateEmailBody } from '@contracts/inbox-tests';
import type { AppContext } from '../platform/context';
import { enforceRateLimit, RATE_RULES } from '../platform/security/rate-limit';
import { currentUser, requireUser } from '../platform/http/session';
import { seedNetworkStatus } from './inbox-tests.repo';
import { analyseSimulatedMessage } from './simulated-message';

/** The seed network as configured (SEED_NETWORK_FILE), and the analysis of a message that was not sent. */
export async function seedNetworkRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // onRequest: a signed-out caller gets 401 before its input is parsed or validated.
  const signedIn = requireUser(ctx.db);

  r.get(
    '/api/seed-network/status',
    { onRequest: signedIn, schema: { response: { 200: SeedNetworkStatus } } },
    async () => seedNetworkStatus(ctx.db),
  );

  r.post(
    '/api/simulate-email',
    {
      onRequest: signedIn,
      bodyLimit: 3 * 1024 * 1024,
      schema: { body: SimulateEmailBody, response: { 200: InboxTestReport } },
    },
    async (request) => {
      await enforceRateLimit(ctx.db, RATE_RULES.simulatePerUser, String(currentUser(request).id));
      return analyseSimulatedMessage(ctx.analyser, request.body, ctx.env.INBOUND_DOMAIN);
    },
  );
}
