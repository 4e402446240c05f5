import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MessageBody } from '../../../contracts/errors';
import { InboxTestIdParams, InboxTestList, type InboxTest } from '../../../contracts/inbox-tests';
import type { AppContext } from '../../app-context';
import { inboxTests } from '../../db/schema/index';
import { AppError } from '../../errors';
import { currentUser, requireUser } from '../../http/session';

type InboxTestRow = typeof inboxTests.$inferSelect;

export function toInboxTest(row: InboxTestRow): InboxTest {
  const { userId: _userId, createdAt, completedAt, ...rest } = row;
  return { ...rest, createdAt: createdAt.toISOString(), completedAt: completedAt?.toISOString() ?? null };
}

export async function inboxTestRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = requireUser(ctx.db);

  r.get('/api/inbox-tests', { preHandler: signedIn, schema: { response: { 200: InboxTestList } } }, async (request) => {
    const rows = await ctx.db
      .select()
      .from(inboxTests)
      .where(eq(inboxTests.userId, currentUser(request).id))
      .orderBy(desc(inboxTests.createdAt), desc(inboxTests.id));
    return rows.map(toInboxTest);
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
