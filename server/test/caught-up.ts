import { randomBytes } from 'node:crypto';
import type { Database } from '../platform/db/client';
import type { Notifications } from '../platform/db/notifications';
import { waitUntil } from './wait-until';

const CHANNEL = 'test_caught_up';
const waiting = new WeakMap<Notifications, Map<string, () => void>>();

/**
 * Resolves once the app has been told of every change committed so far. A test that changes a row
 * behind the app's back (SQL on users or sessions) is seen by the app only when the triggers'
 * notification reaches its LISTEN connection, as with a change made by another process. PostgreSQL
 * delivers notifications to a listener in commit order, so when a NOTIFY sent now arrives, the
 * earlier ones have been handled (the session cache forgets synchronously in its handler).
 */
export async function caughtUp({
  notifications,
  database,
}: {
  notifications: Notifications;
  database: Database;
}): Promise<void> {
  let pending = waiting.get(notifications);
  if (!pending) {
    const byToken = new Map<string, () => void>();
    waiting.set(notifications, byToken);
    pending = byToken;
    // LISTEN is in place when subscribe returns, before the NOTIFY below.
    await notifications.subscribe(CHANNEL, (token) => byToken.get(token)?.());
  }
  const token = randomBytes(8).toString('hex');
  let heard = false;
  pending.set(token, () => (heard = true));
  try {
    await database.pool.query('SELECT pg_notify($1, $2)', [CHANNEL, token]);
    await waitUntil(() => heard, 'the app to hear the database notifications committed so far', { intervalMs: 5 });
  } finally {
    pending.delete(token);
  }
}
