import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The session cookie, the one cookie every request is read for, handled on the headers directly:
 * a cookie plugin would parse every request's cookies and run a hook on every answer, a cost each
 * signed-in request paid for one value (bench:api). The other, the remember-device cookie, is read by the
 * login route only (device-cookie.ts).
 */
export const SESSION_COOKIE = 'inboxpulse_session';
// Tokens are 43 base64url characters; anything much longer is not ours and not worth hashing.
const MAX_TOKEN_LENGTH = 100;

const TOKEN = /^[A-Za-z0-9_-]+$/;

/** The session token the browser sent, if any. Read with indexOf: split and replace were a cost on every signed-in request. */
export function readSessionCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (let start = 0; start < header.length;) {
    const semicolon = header.indexOf(';', start);
    const end = semicolon < 0 ? header.length : semicolon;
    const eq = header.indexOf('=', start);
    if (eq >= 0 && eq < end && header.slice(start, eq).trim() === SESSION_COOKIE)
      return tokenOf(header.slice(eq + 1, end).trim());
    start = end + 1;
  }
  return undefined;
}

/** A cookie value that can be one of our tokens (quotes allowed around it), or undefined. */
function tokenOf(value: string): string | undefined {
  const token = value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  return token && token.length <= MAX_TOKEN_LENGTH && TOKEN.test(token) ? token : undefined;
}

/** httpOnly (no script reads it), SameSite=Lax (not sent on cross-site posts), Secure over HTTPS. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date): void {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${SESSION_COOKIE}=${token}; Path=/; Expires=${expiresAt.toUTCString()}; HttpOnly; SameSite=Lax${secure}`,
  );
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.header('set-cookie', `${SESSION_COOKIE}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0`);
}
