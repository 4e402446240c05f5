import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AUTH_MESSAGES } from '@contracts/auth';
import { User } from '@contracts/user';
import type { AppContext } from '../platform/context';
import { AppError } from '../platform/errors';
import { currentUser, findSessionUser, forgetCachedUser, requireUser } from '../platform/http/session';
import { toUser } from './accounts.service';
import { updateUser } from './users.repo';

export async function accountRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/user', { schema: { response: { 200: User } } }, async (request) => {
    const user = await findSessionUser(ctx.db, request);
    if (!user) throw new AppError('unauthorized', AUTH_MESSAGES.notSignedIn);
    return toUser(user);
  });

  r.post('/api/user/complete-tour', { onRequest: requireUser(ctx.db), schema: { response: { 200: User } } }, async (request) => {
    const user = await updateUser(ctx.db, currentUser(request).id, { hasCompletedTour: true });
    forgetCachedUser(ctx.db, user.id);
    return toUser(user);
  });
}
