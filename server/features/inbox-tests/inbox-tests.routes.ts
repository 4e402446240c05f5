import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MessageBody } from '../../../contracts/errors';
import { InboxTestIdParams, InboxTestList } from '../../../contracts/inbox-tests';
import type { AppContext } from '../../app-context';
import { inboxTests } from '../../db/schema/index';
import { AppError } from '../../errors';
import { currentUser, requireUser } from '../../http/session';
import { listUserTests, toInboxTests } from '../../inbox-tests/inbox-tests.store';

export async function inboxTestRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = requireUser(ctx.db);

  r.get('/api/inbox-tests', { preHandler: signedIn, schema: { response: { 200: InboxTestList } } }, async (request) => {
    return toInboxTests(ctx.db, await listUserTests(ctx.db, currentUser(request).id));
  });

  r.delete(
    '/api/inbox-tests/:id',
    { preHandler: signedIn, schema: { params: InboxTestIdParams, response: { 200: MessageBody } } },
    async (request) => {
      const deleted = await ctx.db
        .delete(inboxTests)
        .where(and(eq(inboxTests.id, request.params.id), eq(inboxTests.userId, currentUser(request).id)))
        .returning({ id: inboxTests.id });
      if (deleted.length === 0) throw new AppError('not_found', 'Inbox test not found');
      return { message: 'Test Deleted' };
    },
  );
}
