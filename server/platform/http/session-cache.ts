import type { Notifications } from '../db/notifications';
import type { UserRow } from '../db/schema/index';

/** What a session lookup in the database finds: the signed-in user and when the session ends. */
export interface SessionRecord {
  user: UserRow;
  expiresAt: Date;
}

export interface SessionCacheOptions {
  /** Beyond this many sessions the oldest entry goes: memory stays bounded whatever the traffic. */
  maxEntries?: number;
  /** A safety net under the notifications: no entry is served longer than this after it was read. */
  maxAgeMs?: number;
  now?: () => number;
}

/** The database triggers of migration 0007 send these once a change commits. */
export const SESSION_CHANGED = 'session_changed'; // payload: the session's id_hash
export const USER_CHANGED = 'user_changed'; // payload: the user's id

interface Entry extends SessionRecord {
  cachedAt: number;
}

/**
 * Signed-in sessions kept in process memory, so a signed-in request costs no database round trip.
 *
 * Entries are dropped when the database says a session or user row changed (LISTEN/NOTIFY from the
 * triggers of migration 0007, to every process), and at once by the process that made the change
 * (the forget calls, write-through). The cache is trusted only while the LISTEN connection is up: a
 * notification sent while it is down is lost, so lookups then go to the database, and everything is
 * dropped when it comes back.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  // Bumped by every invalidation. A lookup stores its row only if nothing was invalidated since it
  // started: a row read just before a logout committed must not be cached just after it.
  private generation = 0;
  private readonly maxEntries: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(
    private readonly notifications: Pick<Notifications, 'listening'>,
    options: SessionCacheOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.maxAgeMs = options.maxAgeMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /** The user of session `idHash`: from memory when it can be trusted, otherwise from `lookup` (the database). */
  async find(idHash: string, lookup: () => Promise<SessionRecord | undefined>): Promise<UserRow | undefined> {
    const hit = this.peek(idHash);
    if (hit) return hit;
    const trusted = this.notifications.listening;
    const startedAt = this.generation;
    const found = await lookup();
    if (found && trusted && this.notifications.listening && this.generation === startedAt) this.store(idHash, found);
    return found?.user;
  }

  /** The user of session `idHash` when memory can answer for it; undefined means "ask find". */
  peek(idHash: string): UserRow | undefined {
    return this.notifications.listening ? this.fresh(idHash)?.user : undefined;
  }

  /** Called once the session is gone from the database. */
  forgetSession(idHash: string): void {
    this.generation++;
    this.entries.delete(idHash);
  }

  /** Called once a user row (or all of its sessions) changed in the database. */
  forgetUser(userId: number): void {
    this.generation++;
    // A scan, not an index by user: users change rarely, and the map is bounded.
    for (const [idHash, entry] of this.entries) if (entry.user.id === userId) this.entries.delete(idHash);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private fresh(idHash: string): Entry | undefined {
    const entry = this.entries.get(idHash);
    if (!entry) return undefined;
    const now = this.now();
    if (entry.expiresAt.getTime() > now && now - entry.cachedAt < this.maxAgeMs) return entry;
    this.entries.delete(idHash);
    return undefined;
  }

  private store(idHash: string, record: SessionRecord): void {
    this.entries.delete(idHash); // re-inserted last: the Map's order is the eviction order
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    // Concurrent requests share this row as request.user: frozen, so none can change it for the others.
    this.entries.set(idHash, { user: Object.freeze(record.user), expiresAt: record.expiresAt, cachedAt: this.now() });
  }
}

/** A cache kept current by this process's LISTEN connection: the triggers' notifications drop entries, a reconnect drops all. */
export async function listenForSessionChanges(cache: SessionCache, notifications: Notifications): Promise<void> {
  notifications.onReconnect(() => cache.clear());
  await notifications.subscribe(SESSION_CHANGED, (idHash) => cache.forgetSession(idHash));
  await notifications.subscribe(USER_CHANGED, (userId) => cache.forgetUser(Number(userId)));
}
