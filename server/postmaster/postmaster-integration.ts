import { POSTMASTER_PROVIDER } from '@contracts/postmaster';
import type { Executor } from '../platform/db/client';
import {
  findUserIntegrationByProvider,
  lockUserIntegrationByProvider,
  saveSignInConnection,
  updateIntegration,
  type IntegrationRow,
} from '../integrations/integrations.service';

// The user's google-postmaster row of `integrations`: this capability writes it (its sign-in and its imports), the
// integrations capability owns it and lists and uninstalls it like any other.

export type PostmasterIntegration = IntegrationRow;

export function findPostmasterIntegration(ex: Executor, userId: number): Promise<PostmasterIntegration | undefined> {
  return findUserIntegrationByProvider(ex, userId, POSTMASTER_PROVIDER);
}

/** The row, locked to the end of the transaction (an import's writes against an uninstall or a reconnect). */
export function lockPostmasterIntegration(ex: Executor, userId: number): Promise<PostmasterIntegration | undefined> {
  return lockUserIntegrationByProvider(ex, userId, POSTMASTER_PROVIDER);
}

/** A (re)connected Google account: the refresh token sealed, the account's domains, ready for an import. */
export function saveConnection(
  ex: Executor,
  userId: number,
  credentialsEncrypted: string,
  config: Record<string, string>,
): Promise<PostmasterIntegration> {
  return saveSignInConnection(ex, {
    userId,
    provider: POSTMASTER_PROVIDER,
    type: 'analytics',
    credentialsEncrypted,
    config,
  });
}

export type IntegrationChange = Partial<
  Pick<
    PostmasterIntegration,
    | 'status'
    | 'config'
    | 'credentialsEncrypted'
    | 'lastSyncAt'
    | 'lastError'
    | 'lastErrorAt'
    | 'consecutiveFailures'
    | 'nextSyncAt'
  >
>;

export async function updatePostmasterIntegration(ex: Executor, id: number, change: IntegrationChange): Promise<void> {
  await updateIntegration(ex, id, change);
}
