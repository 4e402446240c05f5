import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import { seedMailboxes } from '../../platform/db/schema/index';
import { decryptSecret } from '../../platform/security/secret-box';
import { openTestDatabase } from '../../test/test-database';
import type { SeedConfig } from './seed-network-file';
import { syncSeedNetwork } from './seed-sync';

const SECRET = 'test-secret-test-secret-test-secret-0123';

function seed(n: number, overrides: Partial<SeedConfig> = {}): SeedConfig {
  return {
    provider: `Provider ${n}`,
    mailboxSystem: 'Dovecot',
    region: 'Europe',
    country: 'France',
    address: `seed${n}@example.com`,
    imap: { host: '127.0.0.1', port: 1143, secure: false, user: `seed${n}`, password: `pw${n}` },
    inboxFolder: 'INBOX',
    spamFolders: ['Junk'],
    deleteFound: false,
    ...overrides,
  };
}

describe('syncSeedNetwork', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database?.close());

  const rows = () => database.db.select().from(seedMailboxes).orderBy(asc(seedMailboxes.id));

  it('stores the seeds with encrypted passwords, and a second run changes nothing', async () => {
    expect(await syncSeedNetwork(database.db, [seed(1), seed(2)], SECRET)).toEqual({
      written: 2,
      unchanged: 0,
      deactivated: 0,
    });
    const first = await rows();
    expect(first).toMatchObject([
      {
        address: 'seed1@example.com',
        provider: 'Provider 1',
        imapHost: '127.0.0.1',
        imapPort: 1143,
        imapSecure: false,
        imapUser: 'seed1',
        spamFolders: ['Junk'],
        active: true,
      },
      { address: 'seed2@example.com', active: true },
    ]);
    expect(first[0]!.passwordEncrypted).not.toContain('pw1');
    expect(decryptSecret(first[0]!.passwordEncrypted, SECRET)).toBe('pw1');

    expect(await syncSeedNetwork(database.db, [seed(1), seed(2)], SECRET)).toEqual({
      written: 0,
      unchanged: 2,
      deactivated: 0,
    });
    expect(await rows()).toEqual(first);
  });

  it('resets the backoff when the IMAP settings change, and keeps it when only the description does', async () => {
    const failing = {
      consecutiveFailures: 3,
      lastError: 'Could not log in: no',
      nextPollAt: new Date(Date.now() + 60_000),
    };
    await database.db.update(seedMailboxes).set(failing);

    await syncSeedNetwork(
      database.db,
      [seed(1, { imap: { ...seed(1).imap, password: 'new pw' } }), seed(2, { region: 'Asia' })],
      SECRET,
    );
    const [one, two] = await rows();
    expect(one).toMatchObject({ consecutiveFailures: 0, lastError: null, nextPollAt: null });
    expect(decryptSecret(one!.passwordEncrypted, SECRET)).toBe('new pw');
    expect(two).toMatchObject({ region: 'Asia', consecutiveFailures: 3, lastError: 'Could not log in: no' });

    await syncSeedNetwork(
      database.db,
      [seed(1, { imap: { ...seed(1).imap, password: 'new pw' } }), seed(2, { region: 'Asia', spamFolders: ['Spam'] })],
      SECRET,
    );
    expect((await rows())[1]).toMatchObject({ spamFolders: ['Spam'], consecutiveFailures: 0, lastError: null });
  });

  it('deactivates seeds that left the file and brings them back when they return', async () => {
    expect(await syncSeedNetwork(database.db, [seed(2), seed(3)], SECRET)).toMatchObject({ deactivated: 1 });
    expect((await rows()).map((r) => [r.address, r.active])).toEqual([
      ['seed1@example.com', false],
      ['seed2@example.com', true],
      ['seed3@example.com', true],
    ]);
    await syncSeedNetwork(database.db, [seed(1), seed(2), seed(3)], SECRET);
    expect((await rows()).every((r) => r.active)).toBe(true);

    expect(await syncSeedNetwork(database.db, undefined, SECRET)).toMatchObject({ deactivated: 3 });
    expect(await database.db.select().from(seedMailboxes).where(eq(seedMailboxes.active, true))).toEqual([]);
    expect(await syncSeedNetwork(database.db, [], SECRET)).toEqual({ written: 0, unchanged: 0, deactivated: 0 });
  });

  it('re-encrypts a password stored under another APP_SECRET', async () => {
    await syncSeedNetwork(database.db, [seed(1)], SECRET);
    const other = `${SECRET}-rotated`;
    await syncSeedNetwork(database.db, [seed(1)], other);
    const [one] = await rows();
    expect(decryptSecret(one!.passwordEncrypted, other)).toBe('pw1');
  });
});
