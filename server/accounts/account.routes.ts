import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ACCOUNT_MESSAGES,
  AccountSessionList,
  AccountStorage,
  DMARC_RECORDS_PER_ACCOUNT,
  ChangePasswordBody,
  SessionIdParams,
  SignOutOthersResponse,
} from '@contracts/account';
import { AUTH_MESSAGES } from '@contracts/auth';
import { PasswordSetResponse } from '@contracts/auth';
import { User, UserQuery } from '@contracts/user';
import type { AppContext } from '../platform/context';
import { AppError } from '../platform/errors';
import {
  cachedSessionUser,
  currentUser,
  findSessionUser,
  forgetCachedUser,
  requireUser,
} from '../platform/http/session';
import { clearSessionCookie, readSessionCookie } from '../platform/http/session-cookie';
import { hashToken } from '../platform/security/tokens';
import { dmarcStorage } from '../dmarc/dmarc.service';
import { toUser } from './accounts.service';
import { changePassword } from './auth.service';
import { endBillingOf } from '../billing/billing.service';
import { deleteAccount } from './delete-account.service';
import { listSessions, revokeSession, signOutOtherSessions } from './sessions.service';
import { updateUser } from './users.repo';

/** The stored hash of the request's own session (a route behind requireUser has one). */
function currentSessionHash(request: FastifyRequest): string {
  const token = readSessionCookie(request);
  if (!token) throw new AppError('unauthorized', AUTH_MESSAGES.notSignedIn);
  return hashToken(token);
}

export async function accountRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = requireUser(ctx.db);

  // 401 when signed out, unless the caller asks for null (the web app's session probe, contracts/user.ts).
  r.get('/api/user', { schema: { querystring: UserQuery, response: { 200: User.nullable() } } }, async (request) => {
    const user = cachedSessionUser(ctx.db, request) ?? (await findSessionUser(ctx.db, request));
    if (user) return toUser(user);
    if (request.query.whenSignedOut === 'null') return null;
    throw new AppError('unauthorized', AUTH_MESSAGES.notSignedIn);
  });

  r.post('/api/user/complete-tour', { onRequest: signedIn, schema: { response: { 200: User } } }, async (request) => {
    const user = await updateUser(ctx.db, currentUser(request).id, { hasCompletedTour: true });
    forgetCachedUser(ctx.db, user.id);
    return toUser(user);
  });

  r.get(
    '/api/account/sessions',
    { onRequest: signedIn, schema: { response: { 200: AccountSessionList } } },
    async (request) => {
      return { sessions: await listSessions(ctx.db, currentUser(request).id, currentSessionHash(request)) };
    },
  );

  // Before /:id, so the literal path is never taken for an id (it could not match one anyway: 16 hex digits).
  r.post(
    '/api/account/sessions/sign-out-others',
    { onRequest: signedIn, schema: { response: { 200: SignOutOthersResponse } } },
    async (request) => {
      return { revoked: await signOutOtherSessions(ctx.db, currentUser(request).id, currentSessionHash(request)) };
    },
  );

  r.delete(
    '/api/account/sessions/:id',
    { onRequest: signedIn, schema: { params: SessionIdParams, response: { 204: z.undefined() } } },
    async (request, reply) => {
      const { wasCurrent } = await revokeSession(
        ctx.db,
        currentUser(request).id,
        request.params.id,
        currentSessionHash(request),
      );
      // Revoking this device's own session signs it out.
      if (wasCurrent) clearSessionCookie(reply);
      return reply.code(204).send();
    },
  );

  r.post(
    '/api/account/password',
    { onRequest: signedIn, schema: { body: ChangePasswordBody, response: { 200: PasswordSetResponse } } },
    async (request) => {
      const userId = currentUser(request).id;
      const changed = await changePassword(ctx.db, userId, request.body, currentSessionHash(request), request.ip);
      return { message: ACCOUNT_MESSAGES.passwordChanged, ...changed };
    },
  );

  // The Danger Zone: the user and everything they own, at once and for good. A signed-in browser only:
  // the cookie is required here, and API keys are refused on /api/account before this (api-key-auth.ts).
  r.delete(
    '/api/account',
    { onRequest: signedIn, schema: { response: { 204: z.undefined() } } },
    async (request, reply) => {
      currentSessionHash(request);
      // Stripe stops billing first: if it cannot be reached, the account stays and the user can try again.
      await endBillingOf(ctx, currentUser(request).id);
      await deleteAccount(ctx.db, currentUser(request).id);
      clearSessionCookie(reply);
      return reply.code(204).send();
    },
  );

  // What the account keeps: measured in the database on each call (row sizes, not estimates).
  r.get(
    '/api/account/storage',
    { onRequest: signedIn, schema: { response: { 200: AccountStorage } } },
    async (request) => {
      const dmarc = await dmarcStorage(ctx.db, currentUser(request).id);
      return { dmarc: { ...dmarc, recordLimit: DMARC_RECORDS_PER_ACCOUNT } };
    },
  );
}
