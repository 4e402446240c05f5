import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The session cookie, the one cookie the server reads or writes, handled on the headers directly:
 * a cookie plugin would parse every request's cookies and run a hook on every answer, a cost each
 * signed-in request paid for one value (bench:api).
 */
export const SESSION_COOKIE = 'inboxpulse_session';
// Tokens are 43 base64url characters; anything much longer is not ours and not worth hashing.
const MAX_TOKEN_LENGTH = 100;

/** The session token the browser sent, if any. */
export function readSessionCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = pair
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    return value && value.length <= MAX_TOKEN_LENGTH && /^[A-Za-z0-9_-]+$/.test(value) ? value : undefined;
  }
  return undefined;
}

/** httpOnly (no script reads it), SameSite=Lax (not sent on cross-site posts), Secure over HTTPS. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date): void {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header('set-cookie', `${SESSION_COOKIE}=${token}; Path=/; Expires=${expiresAt.toUTCString()}; HttpOnly; SameSite=Lax${secure}`);
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.header('set-cookie', `${SESSION_COOKIE}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0`);
}
