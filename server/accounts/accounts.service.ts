import type { User } from '@contracts/user';
import type { UserRow } from './users.repo';

// What other capabilities may use of accounts: the user as the API shows it, and the one plan gate.
export { requireFeature } from './feature-gate';

/** The user as the API shows it: never the password hash. */
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    emailVerified: row.emailVerifiedAt !== null,
    subscriptionPlan: row.subscriptionPlan === 'professional' ? 'professional' : 'free',
    hasCompletedTour: row.hasCompletedTour,
    createdAt: row.createdAt.toISOString(),
  };
}
