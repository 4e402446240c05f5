import { describe, expect, it, vi } from 'vitest';
import type { Notifications } from '../db/notifications';
import type { UserRow } from '../db/schema/index';
import {
  listenForSessionChanges,
  SESSION_CHANGED,
  SessionCache,
  USER_CHANGED,
  type SessionRecord,
} from './session-cache';

const HOUR = 3600_000;
let clock = Date.parse('2026-01-01T00:00:00Z');
const now = () => clock;

function record(userId: number, expiresInMs = HOUR): SessionRecord {
  return { user: { id: userId, username: `user${userId}` } as UserRow, expiresAt: new Date(clock + expiresInMs) };
}

/** A lookup that answers `value` and counts its calls: each call is a database round trip. */
function lookupOf(value: SessionRecord | undefined) {
  return vi.fn(async () => value);
}

/** A lookup that answers only when told, to interleave an invalidation with it. */
function pendingLookup() {
  let answer!: (value: SessionRecord | undefined) => void;
  const promise = new Promise<SessionRecord | undefined>((resolve) => (answer = resolve));
  return { lookup: () => promise, answer };
}

function newCache(options: { maxEntries?: number; maxAgeMs?: number } = {}) {
  const link = { listening: true };
  return { cache: new SessionCache(link, { now, ...options }), link };
}

describe('SessionCache', () => {
  it('asks the database once, then answers from memory', async () => {
    const { cache } = newCache();
    const lookup = lookupOf(record(1));
    expect((await cache.find('a', lookup))?.id).toBe(1);
    expect((await cache.find('a', lookup))?.id).toBe(1);
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('answers a signed-in request from memory only for a live entry it can trust (peek)', async () => {
    const { cache, link } = newCache({ maxAgeMs: 60_000 });
    expect(cache.peek('a')).toBeUndefined();
    await cache.find('a', lookupOf(record(1, 2 * 60_000)));
    expect(cache.peek('a')?.id).toBe(1);
    link.listening = false; // notifications could be missed: memory is not trusted
    expect(cache.peek('a')).toBeUndefined();
    link.listening = true;
    cache.forgetSession('a');
    expect(cache.peek('a')).toBeUndefined();
    await cache.find('b', lookupOf(record(2, 30_000)));
    clock += 31_000; // the session ended
    expect(cache.peek('b')).toBeUndefined();
  });

  it('caches nothing for an unknown or ended session', async () => {
    const { cache } = newCache();
    const lookup = lookupOf(undefined);
    expect(await cache.find('gone', lookup)).toBeUndefined();
    expect(await cache.find('gone', lookup)).toBeUndefined();
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it('forgets a session, and every session of a changed user, and nothing else', async () => {
    const { cache } = newCache();
    await cache.find('a', lookupOf(record(1)));
    await cache.find('b', lookupOf(record(1)));
    await cache.find('c', lookupOf(record(2)));
    cache.forgetSession('a');
    expect(cache.size).toBe(2);
    cache.forgetUser(1);
    expect(cache.size).toBe(1);
    const lookup = lookupOf(record(2));
    await cache.find('c', lookup);
    expect(lookup).not.toHaveBeenCalled();
  });

  it.each([
    ['the session ended', (cache: SessionCache) => cache.forgetSession('a')],
    ['the user changed', (cache: SessionCache) => cache.forgetUser(1)],
    ['the cache was cleared', (cache: SessionCache) => cache.clear()],
  ])('does not store a row read before %s while the lookup ran', async (_, invalidate) => {
    const { cache } = newCache();
    const { lookup, answer } = pendingLookup();
    const finding = cache.find('a', lookup);
    invalidate(cache);
    answer(record(1)); // the row as it was before the change
    expect((await finding)?.id).toBe(1); // the request that was already under way gets it...
    const next = lookupOf(undefined);
    expect(await cache.find('a', next)).toBeUndefined(); // ...the next one asks the database again
    expect(next).toHaveBeenCalledTimes(1);
  });

  it('goes to the database and stores nothing while the LISTEN connection is down', async () => {
    const { cache, link } = newCache();
    await cache.find('a', lookupOf(record(1)));
    link.listening = false;
    // A notification may have been lost: the stored entry is not trusted...
    const ended = lookupOf(undefined);
    expect(await cache.find('a', ended)).toBeUndefined();
    // ...and nothing read meanwhile is kept.
    const lookup = lookupOf(record(3));
    await cache.find('d', lookup);
    await cache.find('d', lookup);
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it('does not store a row whose lookup outlived the LISTEN connection', async () => {
    const { cache, link } = newCache();
    const { lookup, answer } = pendingLookup();
    const finding = cache.find('a', lookup);
    link.listening = false;
    answer(record(1));
    await finding;
    link.listening = true;
    const next = lookupOf(record(1));
    await cache.find('a', next);
    expect(next).toHaveBeenCalledTimes(1);
  });

  it('never serves a session past its expiry', async () => {
    const { cache } = newCache();
    await cache.find('a', lookupOf(record(1, 5_000)));
    clock += 5_000;
    const lookup = lookupOf(undefined); // the database does not return expired sessions
    expect(await cache.find('a', lookup)).toBeUndefined();
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('reads an entry again once it is older than the maximum age', async () => {
    const { cache } = newCache({ maxAgeMs: 60_000 });
    await cache.find('a', lookupOf(record(1)));
    clock += 59_999;
    const early = lookupOf(record(1));
    await cache.find('a', early);
    expect(early).not.toHaveBeenCalled();
    clock += 1;
    const late = lookupOf(record(1));
    await cache.find('a', late);
    expect(late).toHaveBeenCalledTimes(1);
  });

  it('keeps at most maxEntries, dropping the oldest', async () => {
    const { cache } = newCache({ maxEntries: 2 });
    for (const key of ['a', 'b', 'c']) await cache.find(key, lookupOf(record(1)));
    expect(cache.size).toBe(2);
    const first = lookupOf(record(1));
    await cache.find('a', first);
    expect(first).toHaveBeenCalledTimes(1);
    const last = lookupOf(record(1));
    await cache.find('c', last);
    expect(last).not.toHaveBeenCalled();
  });
});

describe('listenForSessionChanges', () => {
  it('drops what the notifications name, and everything when the connection comes back', async () => {
    const handlers = new Map<string, (payload: string) => void>();
    let reconnected = () => {};
    const notifications: Notifications = {
      listening: true,
      subscribe: async (channel, handler) => void handlers.set(channel, handler),
      onReconnect: (handler) => void (reconnected = handler),
      close: async () => {},
    };
    const cache = new SessionCache(notifications, { now });
    await listenForSessionChanges(cache, notifications);
    for (const [key, user] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['d', 3],
    ] as const)
      await cache.find(key, lookupOf(record(user)));

    handlers.get(SESSION_CHANGED)!('a');
    handlers.get(USER_CHANGED)!('3');
    expect(cache.size).toBe(1);
    reconnected();
    expect(cache.size).toBe(0);
  });
});
