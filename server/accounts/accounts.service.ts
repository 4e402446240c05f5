import type { User } from '@contracts/user';
import { planOf } from '../plans/plan-gate.service';
import type { UserRow } from './users.repo';

// What other capabilities may use of accounts: the user as the API shows it.

// A signed-in request's row comes frozen from the session cache, shared by every request of the
// session (session-cache.ts): its API form is made once, not on every GET /api/user.
const shownRows = new WeakMap<UserRow, User>();

/** The user as the API shows it: never the password hash. */
export function toUser(row: UserRow): User {
  if (!Object.isFrozen(row)) return userOf(row);
  let user = shownRows.get(row);
  if (!user) shownRows.set(row, (user = Object.freeze(userOf(row))));
  return user;
}

function userOf(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    emailVerified: row.emailVerifiedAt !== null,
    subscriptionPlan: planOf(row),
    hasCompletedTour: row.hasCompletedTour,
    createdAt: row.createdAt.toISOString(),
  };
}
