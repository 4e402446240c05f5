import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BounceCauses,
  DaysQuery,
  DeliveryEventsQuery,
  DomainStatus,
  DomainStatusParams,
  StoredDeliveryEvent,
} from '@contracts/delivery-events';
import { daysAgo } from '@contracts/utc-day';
import { findUserDomain } from '../domains/domains.service';
import type { AppContext } from '../platform/context';
import { AppError } from '../platform/errors';
import { currentUser, requireUser } from '../platform/http/session';
import { countEvents, listLatestEvents } from './delivery-events.repo';
import { bounceCauses, toFigures, toStoredEvent } from './delivery-reports';

/**
 * What the stored delivery events say: the latest events, their bounce causes and a domain's
 * status. The writes are in mta-webhooks, event-api and postfix-api routes.
 */
export async function deliveryEventRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = requireUser(ctx.db);

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
}
