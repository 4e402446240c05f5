import { ACCOUNT_MESSAGES, SESSION_ID_LENGTH, type AccountSession } from '@contracts/account';
import type { Db } from '../platform/db/client';
import { AppError } from '../platform/errors';
import { forgetCachedUser } from '../platform/http/session';
import { deleteOtherUserSessions, deleteUserSessionByPrefix, listUserSessions } from '../platform/http/sessions.repo';

/** The id the API shows for a stored session hash: opaque, and no use for signing in. */
export function sessionId(idHash: string): string {
  return idHash.slice(0, SESSION_ID_LENGTH);
}

const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
  [/curl\//, 'curl'],
];
const SYSTEMS: [RegExp, string][] = [
  [/Windows/, 'Windows'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

/** "Firefox on Linux" from a User-Agent; "Unknown device" when it names nothing known. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = BROWSERS.find(([re]) => re.test(userAgent))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Unknown device';
}

/** The user's live sessions, the one of `currentIdHash` marked current. */
export async function listSessions(
  db: Db,
  userId: number,
  currentIdHash: string | undefined,
): Promise<AccountSession[]> {
  const rows = await listUserSessions(db, userId);
  return rows.map((row) => ({
    id: sessionId(row.idHash),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    ip: row.ip,
    userAgent: row.userAgent,
    device: describeDevice(row.userAgent),
    current: row.idHash === currentIdHash,
  }));
}

/** Ends one of the user's own sessions (404 for any other id); answers whether it was `currentIdHash`. */
export async function revokeSession(
  db: Db,
  userId: number,
  id: string,
  currentIdHash: string | undefined,
): Promise<{ wasCurrent: boolean }> {
  const ended = await deleteUserSessionByPrefix(db, userId, id);
  if (ended.length === 0) throw new AppError('not_found', ACCOUNT_MESSAGES.sessionNotFound);
  // This process drops it at once; the others hear the deletion from the database (ADR 014).
  forgetCachedUser(db, userId);
  return { wasCurrent: currentIdHash !== undefined && ended.includes(currentIdHash) };
}

/** Signs the user out everywhere but the session of `currentIdHash`; returns how many sessions ended. */
export async function signOutOtherSessions(db: Db, userId: number, currentIdHash: string): Promise<number> {
  const revoked = await deleteOtherUserSessions(db, userId, currentIdHash);
  forgetCachedUser(db, userId);
  return revoked;
}
