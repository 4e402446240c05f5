import { asc, eq, sql } from 'drizzle-orm';
import { mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import { inboxTestPlacements, inboxTests, seedMailboxes, users } from '../../platform/db/schema/index';
import { createInboxTest } from '../inbox-tests.repo';
import { subjectTag } from '../test-address';
import type { SeedConfig } from './seed-network-file';
import { pollSeedMailboxes, SEED_REMOVED_NOTE, type SeedPollOptions } from './seed-poll';
import { seedNetworkOf } from './seed-network-file';
import { syncSeedNetwork } from './seed-sync';
import { noDovecot, startDovecot, type TestImapServer } from '../../test/dovecot';
import { createTestApp, type TestApp } from '../../test/test-app';
import { openTestDatabase } from '../../test/test-database';
import { queueSeedPolling } from './poll-seed-mailboxes.job';

const SECRET = 'test-secret-test-secret-test-secret-0123';
const WINDOW_MINUTES = 10;
const SEEDS = ['s1', 's2', 's3', 's4', 's5'].map((name) => ({
  user: `${name}@seeds.example`,
  password: `${name} password`,
}));
const message = (subject: string) =>
  `From: sender@example.com\r\nTo: seeds@example.com\r\nSubject: ${subject}\r\n\r\nHello\r\n`;

/** A server that accepts connections and never says a word: a seed whose IMAP server hangs. */
async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe.skipIf(noDovecot)('polling seed mailboxes (real Dovecot, real database)', () => {
  let imap: TestImapServer;
  let silent: Awaited<ReturnType<typeof startSilentServer>>;
  let database: Database;
  let userId: number;

  beforeAll(async () => {
    [imap, silent, database] = await Promise.all([
      startDovecot({ users: SEEDS }),
      startSilentServer(),
      openTestDatabase(),
    ]);
    const [user] = await database.db
      .insert(users)
      .values({ username: 'seeder', email: 'seeder@example.com', passwordHash: 'not used' })
      .returning();
    userId = user!.id;
  });
  // Each case starts with no running test, so the round's totals are its own.
  afterEach(async () => {
    await database.db.update(inboxTests).set({ status: 'completed' }).where(eq(inboxTests.status, 'running'));
  });
  afterAll(async () => {
    await database?.close();
    await imap?.stop();
    await silent?.close();
  });

  const seed = (name: string, overrides: { password?: string; port?: number } = {}): SeedConfig => {
    const account = SEEDS.find((s) => s.user.startsWith(`${name}@`));
    return {
      provider: `Provider ${name}`,
      mailboxSystem: 'Dovecot',
      region: 'Europe',
      country: 'France',
      address: account?.user ?? `${name}@seeds.example`,
      imap: {
        host: '127.0.0.1',
        port: overrides.port ?? imap.port,
        secure: false,
        user: account?.user ?? name,
        password: overrides.password ?? account?.password ?? 'x',
      },
      inboxFolder: 'INBOX',
      spamFolders: ['Junk', 'Spam'],
      deleteFound: false,
    };
  };
  const options: SeedPollOptions = {
    appSecret: SECRET,
    placementWindowMinutes: WINDOW_MINUTES,
    tuning: { connectionTimeout: 1000, greetingTimeout: 1000 },
  };
  const poll = () => pollSeedMailboxes(database.db, options);

  /** A test whose message has reached the inbound listener. */
  async function runningTest(receivedMinutesAgo = 0) {
    const test = await createInboxTest(database.db, userId, 'inbox.localhost');
    await database.db
      .update(inboxTests)
      .set({ status: 'running', receivedAt: sql`now() - make_interval(mins => ${receivedMinutesAgo})` })
      .where(eq(inboxTests.id, test.id));
    return { id: test.id, tag: subjectTag(test.id) };
  }
  const placements = (testId: number) =>
    database.db
      .select({
        address: inboxTestPlacements.address,
        placement: inboxTestPlacements.placement,
        folder: inboxTestPlacements.folder,
        tab: inboxTestPlacements.tab,
        note: inboxTestPlacements.note,
        foundAt: inboxTestPlacements.foundAt,
      })
      .from(inboxTestPlacements)
      .where(eq(inboxTestPlacements.testId, testId))
      .orderBy(asc(inboxTestPlacements.id));
  const testRow = async (id: number) => (await database.db.select().from(inboxTests).where(eq(inboxTests.id, id)))[0]!;
  const seedRow = async (address: string) =>
    (await database.db.select().from(seedMailboxes).where(eq(seedMailboxes.address, address)))[0]!;
  const passWindow = (id: number) =>
    database.db
      .update(inboxTests)
      .set({ receivedAt: sql`now() - make_interval(mins => ${WINDOW_MINUTES + 1})` })
      .where(eq(inboxTests.id, id));

  it('records inbox and spam placements and completes the test once every seed has answered', async () => {
    await syncSeedNetwork(database.db, [seed('s1'), seed('s2'), seed('s3')], SECRET);
    const test = await runningTest();
    await imap.deliver('s1@seeds.example', 'INBOX', message(`Launch ${test.tag}`));
    await imap.deliver('s2@seeds.example', 'INBOX', message(`Launch ${test.tag}`));
    await imap.deliver('s3@seeds.example', 'Junk', message(`Launch ${test.tag}`));

    const completedFor: number[] = [];
    const onCompleted = async (owner: number) => void completedFor.push(owner);
    expect(await pollSeedMailboxes(database.db, { ...options, onCompleted })).toMatchObject({
      polled: 3,
      failed: 0,
      found: 3,
      completed: 1,
    });
    // The job queues an alert evaluation for the owner of each completed test.
    expect(completedFor).toEqual([userId]);
    const rows = await placements(test.id);
    expect(rows).toMatchObject([
      { address: 's1@seeds.example', placement: 'inbox', folder: 'INBOX', tab: null, note: null },
      { address: 's2@seeds.example', placement: 'inbox', folder: 'INBOX', tab: null, note: null },
      { address: 's3@seeds.example', placement: 'spam', folder: 'Junk', tab: null, note: null },
    ]);
    expect(rows.every((r) => r.foundAt instanceof Date)).toBe(true);
    expect(await testRow(test.id)).toMatchObject({
      status: 'completed',
      totalSeeds: 3,
      inboxCount: 2,
      spamCount: 1,
      missingCount: 0,
    });
    expect((await seedRow('s1@seeds.example')).lastPolledAt).toBeInstanceOf(Date);

    // Nothing left to do: a second round polls nobody and changes nothing.
    expect(await poll()).toMatchObject({ polled: 0, completed: 0 });
    expect(await placements(test.id)).toEqual(rows);
  });

  it('backs off from a seed that refuses the login or never answers, answers the others, and leaves them missing with the reason', async () => {
    await syncSeedNetwork(
      database.db,
      [
        seed('s1'),
        seed('s2'),
        seed('s3'),
        seed('s4', { password: 'wrong password' }),
        seed('slow', { port: silent.port }),
      ],
      SECRET,
    );
    const test = await runningTest();
    await imap.deliver('s1@seeds.example', 'INBOX', message(`Offer ${test.tag}`));
    await imap.deliver('s3@seeds.example', 'Junk', message(`Offer ${test.tag}`));
    await imap.deliver('s4@seeds.example', 'INBOX', message(`Offer ${test.tag}`));

    expect(await poll()).toMatchObject({ polled: 5, failed: 2, found: 2, completed: 0 });
    const login = await seedRow('s4@seeds.example');
    expect(login).toMatchObject({ consecutiveFailures: 1, lastPolledAt: null });
    expect(login.lastError).toMatch(
      /^Could not log in: IMAP server 127\.0\.0\.1:\d+ refused the login as s4@seeds\.example/,
    );
    expect(login.lastError).not.toContain('wrong password');
    const backoff = login.nextPollAt!.getTime() - Date.now();
    expect(backoff).toBeGreaterThan(20_000);
    expect(backoff).toBeLessThanOrEqual(30_000);
    const slow = await seedRow('slow@seeds.example');
    expect(slow).toMatchObject({ consecutiveFailures: 1 });
    expect(slow.lastError).toMatch(/did not answer in time/);
    expect(await seedRow('s1@seeds.example')).toMatchObject({
      consecutiveFailures: 0,
      lastError: null,
      nextPollAt: null,
    });

    // Within the backoff the failing seeds are left alone (only s2 is still searched); what was found stays as it was.
    const found = await placements(test.id);
    expect(await poll()).toMatchObject({ polled: 1, backingOff: 2, found: 0, completed: 0 });
    expect(await placements(test.id)).toEqual(found);

    await passWindow(test.id);
    expect(await poll()).toMatchObject({ completed: 1 });
    expect(await placements(test.id)).toMatchObject([
      { address: 's1@seeds.example', placement: 'inbox', folder: 'INBOX', note: null },
      { address: 's2@seeds.example', placement: 'missing', folder: null, note: null },
      { address: 's3@seeds.example', placement: 'spam', folder: 'Junk', note: null },
      { address: 's4@seeds.example', placement: 'missing', note: login.lastError },
      { address: 'slow@seeds.example', placement: 'missing', note: slow.lastError },
    ]);
    expect(await testRow(test.id)).toMatchObject({
      status: 'completed',
      totalSeeds: 5,
      inboxCount: 1,
      spamCount: 1,
      missingCount: 3,
    });

    // The backoff doubles with each failure in a row.
    await runningTest();
    await database.db
      .update(seedMailboxes)
      .set({ nextPollAt: sql`now() - interval '1 second'` })
      .where(eq(seedMailboxes.address, 's4@seeds.example'));
    await poll();
    const again = await seedRow('s4@seeds.example');
    expect(again.consecutiveFailures).toBe(2);
    expect(again.nextPollAt!.getTime() - Date.now()).toBeGreaterThan(50_000);
    expect(again.nextPollAt!.getTime() - Date.now()).toBeLessThanOrEqual(60_000);

    // Fixed in the file: the next start-up resets the backoff, and the seed answers again.
    await syncSeedNetwork(database.db, [seed('s1'), seed('s2'), seed('s3'), seed('s4')], SECRET);
    await poll();
    expect(await seedRow('s4@seeds.example')).toMatchObject({ consecutiveFailures: 0, lastError: null });
  });

  it('resolves the tags of two tests in one mailbox over one connection', async () => {
    await syncSeedNetwork(database.db, [seed('s1'), seed('s2')], SECRET);
    const first = await runningTest();
    const second = await runningTest();
    await imap.deliver('s1@seeds.example', 'INBOX', message(`First ${first.tag}`));
    await imap.deliver('s1@seeds.example', 'Junk', message(`Second ${second.tag}`));
    await imap.deliver('s2@seeds.example', 'Spam', message(`First ${first.tag}`));
    await imap.deliver('s2@seeds.example', 'INBOX', message(`Second ${second.tag}`));
    const logins = () => imap.log().split('Login: user=<s1@seeds.example>').length - 1;
    const before = logins();

    expect(await poll()).toMatchObject({ polled: 2, found: 4, completed: 2 });
    await expect.poll(logins).toBe(before + 1);
    expect(await placements(first.id)).toMatchObject([
      { placement: 'inbox', folder: 'INBOX' },
      { placement: 'spam', folder: 'Spam' },
    ]);
    expect(await placements(second.id)).toMatchObject([
      { placement: 'spam', folder: 'Junk' },
      { placement: 'inbox', folder: 'INBOX' },
    ]);
  });

  it('makes the placements of a seed removed mid-test missing, with the reason', async () => {
    await syncSeedNetwork(database.db, [seed('s1'), seed('s5')], SECRET);
    const test = await runningTest();
    await imap.deliver('s5@seeds.example', 'INBOX', message(`Removed ${test.tag}`));
    await syncSeedNetwork(database.db, [seed('s1')], SECRET);

    expect(await poll()).toMatchObject({ removedSeedPlacements: 1, polled: 1, completed: 0 });
    expect(await placements(test.id)).toMatchObject([
      { address: 's1@seeds.example', placement: null },
      { address: 's5@seeds.example', placement: 'missing', note: SEED_REMOVED_NOTE },
    ]);
    await passWindow(test.id);
    await poll();
    expect(await testRow(test.id)).toMatchObject({ status: 'completed', inboxCount: 0, spamCount: 0, missingCount: 2 });
    expect((await placements(test.id))[0]).toMatchObject({ placement: 'missing', note: null });
  });

  it('leaves a test run by the analyser alone (no seed network)', async () => {
    await syncSeedNetwork(database.db, [], SECRET);
    const test = await runningTest(WINDOW_MINUTES * 2);
    expect(await poll()).toMatchObject({ polled: 0, completed: 0 });
    expect(await testRow(test.id)).toMatchObject({ status: 'running' });
    expect(await placements(test.id)).toMatchObject([{ placement: null }]);
  });
});

describe.skipIf(noDovecot)('the poll-seed-mailboxes job, queued through pg-boss with a seed network file', () => {
  let imap: TestImapServer;
  let t: TestApp;

  beforeAll(async () => {
    imap = await startDovecot({ users: [SEEDS[0]!] });
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'inboxpulse-seeds-')), 'seeds.yaml');
    writeFileSync(
      file,
      `seeds:
  - provider: Test provider
    mailboxSystem: Dovecot
    region: Europe
    country: France
    address: ${SEEDS[0]!.user}
    imap: { host: 127.0.0.1, port: ${imap.port}, tls: false, user: ${SEEDS[0]!.user}, password: env:SEED_S1_PASSWORD }
`,
    );
    t = await createTestApp({ work: true, env: { SEED_NETWORK_FILE: file, SEED_S1_PASSWORD: SEEDS[0]!.password } });
    await syncSeedNetwork(t.database.db, seedNetworkOf(t.env), t.env.APP_SECRET);
  });
  afterAll(async () => {
    await t?.close();
    await imap?.stop();
  });

  it('finds the message and completes the test when queued by queueSeedPolling', async () => {
    const [user] = await t.database.db
      .insert(users)
      .values({ username: 'jobuser', email: 'jobuser@example.com', passwordHash: 'not used' })
      .returning();
    const test = await createInboxTest(t.database.db, user!.id, t.env.INBOUND_DOMAIN);
    await t.database.db
      .update(inboxTests)
      .set({ status: 'running', receivedAt: sql`now()` })
      .where(eq(inboxTests.id, test.id));
    await imap.deliver(SEEDS[0]!.user, 'INBOX', message(`Queued ${subjectTag(test.id)}`));

    await queueSeedPolling(t.jobs);
    await expect
      .poll(async () => (await t.database.db.select().from(inboxTests).where(eq(inboxTests.id, test.id)))[0]!.status, {
        timeout: 15_000,
        interval: 200,
      })
      .toBe('completed');
    expect((await t.database.db.select().from(inboxTests).where(eq(inboxTests.id, test.id)))[0]).toMatchObject({
      inboxCount: 1,
      totalSeeds: 1,
    });
  });
});
