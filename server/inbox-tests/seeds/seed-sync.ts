import type { Db } from '../../platform/db/client';
import { decryptSecret, encryptSecret } from '../../platform/security/secret-box';
import type { SeedConfig } from './seed-network-file';
import { deactivateSeedsNotIn, listSeedMailboxes, upsertSeedMailbox, type SeedRow } from './seeds.repo';

export interface SeedSyncResult {
  /** Seeds of the file that were added or changed. */
  written: number;
  /** Seeds of the file already stored as they are. */
  unchanged: number;
  /** Seeds no longer in the file, deactivated now. */
  deactivated: number;
}

/**
 * Makes seed_mailboxes match the seed network file: seeds are upserted by address (password
 * encrypted with APP_SECRET), seeds missing from the file are deactivated (never deleted: past
 * placements point at them). Runs at start-up in every process; a second run with the same file
 * changes nothing, and concurrent runs on PostgreSQL meet in the upsert.
 */
export async function syncSeedNetwork(
  db: Db,
  seeds: SeedConfig[] | undefined,
  appSecret: string,
): Promise<SeedSyncResult> {
  const wanted = seeds ?? [];
  return db.transaction(async (tx) => {
    const stored = new Map((await listSeedMailboxes(tx)).map((row) => [row.address, row]));
    let written = 0;
    for (const seed of wanted) {
      const row = stored.get(seed.address);
      const imapChanged = !row || imapSettingsChanged(row, seed, appSecret);
      if (row && row.active && !imapChanged && !descriptionChanged(row, seed)) continue;
      await upsertSeedMailbox(tx, {
        address: seed.address,
        ...descriptionOf(seed),
        ...imapSettings(seed),
        // A fresh box only when the login changed, so an unchanged seed keeps its row as it is.
        passwordEncrypted: row && !imapChanged ? row.passwordEncrypted : encryptSecret(seed.imap.password, appSecret),
        active: true,
        // New settings deserve a poll now, not after the backoff earned by the old ones.
        ...(imapChanged ? { consecutiveFailures: 0, lastError: null, nextPollAt: null } : {}),
      });
      written++;
    }
    const inFile = wanted.map((s) => s.address);
    const deactivated = await deactivateSeedsNotIn(tx, inFile);
    return { written, unchanged: wanted.length - written, deactivated };
  });
}

function descriptionOf(seed: SeedConfig) {
  return { provider: seed.provider, mailboxSystem: seed.mailboxSystem, region: seed.region, country: seed.country };
}

function imapSettings(seed: SeedConfig) {
  return {
    imapHost: seed.imap.host,
    imapPort: seed.imap.port,
    imapSecure: seed.imap.secure,
    imapTlsRejectUnauthorized: seed.imap.tlsRejectUnauthorized ?? true,
    imapUser: seed.imap.user,
    inboxFolder: seed.inboxFolder,
    spamFolders: seed.spamFolders,
    deleteFound: seed.deleteFound,
  };
}

function descriptionChanged(row: SeedRow, seed: SeedConfig): boolean {
  return Object.entries(descriptionOf(seed)).some(([key, value]) => row[key as keyof SeedRow] !== value);
}

function imapSettingsChanged(row: SeedRow, seed: SeedConfig, appSecret: string): boolean {
  const settings = imapSettings(seed);
  const differs = Object.entries(settings).some(
    ([key, value]) => JSON.stringify(row[key as keyof SeedRow]) !== JSON.stringify(value),
  );
  return differs || storedPassword(row, appSecret) !== seed.imap.password;
}

/** The stored password, or null when it cannot be opened (APP_SECRET changed): then it is replaced. */
function storedPassword(row: SeedRow, appSecret: string): string | null {
  try {
    return decryptSecret(row.passwordEncrypted, appSecret);
  } catch {
    return null;
  }
}
