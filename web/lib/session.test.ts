import { describe, expect, it, vi } from 'vitest';
import { UserQuery } from '@contracts/user';
import { makeUser } from '../test/test-utils';
import { SESSION_PROBE_URL, USER_QUERY_KEY, userQueryOptions } from './session';

function stub(response: Response) {
  const mock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => response);
  vi.stubGlobal('fetch', mock);
  return mock;
}

const ask = () =>
  userQueryOptions.queryFn!({
    queryKey: USER_QUERY_KEY,
    signal: new AbortController().signal,
    meta: undefined,
  } as unknown as Parameters<NonNullable<typeof userQueryOptions.queryFn>>[0]);

describe('the session query', () => {
  it('asks the session probe, whose query the server accepts (contracts/user.ts)', async () => {
    const mock = stub(new Response('null', { status: 200, headers: { 'Content-Type': 'application/json' } }));
    await ask();
    const url = new URL(String(mock.mock.calls[0][0]), 'http://localhost');
    expect(url.pathname).toBe('/api/user');
    expect(UserQuery.parse(Object.fromEntries(url.searchParams))).toEqual({ whenSignedOut: 'null' });
    expect(String(mock.mock.calls[0][0])).toBe(SESSION_PROBE_URL);
    expect(mock.mock.calls[0][1]?.credentials).toBe('include');
  });

  it('answers null, without an error, when the probe says nobody is signed in', async () => {
    stub(new Response('null', { status: 200, headers: { 'Content-Type': 'application/json' } }));
    await expect(ask()).resolves.toBeNull();
  });

  it('still treats a 401 (a server without the probe) as signed out, not as an error', async () => {
    stub(new Response('{"code":"unauthorized","message":"Please sign in"}', { status: 401 }));
    await expect(ask()).resolves.toBeNull();
  });

  it('checks the signed-in user against the contract', async () => {
    const user = makeUser({ username: 'grace' });
    stub(new Response(JSON.stringify(user), { status: 200, headers: { 'Content-Type': 'application/json' } }));
    await expect(ask()).resolves.toEqual(user);
    stub(new Response(JSON.stringify({ ...user, id: 'x' }), { status: 200 }));
    await expect(ask()).rejects.toThrow();
  });
});
