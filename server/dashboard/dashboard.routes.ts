import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ComplianceOverview } from '@contracts/compliance';
import { DashboardOverview, DashboardTrends, TrendsQuery } from '@contracts/dashboard';
import type { AppContext } from '../platform/context';
import { currentUser, requireUser } from '../platform/http/session';
import { userScorecards } from '../compliance/compliance.service';
import { requireFeature } from '../plans/plan-gate.service';
import { computeOverview } from './dashboard.formulas';
import { loadOverviewInputs, loadTrends } from '../insights/dashboard-figures';

export async function dashboardRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // onRequest: a signed-out caller gets 401 before its input is parsed or validated.
  const signedIn = requireUser(ctx.db);

  r.get(
    '/api/dashboard/overview',
    { onRequest: signedIn, schema: { response: { 200: DashboardOverview } } },
    async (request) => computeOverview(await loadOverviewInputs(ctx.db, currentUser(request).id)),
  );

  r.get(
    '/api/dashboard/compliance',
    { onRequest: signedIn, schema: { response: { 200: ComplianceOverview } } },
    async (request): Promise<ComplianceOverview> => {
      const cards = await userScorecards(ctx.db, currentUser(request).id);
      return {
        notMet: cards.reduce((sum, card) => sum + card.counts.notMet, 0),
        domains: cards.map((card) => ({
          domainId: card.domainId,
          domain: card.domain,
          notMet: card.counts.notMet,
          unknown: card.counts.unknown,
        })),
      };
    },
  );

  r.get(
    '/api/dashboard/trends',
    { onRequest: signedIn, schema: { querystring: TrendsQuery, response: { 200: DashboardTrends } } },
    async (request) => {
      const user = currentUser(request);
      requireFeature(user, 'advanced_analytics');
      return loadTrends(ctx.db, user.id, request.query.days);
    },
  );
}
