import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  GOOGLE_CALLBACK_PATH,
  PostmasterConnectStart,
  PostmasterStats,
  PostmasterStatsQuery,
  PostmasterStatus,
} from '@contracts/postmaster';
import type { AppContext } from '../platform/context';
import { currentUser, requireUser } from '../platform/http/session';
import { CONNECT_NEEDS_BROWSER, finishConnect, outcomePath, startConnect } from './postmaster-connect';
import { postmasterStats, postmasterStatus } from './postmaster.service';

/** A callback parameter: Google's text, or nothing when it is missing or odd (repeated, not text); the callback then says the sign-in failed. */
const param = z
  .preprocess((value) => (Array.isArray(value) ? value[0] : value), z.string().max(4096).optional())
  .catch(undefined);
const CallbackQuery = z.object({ state: param, code: param, error: param });

export async function postmasterRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = requireUser(ctx.db);

  // Starts a Google sign-in for Postmaster Tools: the browser then goes to authorizationUrl. POST: it stores a sign-in
  // under way.
  r.post(
    '/api/integrations/google-postmaster/connect',
    {
      onRequest: signedIn,
      config: { sessionOnly: CONNECT_NEEDS_BROWSER },
      schema: { response: { 200: PostmasterConnectStart } },
    },
    async (request) => startConnect(ctx, request, currentUser(request).id),
  );

  // Google sends the browser here (part 2, section 7); it always goes on to the integrations page, saying how it went.
  // GET only: a HEAD (a link checker) must not use the state up. Left out of the API reference: only
  // Google's redirect of the user's browser calls it, with a one-time code no script holds.
  r.get(
    GOOGLE_CALLBACK_PATH,
    { exposeHeadRoute: false, schema: { hide: true, querystring: CallbackQuery } },
    async (request, reply) => {
      const outcome = await finishConnect(ctx, request, request.query);
      // The code in this address must not travel on in a Referer, nor be kept by a cache.
      return reply
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .redirect(outcomePath(outcome), 302);
    },
  );

  r.get(
    '/api/postmaster/status',
    { onRequest: signedIn, schema: { response: { 200: PostmasterStatus } } },
    async (request) => postmasterStatus(ctx, currentUser(request).id),
  );

  r.get(
    '/api/postmaster/stats',
    { onRequest: signedIn, schema: { querystring: PostmasterStatsQuery, response: { 200: PostmasterStats } } },
    async (request) => postmasterStats(ctx, currentUser(request).id, request.query),
  );
}
