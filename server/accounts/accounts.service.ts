import type { User } from '@contracts/user';
import { planOf } from '../platform/http/plan-gate';
import type { UserRow } from './users.repo';

// What other capabilities may use of accounts: the user as the API shows it.

/** The user as the API shows it: never the password hash. */
export function toUser(row: UserRow): User {
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
