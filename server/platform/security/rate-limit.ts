import type { Db } from '../db/client';
import { AppError } from '../errors';
import { countAttempt } from './rate-limits.repo';

export interface RateRule {
  /** Names the counter, e.g. 'login-ip'. */
  name: string;
  limit: number;
  windowSeconds: number;
}

/** The limits on the unauthenticated flows attackers try first (DESIGN.md, security baseline). */
export const RATE_RULES = {
  loginPerIp: { name: 'login-ip', limit: 30, windowSeconds: 15 * 60 },
  loginPerUser: { name: 'login-user', limit: 10, windowSeconds: 15 * 60 },
  registerPerIp: { name: 'register-ip', limit: 10, windowSeconds: 60 * 60 },
  mailPerIp: { name: 'mail-ip', limit: 10, windowSeconds: 60 * 60 },
  mailPerAddress: { name: 'mail-address', limit: 3, windowSeconds: 60 * 60 },
  chatPerIp: { name: 'chat-ip', limit: 30, windowSeconds: 10 * 60 },
  // Each upload may unpack up to 50 MB: enough for a backlog of reports, not for a flood.
  dmarcUploadPerUser: { name: 'dmarc-upload-user', limit: 100, windowSeconds: 10 * 60 },
  // Each test costs seed-mailbox polling for its placement window.
  inboxTestPerUser: { name: 'inbox-test-user', limit: 30, windowSeconds: 60 * 60 },
  // Each simulation parses up to 2 MB of content.
  simulatePerUser: { name: 'simulate-user', limit: 30, windowSeconds: 10 * 60 },
} satisfies Record<string, RateRule>;

/**
 * Counts one attempt (or `amount` of something, such as bytes) against `rule` for `subject` in the
 * database (shared by every process) and throws 429 once the window's limit is passed; an amount of
 * 0 only checks. Fixed windows: simple, and good enough here.
 */
export async function enforceRateLimit(db: Db, rule: RateRule, subject: string, amount = 1): Promise<void> {
  const key = `${rule.name}:${subject.toLowerCase()}`;
  const row = await countAttempt(db, key, rule.windowSeconds, amount);
  if (row.count <= rule.limit) return;
  const seconds = Math.max(1, row.retryAfter);
  const minutes = Math.ceil(seconds / 60);
  throw new AppError('rate_limited', `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, {
    'retry-after': String(seconds),
  });
}
