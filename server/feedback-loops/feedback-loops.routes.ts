import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { daysAgo } from '@contracts/utc-day';
import { feedbackLoopAddress, FeedbackLoopStatus } from '@contracts/feedback-loops';
import type { AppContext } from '../platform/context';
import { currentUser, requireUser } from '../platform/http/session';
import { countEvents, lastEventAt } from '../delivery-events/delivery-events.service';

/** The address a sender gives the mailbox providers' feedback loops, and what their complaints have brought. */
export async function feedbackLoopRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const address = feedbackLoopAddress(ctx.env.INBOUND_DOMAIN);
  r.get(
    '/api/feedback-loops',
    {
      onRequest: requireUser(ctx.db),
      schema: {
        summary: 'The feedback-loop address and the complaints counted from it',
        tags: ['Delivery events'],
        response: { 200: FeedbackLoopStatus },
      },
    },
    async (request) => {
      const userId = currentUser(request).id;
      const [counts, last] = await Promise.all([
        countEvents(ctx.db, userId, daysAgo(30), { source: 'fbl' }),
        lastEventAt(ctx.db, userId, 'fbl'),
      ]);
      return { address, complaints30d: counts.complaints, lastComplaintAt: last?.toISOString() ?? null };
    },
  );
}
