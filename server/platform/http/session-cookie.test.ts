import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { clearSessionCookie, readSessionCookie, SESSION_COOKIE, setSessionCookie } from './session-cookie';

const request = (cookie?: string, protocol = 'http') =>
  ({ headers: cookie === undefined ? {} : { cookie }, protocol }) as unknown as FastifyRequest;
function replyRecorder() {
  const headers: Record<string, string> = {};
  const reply = {
    header: (name: string, value: string) => ((headers[name] = value), reply),
  } as unknown as FastifyReply;
  return { reply, headers };
}
const token = 'Abc_123-xyzABC_123-xyzABC_123-xyzABC_123-x'; // 43 base64url characters, as newToken makes

describe('the session cookie', () => {
  it('finds the session token among other cookies, with or without spaces and quotes', () => {
    expect(readSessionCookie(request(`theme=dark; ${SESSION_COOKIE}=${token}; other=1`))).toBe(token);
    expect(readSessionCookie(request(`${SESSION_COOKIE}=${token}`))).toBe(token);
    expect(readSessionCookie(request(`a=b;${SESSION_COOKIE}="${token}"`))).toBe(token);
    expect(readSessionCookie(request(`x${SESSION_COOKIE}=${token}`))).toBeUndefined();
  });

  it('ignores what cannot be a token: none, empty, too long, or characters a token never has', () => {
    expect(readSessionCookie(request())).toBeUndefined();
    expect(readSessionCookie(request(`${SESSION_COOKIE}=`))).toBeUndefined();
    expect(readSessionCookie(request(`${SESSION_COOKIE}=${'a'.repeat(101)}`))).toBeUndefined();
    expect(readSessionCookie(request(`${SESSION_COOKIE}=abc%20def`))).toBeUndefined();
    expect(readSessionCookie(request(`${SESSION_COOKIE}=abc<script>`))).toBeUndefined();
  });

  it('is set httpOnly, SameSite=Lax, for the whole site, until the session ends, and Secure over HTTPS', () => {
    const expires = new Date('2026-12-23T10:00:00Z');
    const plain = replyRecorder();
    setSessionCookie(request(undefined, 'http'), plain.reply, token, expires);
    expect(plain.headers['set-cookie']).toBe(
      `${SESSION_COOKIE}=${token}; Path=/; Expires=Wed, 23 Dec 2026 10:00:00 GMT; HttpOnly; SameSite=Lax`,
    );
    const tls = replyRecorder();
    setSessionCookie(request(undefined, 'https'), tls.reply, token, expires);
    expect(tls.headers['set-cookie']).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
  });

  it('is cleared with an empty value that has already expired', () => {
    const { reply, headers } = replyRecorder();
    clearSessionCookie(reply);
    expect(headers['set-cookie']).toBe(`${SESSION_COOKIE}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0`);
  });
});
