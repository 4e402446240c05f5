import type { Db } from '../db/client';
import { AppError } from '../errors';
import { countAttempt, readAttempts } from './rate-limits.repo';

export interface RateRule {
  /** Names the counter, e.g. 'login-ip'. */
  name: string;
  limit: number;
  windowSeconds: number;
}

/** The limits on the unauthenticated flows attackers try first (DESIGN.md, security baseline). */
export const RATE_RULES = {
  loginPerIp: { name: 'login-ip', limit: 30, windowSeconds: 15 * 60 },
  // Wrong passwords only, per account (username and e-mail count as one) from one address: a guesser
  // elsewhere cannot lock the owner out.
  loginFailuresPerUserAndIp: { name: 'login-fail-user-ip', limit: 10, windowSeconds: 15 * 60 },
  // Wrong passwords per account from anywhere: past it only a known device (one with a live session
  // from the same address and browser) gets in, so a spread-out guesser still gets nowhere.
  loginFailuresPerUser: { name: 'login-fail-user', limit: 100, windowSeconds: 15 * 60 },
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
  // Verification codes texted to an account's SMS number, and every SMS an account causes in a day (codes and
  // alerts): the server's Twilio number must not be a relay anyone can use to text anyone.
  smsCodesPerUser: { name: 'sms-code-user', limit: 5, windowSeconds: 60 * 60 },
  smsPerUserPerDay: { name: 'sms-user-day', limit: 20, windowSeconds: 24 * 60 * 60 },
  // New Idempotency-Keys a user stores: each is a row kept 24 hours, and a key is one per thing created, so a
  // client that needs more than this in an hour is filling the table, not retrying.
  idempotencyKeysPerUser: { name: 'idempotency-keys-user', limit: 1000, windowSeconds: 60 * 60 },
} satisfies Record<string, RateRule>;

/** Counts one against `rule` for `subject` without refusing anything (failures counted after the answer is known). */
export async function countAgainst(db: Db, rule: RateRule, subject: string): Promise<void> {
  await countAttempt(db, `${rule.name}:${subject.toLowerCase()}`, rule.windowSeconds, 1);
}

/** Whether `rule` is used up for `subject` in its current window (nothing is counted). */
export async function rateLimitUsedUp(
  db: Db,
  rule: RateRule,
  subject: string,
): Promise<{ usedUp: boolean; retryAfter: number }> {
  const row = await readAttempts(db, `${rule.name}:${subject.toLowerCase()}`);
  return { usedUp: row.count >= rule.limit, retryAfter: row.retryAfter };
}

/**
 * Counts one attempt (or `amount` of something, such as bytes) against `rule` for `subject` in the
 * database (shared by every process) and throws 429 once the window's limit is passed. Fixed windows: simple, and good
 * enough here.
 */
export async function enforceRateLimit(db: Db, rule: RateRule, subject: string, amount = 1): Promise<void> {
  const key = `${rule.name}:${subject.toLowerCase()}`;
  const row = await countAttempt(db, key, rule.windowSeconds, amount);
  if (row.count <= rule.limit) return;
  throw rateLimited(row.retryAfter);
}

/** The 429 every limit answers with: how long to wait, in words and in Retry-After. */
export function rateLimited(retryAfterSeconds: number): AppError {
  const seconds = Math.max(1, retryAfterSeconds);
  const minutes = Math.ceil(seconds / 60);
  return new AppError(
    'rate_limited',
    `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    {
      'retry-after': String(seconds),
    },
  );
}
