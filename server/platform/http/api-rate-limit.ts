import type { Db } from '../db/client';
import { leaseApiQuota } from './api-keys.repo';

/** What a bearer answer says about its quota (the X-RateLimit-* headers), and whether it may go on. */
export interface ApiQuota {
  allowed: boolean;
  limit: number;
  /** Requests left this hour: the shared counter as of this process's last lease, plus what is left of its block. */
  remaining: number;
  /** When the hour ends, epoch milliseconds. */
  resetAtMs: number;
}

/** A process leases at most this share of an hour's limit at a time (ADR 026). */
const BLOCK_SHARE = 0.05;
/** Beyond this many users with a running hour, the ones whose hour has ended are forgotten. */
const MAX_USERS = 10_000;

interface Hour {
  limit: number;
  /** Unknown (0) until the first lease answers. */
  windowEndMs: number;
  /** Requests this process leased in this hour, and how many of them it used. */
  granted: number;
  used: number;
  /** The shared counter as of this process's last lease. */
  shared: number;
  /** The shared counter reached the limit: nothing more can be leased this hour. */
  exhausted: boolean;
  lease?: Promise<void>;
}

/**
 * The hourly API quota of each user, held across processes without a database write per request
 * (ADR 026): each process leases blocks of the hour's quota from one counter row in PostgreSQL (an
 * upsert that adds the block and returns the total) and counts requests locally within its block.
 * The limit holds exactly across any number of processes; what a process leased and did not use is
 * lost to the others for that hour (at most one block each, and blocks shrink as the hour runs out).
 */
export class ApiRateLimiter {
  private readonly hours = new Map<number, Hour>();

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request of `userId` against `limit` an hour; `allowed` is false once the hour's quota is used. */
  async take(userId: number, limit: number): Promise<ApiQuota> {
    for (;;) {
      const quota = this.takeNow(userId, limit);
      if (quota) return quota;
      const hour = this.hourOf(userId, limit);
      // Concurrent requests of one user in this process wait for one lease, not one each.
      hour.lease ??= this.lease(userId, hour).finally(() => (hour.lease = undefined));
      await hour.lease;
    }
  }

  /** take, when this process can answer without the database (a block in hand, or the hour used up); undefined otherwise, counting nothing. */
  takeNow(userId: number, limit: number): ApiQuota | undefined {
    const hour = this.hourOf(userId, limit);
    if (hour.used < hour.granted) {
      hour.used++;
      return this.quota(hour, true);
    }
    return hour.exhausted ? this.quota(hour, false) : undefined;
  }

  private hourOf(userId: number, limit: number): Hour {
    const hour = this.hours.get(userId);
    if (hour && hour.limit === limit && (hour.windowEndMs === 0 || this.now() < hour.windowEndMs)) return hour;
    if (this.hours.size >= MAX_USERS) this.forgetEndedHours();
    // A new hour, or a new plan: the shared counter carries on, this process starts with no block.
    const fresh: Hour = { limit, windowEndMs: 0, granted: 0, used: 0, shared: 0, exhausted: false };
    this.hours.set(userId, fresh);
    return fresh;
  }

  private async lease(userId: number, hour: Hour): Promise<void> {
    // Small blocks near the end of the hour, so little quota sits unused in another process.
    const left = Math.max(0, hour.limit - hour.shared);
    const block = Math.max(1, Math.min(Math.ceil(hour.limit * BLOCK_SHARE), Math.ceil(left / 4)));
    const { count, windowEndMs } = await leaseApiQuota(this.db, userId, block);
    if (hour.windowEndMs !== 0 && windowEndMs !== hour.windowEndMs) {
      // The database's hour turned over since this process's last lease: the old block is void.
      hour.granted = hour.used = 0;
    }
    hour.windowEndMs = windowEndMs;
    hour.shared = count;
    const granted = Math.max(0, Math.min(block, hour.limit - (count - block)));
    hour.granted += granted;
    if (granted < block) hour.exhausted = true;
  }

  private quota(hour: Hour, allowed: boolean): ApiQuota {
    const remaining = Math.max(0, hour.limit - hour.shared) + (hour.granted - hour.used);
    return { allowed, limit: hour.limit, remaining, resetAtMs: hour.windowEndMs };
  }

  private forgetEndedHours(): void {
    const now = this.now();
    for (const [userId, hour] of this.hours)
      if (hour.windowEndMs !== 0 && hour.windowEndMs <= now) this.hours.delete(userId);
    if (this.hours.size >= MAX_USERS) this.hours.clear();
  }
}
