import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { InboxTestReport, SeedNetworkStatus, SimulateEmailBody } from '../../contracts/inbox-tests';
import type { AppContext } from '../platform/context';
import { seedMailboxes } from '../platform/db/schema/index';
import { enforceRateLimit, RATE_RULES } from '../platform/http/rate-limit';
import { currentUser, requireUser } from '../platform/http/session';
import { analyseSimulatedMessage } from './simulated-message';

/** The seed network as configured (SEED_NETWORK_FILE), and the analysis of a message that was not sent. */
export async function seedNetworkRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = requireUser(ctx.db);

  r.get('/api/seed-network/status', { preHandler: signedIn, schema: { response: { 200: SeedNetworkStatus } } }, async () => {
    const rows = await ctx.db
      .select({ region: seedMailboxes.region, providers: sql<number>`count(distinct ${seedMailboxes.provider})::int`, addresses: sql<number>`count(*)::int` })
      .from(seedMailboxes)
      .where(eq(seedMailboxes.active, true))
      .groupBy(seedMailboxes.region);
    const [total] = await ctx.db
      .select({ providers: sql<number>`count(distinct ${seedMailboxes.provider})::int` })
      .from(seedMailboxes)
      .where(eq(seedMailboxes.active, true));
    const totalAddresses = rows.reduce((sum, row) => sum + row.addresses, 0);
    return {
      configured: totalAddresses > 0,
      totalProviders: total?.providers ?? 0,
      totalAddresses,
      byRegion: Object.fromEntries(rows.map((row) => [row.region, row.providers])),
    };
  });

  r.post(
    '/api/simulate-email',
    { preHandler: signedIn, bodyLimit: 3 * 1024 * 1024, schema: { body: SimulateEmailBody, response: { 200: InboxTestReport } } },
    async (request) => {
      await enforceRateLimit(ctx.db, RATE_RULES.simulatePerUser, String(currentUser(request).id));
      return analyseSimulatedMessage(ctx.analyser, request.body, ctx.env.INBOUND_DOMAIN);
    },
  );
}
