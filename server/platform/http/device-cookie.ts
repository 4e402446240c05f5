import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/*
 * The remember-device cookie: set at every successful sign-in, it says "this browser signed in as user N before".
 * Past the account-wide limit on wrong passwords (a guesser spread over many addresses), only such a browser may
 * still sign in, with the right password: guessing from anywhere cannot lock the owner out of their own browser,
 * even after they signed out or their address changed. It grants nothing else: it is sent to the login route
 * only (its Path), carries no session, and is signed with a key of its own derived from APP_SECRET.
 */
export const DEVICE_COOKIE = 'inboxpulse_device';
const PATH = '/api/login';
const DAYS = 180;
const KEY_LABEL = 'inboxpulse remember-device v1 hmac-sha256';
const VALUE = /^(\d{1,12})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

const keys = new Map<string, Buffer>();
function keyOf(appSecret: string): Buffer {
  let key = keys.get(appSecret);
  if (!key) keys.set(appSecret, (key = Buffer.from(hkdfSync('sha256', appSecret, '', KEY_LABEL, 32))));
  return key;
}

const signatureOf = (appSecret: string, claim: string) =>
  createHmac('sha256', keyOf(appSecret)).update(claim).digest('base64url');

/** Marks this browser as one `userId` signed in on (httpOnly, SameSite=Lax, Secure over HTTPS). */
export function rememberDevice(request: FastifyRequest, reply: FastifyReply, userId: number, appSecret: string): void {
  const expires = Math.floor(Date.now() / 1000) + DAYS * 24 * 3600;
  const claim = `${userId}.${expires}`;
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${DEVICE_COOKIE}=${claim}.${signatureOf(appSecret, claim)}; Path=${PATH}; Max-Age=${DAYS * 24 * 3600}; HttpOnly; SameSite=Lax${secure}`,
  );
}

/** Whether the request comes from a browser that signed in as `userId` before (a valid, unexpired cookie of ours). */
export function isRememberedDevice(request: FastifyRequest, userId: number, appSecret: string): boolean {
  const header = request.headers.cookie;
  if (!header) return false;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== DEVICE_COOKIE) continue;
    const m = VALUE.exec(part.slice(eq + 1).trim());
    if (!m || Number(m[1]) !== userId || Number(m[2]) * 1000 < Date.now()) continue;
    const expected = Buffer.from(signatureOf(appSecret, `${m[1]}.${m[2]}`));
    if (timingSafeEqual(expected, Buffer.from(m[3]!))) return true;
  }
  return false;
}
