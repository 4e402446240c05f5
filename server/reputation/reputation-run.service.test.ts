import { daysAgo, utcDay } from '@contracts/utc-day';
import { and, eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '@contracts/alerts';
import {
  blocklistListings,
  blocklistResults,
  dmarcSourceDays,
  domains,
  inboxTestReports,
  inboxTests,
  ipAddresses,
  reputationRuns,
  users,
  webhookDeliveries,
} from '../platform/db/schema/index';
import { blocklistsFor } from '../engine/blocklists/dnsbl';
import { caughtUp } from '../test/caught-up';
import type { TestDnsServer } from '../test/dns-server';
import { createTestAppWithDns, signUp, type TestApp } from '../test/test-app';
import { waitUntil } from '../test/wait-until';
import { sendDigest, takeAlertNotifications } from '../alerts/delivery/alert-delivery.service';
import { createMailer } from '../platform/mail/mailer';
import { runReputationCheckNow } from './reputation-run.test-support';
import { addIp } from './ip-addresses.test-support';

let t: TestApp;
let dns: TestDnsServer;
let close: () => Promise<void>;
beforeAll(async () => ({ t, dns, close } = await createTestAppWithDns()));
afterAll(() => close?.());

const log = pino({ level: 'silent' });
const run = (userId: number) => runReputationCheckNow(t, userId);
/** What alert delivery does for the user's webhooks now: alert.created / alert.resolved deliveries. */
async function tellWebhooks(userId: number) {
  const ctx = {
    db: t.database.db,
    env: t.env,
    dns: t.dns,
    jobs: t.jobs,
    log,
    mailer: createMailer(t.env.SMTP_URL, t.env.MAIL_FROM),
  };
  for (const id of await takeAlertNotifications(t.database.db, userId, new Date())) await sendDigest(ctx, id);
}
const IPV4_LISTS = () => blocklistsFor('ipv4').length;

/** The IP's query name under a list's zone: 7.113.0.203.zen.spamhaus.org. */
const q = (ip: string, zone: string) => `${ip.split('.').reverse().join('.')}.${zone}`;

function listOn(ip: string, zone: string, code = '127.0.0.2', txt?: string) {
  dns.zone[q(ip, zone)] = { A: [code], ...(txt ? { TXT: [txt] } : {}) };
}
function delist(ip: string, zone: string) {
  delete dns.zone[q(ip, zone)];
}
function publishPtr(ip: string, name: string | null, forward: string | null) {
  const ptr = `${ip.split('.').reverse().join('.')}.in-addr.arpa`;
  if (name) dns.zone[ptr] = { PTR: [name] };
  else delete dns.zone[ptr];
  if (name && forward) dns.zone[name] = { A: [forward] };
}

async function addDomain(userId: number, name: string) {
  const [row] = await t.database.db
    .insert(domains)
    .values({ userId, domain: name, verificationToken: `token-${name}` })
    .returning();
  return row;
}
const ipRow = async (id: number) => (await t.database.db.select().from(ipAddresses).where(eq(ipAddresses.id, id)))[0];
const resultsOf = (id: number) =>
  t.database.db.select().from(blocklistResults).where(eq(blocklistResults.ipAddressId, id));
const listingsOf = (id: number) =>
  t.database.db
    .select()
    .from(blocklistListings)
    .where(eq(blocklistListings.ipAddressId, id))
    .orderBy(blocklistListings.id);
const queuedEvaluations = async (userId: number) => {
  const { rows } = await t.database.pool.query<{ n: string }>(
    `select count(*) as n from pgboss.job where name = 'evaluate-alerts' and (data->>'userId')::int = $1`,
    [userId],
  );
  return Number(rows[0].n);
};
const runOf = async (userId: number) =>
  (await t.database.db.select().from(reputationRuns).where(eq(reputationRuns.userId, userId)))[0];
const alertsOf = async (client: { get(url: string): Promise<{ json(): unknown }> }) =>
  (await client.get('/api/alerts')).json() as Promise<Alert[]>;

describe('a reputation run', () => {
  it('asks every list, stores each answer as it was, and scores and badges the IP and the domain', async () => {
    const { user, client } = await signUp(t.app);
    const ip = await addIp(t.database.db, user.id, '203.0.113.7');
    const domain = await addDomain(user.id, 'listed-brand.test');
    listOn('203.0.113.7', 'zen.spamhaus.org', '127.0.0.2', 'https://check.spamhaus.org/sbl/query/SBL123');
    listOn('203.0.113.7', 'bl.spamcop.net');
    listOn('203.0.113.7', 'b.barracudacentral.org', '127.255.255.254'); // outside its table: refused
    dns.silent.add(q('203.0.113.7', 'psbl.surriel.com')); // never answers
    dns.zone['listed-brand.test.dbl.spamhaus.org'] = { A: ['127.0.1.2'] };
    publishPtr('203.0.113.7', 'mail.listed-brand.test', '203.0.113.7');

    await run(user.id);

    const results = new Map((await resultsOf(ip.id)).map((r) => [r.listId, r]));
    expect(results.size).toBe(IPV4_LISTS());
    expect(results.get('spamhaus-zen')).toMatchObject({
      status: 'listed',
      answers: ['127.0.0.2'],
      txt: 'https://check.spamhaus.org/sbl/query/SBL123',
    });
    expect(results.get('spamhaus-zen')?.reason).toBeTruthy();
    expect(results.get('spamcop')).toMatchObject({ status: 'listed', answers: ['127.0.0.2'] });
    expect(results.get('barracuda')).toMatchObject({ status: 'unknown', answers: ['127.255.255.254'] });
    expect(results.get('psbl')).toMatchObject({ status: 'unknown', answers: [] });
    expect(results.get('mailspike-bl')).toMatchObject({ status: 'clear', answers: [], reason: null });

    expect(await ipRow(ip.id)).toMatchObject({
      status: 'blocked', // two lists, tier 1
      blacklistCount: 2,
      totalProviders: IPV4_LISTS(),
      senderScore: 30,
      reverseDns: 'mail.listed-brand.test',
      reverseDnsConfirmed: true,
    });
    expect((await ipRow(ip.id)).scoreFactors.map((f) => f.label)).toEqual([
      'Listed on Spamhaus ZEN (tier 1)',
      'Listed on SpamCop (tier 1)',
      'Reverse DNS forward-confirmed',
    ]);
    const [domainRow] = await t.database.db.select().from(domains).where(eq(domains.id, domain.id));
    expect(domainRow.reputationScore).toBe(65);
    expect(domainRow.reputationFactors[0].label).toBe('Listed on Spamhaus DBL (tier 1)');

    expect((await listingsOf(ip.id)).map((l) => [l.listId, l.delistedAt])).toEqual([
      ['spamhaus-zen', null],
      ['spamcop', null],
    ]);
    const run1 = await runOf(user.id);
    expect(run1.finishedAt).not.toBeNull();
    expect(run1.lastError).toBeNull();

    const alerts = await alertsOf(client);
    expect(alerts.map((a) => [a.type, a.severity, a.title])).toEqual(
      expect.arrayContaining([
        ['blacklist_detection', 'critical', '203.0.113.7 is now listed on Spamhaus ZEN and SpamCop'],
        ['blacklist_detection', 'critical', 'listed-brand.test is now listed on Spamhaus DBL'],
      ]),
    );
    expect(alerts).toHaveLength(2);
    const ipAlert = alerts.find((a) => a.title.startsWith('203.0.113.7'))!;
    expect(ipAlert.metadata).toEqual({
      ipAddress: '203.0.113.7',
      checkedAt: expect.any(String),
      providers: [
        {
          provider: 'Spamhaus ZEN',
          hostname: 'zen.spamhaus.org',
          description: results.get('spamhaus-zen')?.reason,
          listed: true,
          checkedAt: expect.any(String),
        },
        {
          provider: 'SpamCop',
          hostname: 'bl.spamcop.net',
          description: results.get('spamcop')?.reason,
          listed: true,
          checkedAt: expect.any(String),
        },
      ],
      totalProviders: IPV4_LISTS(),
      listedCount: 2,
      value: 'Spamhaus ZEN and SpamCop',
    });
    dns.silent.clear();
  });

  it('closes a listing the list dropped, keeps one whose list did not answer, and keeps one alert saying what is left', async () => {
    const { user, client } = await signUp(t.app);
    const ip = await addIp(t.database.db, user.id, '203.0.113.20');
    listOn('203.0.113.20', 'zen.spamhaus.org');
    listOn('203.0.113.20', 'bl.spamcop.net');
    publishPtr('203.0.113.20', 'mx.sender.test', '203.0.113.20');
    await run(user.id);
    expect(await alertsOf(client)).toHaveLength(1);

    // Nothing changed: no alert.
    await run(user.id);
    expect(await alertsOf(client)).toHaveLength(1);

    // SpamCop drops it; ZEN does not answer (SERVFAIL): unknown is not a delisting.
    delist('203.0.113.20', 'bl.spamcop.net');
    dns.servfail.add(q('203.0.113.20', 'zen.spamhaus.org'));
    await run(user.id);
    const listings = await listingsOf(ip.id);
    expect(listings.map((l) => [l.listId, l.delistedAt === null])).toEqual([
      ['spamhaus-zen', true],
      ['spamcop', false],
    ]);
    // Still on ZEN: the one listing alert stays open, now saying so; no second alert.
    const [listing, ...others] = await alertsOf(client);
    expect(others).toEqual([]);
    expect(listing).toMatchObject({
      severity: 'critical',
      title: '203.0.113.20 is still listed on Spamhaus ZEN',
      resolvedAt: null,
    });
    expect(listing.message).toContain('It was removed from SpamCop.');
    expect(listing.history.at(-1)).toMatchObject({
      event: 'updated',
      message: 'Lists 203.0.113.20 is on now Spamhaus ZEN (was Spamhaus ZEN and SpamCop).',
    });
    expect(listing.metadata).toMatchObject({
      listedCount: 1,
      providers: [
        { provider: 'Spamhaus ZEN', listed: true },
        { provider: 'SpamCop', listed: false },
      ],
    });
    // ZEN did not answer: its open listing still counts
    expect(await ipRow(ip.id)).toMatchObject({ status: 'blocked', blacklistCount: 1 });
    dns.servfail.clear();
  });

  it('resolves the listing alert when the address is delisted: alert.resolved goes out and no second alert is left open or unread', async () => {
    const { user, client } = await signUp(t.app);
    // Webhooks are advanced alerting: a Professional account.
    await t.database.db.update(users).set({ subscriptionPlan: 'professional' }).where(eq(users.id, user.id));
    await caughtUp(t);
    dns.zone['hooks.delisting-receiver.test'] = { A: ['93.184.215.14'] };
    const hook = await client.post('/api/webhooks', {
      url: 'https://hooks.delisting-receiver.test/in',
      events: ['alert.created', 'alert.resolved'],
    });
    expect(hook.statusCode, hook.body).toBe(200);
    await addIp(t.database.db, user.id, '203.0.113.21');
    publishPtr('203.0.113.21', 'mx21.sender.test', '203.0.113.21');
    listOn('203.0.113.21', 'bl.spamcop.net');
    await run(user.id);
    const [listed, ...others] = await alertsOf(client);
    expect(others).toEqual([]);
    expect(listed).toMatchObject({
      severity: 'critical',
      title: '203.0.113.21 is now listed on SpamCop',
      isRead: false,
      resolvedAt: null,
    });
    await tellWebhooks(user.id);

    delist('203.0.113.21', 'bl.spamcop.net');
    await run(user.id);
    const after = await alertsOf(client);
    expect(after.map((a) => a.id)).toEqual([listed.id]);
    expect(after[0]!.resolvedAt).not.toBeNull();
    expect(after.filter((a) => a.resolvedAt === null)).toEqual([]);
    expect(after.filter((a) => !a.isRead)).toHaveLength(1); // the listing itself, now resolved: no second unread alert
    expect(after[0]!.history.at(-1)).toMatchObject({
      event: 'resolved',
      message: `Recovered: 203.0.113.21 was removed from SpamCop. It is on none of the ${IPV4_LISTS()} lists checked.`,
    });
    await tellWebhooks(user.id);
    const sent = await t.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.userId, user.id))
      .orderBy(webhookDeliveries.id);
    expect(sent.map((d) => [d.eventType, JSON.parse(d.body).data.alert_id])).toEqual([
      ['alert.created', listed.id],
      ['alert.resolved', listed.id],
    ]);

    // Listed again: a new alert, told again.
    listOn('203.0.113.21', 'bl.spamcop.net');
    await run(user.id);
    const again = await alertsOf(client);
    expect(again.filter((a) => a.resolvedAt === null).map((a) => a.title)).toEqual([
      '203.0.113.21 is now listed on SpamCop',
    ]);
    delist('203.0.113.21', 'bl.spamcop.net');
  });

  it('a policy-only listing and an unconfirmed PTR give caution, not a listing; a clean address is clean', async () => {
    const { user, client } = await signUp(t.app);
    const pbl = await addIp(t.database.db, user.id, '198.51.100.9');
    const clean = await addIp(t.database.db, user.id, '198.51.100.10');
    listOn('198.51.100.9', 'zen.spamhaus.org', '127.0.0.10');
    publishPtr('198.51.100.9', 'dyn-9.isp.test', null);
    publishPtr('198.51.100.10', 'out.clean.test', '198.51.100.10');
    await run(user.id);
    expect(await ipRow(pbl.id)).toMatchObject({
      status: 'caution',
      blacklistCount: 0,
      senderScore: 90,
      reverseDns: 'dyn-9.isp.test',
      reverseDnsConfirmed: false,
    });
    expect(await ipRow(clean.id)).toMatchObject({ status: 'clean', blacklistCount: 0, senderScore: 100 });
    // A policy listing is still news: the user is told once.
    const alerts = await alertsOf(client);
    expect(alerts.map((a) => [a.severity, a.title])).toEqual([
      ['warning', '198.51.100.9 is now listed on Spamhaus ZEN'],
    ]);
  });

  it('an ignored list is asked and stored but counts for nothing, and switching it recomputes without a lookup', async () => {
    const { user, client } = await signUp(t.app);
    const ip = await addIp(t.database.db, user.id, '203.0.113.30');
    publishPtr('203.0.113.30', 'mx30.sender.test', '203.0.113.30');
    expect((await client.request('PUT', '/api/blocklists/spamcop/ignore', { ignored: true })).json()).toMatchObject({
      id: 'spamcop',
      ignored: true,
    });
    listOn('203.0.113.30', 'bl.spamcop.net');
    await run(user.id);
    expect((await resultsOf(ip.id)).find((r) => r.listId === 'spamcop')?.status).toBe('listed');
    expect(await ipRow(ip.id)).toMatchObject({ status: 'clean', blacklistCount: 0, senderScore: 100 });
    expect(await alertsOf(client)).toEqual([]);
    expect((await listingsOf(ip.id)).map((l) => l.listId)).toEqual(['spamcop']); // history is kept all the same

    // Counting it again scores the stored answer at once; the DNS says nothing any more, so no lookup did this.
    delist('203.0.113.30', 'bl.spamcop.net');
    const res = await client.request('PUT', '/api/blocklists/spamcop/ignore', { ignored: false });
    expect(res.json()).toMatchObject({ id: 'spamcop', ignored: false });
    expect(await ipRow(ip.id)).toMatchObject({ status: 'blocked', blacklistCount: 1, senderScore: 65 });
  });

  it('tells domain.reputation_changed webhooks when a domain score moves, with the term that moved it, and not for a first score', async () => {
    const { user, client } = await signUp(t.app);
    dns.zone['hooks.moving-brand.test'] = { A: ['93.184.215.14'] };
    const hook = await client.post('/api/webhooks', {
      url: 'https://hooks.moving-brand.test/in',
      events: ['domain.reputation_changed'],
    });
    expect(hook.statusCode, hook.body).toBe(200);
    await addDomain(user.id, 'moving-brand.test');
    const events = async () =>
      (
        await t.database.db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.userId, user.id))
          .orderBy(webhookDeliveries.id)
      ).map((d) => JSON.parse(d.body) as { type: string; data: Record<string, unknown> });

    await run(user.id); // first score: 100, nothing to compare with
    expect(await events()).toEqual([]);
    dns.zone['moving-brand.test.dbl.spamhaus.org'] = { A: ['127.0.1.2'] };
    await run(user.id);
    await run(user.id); // still listed: the score did not move
    delete dns.zone['moving-brand.test.dbl.spamhaus.org'];
    await run(user.id);

    const told = await events();
    expect(told.map((e) => [e.type, e.data.previous_score, e.data.current_score])).toEqual([
      ['domain.reputation_changed', 100, 65],
      ['domain.reputation_changed', 65, 100],
    ]);
    expect(told[0]!.data).toMatchObject({
      domain: 'moving-brand.test',
      change_reason: expect.stringMatching(/^Listed on Spamhaus DBL \(tier 1\): /),
      updated_at: expect.any(String),
    });
    expect(told[1]!.data.change_reason).toBe('Listed on Spamhaus DBL (tier 1): no longer takes points off (took 35)');
    const { rows } = await t.database.pool.query<{ n: string }>(
      `select count(*) as n from pgboss.job where name = 'deliver-webhook' and (data->>'deliveryId')::int = any($1::int[])`,
      [
        (await t.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.userId, user.id))).map(
          (d) => d.id,
        ),
      ],
    );
    expect(Number(rows[0]!.n)).toBe(2); // each queued once its run committed
  });

  it('the ignore switch: 404 for a list not in the catalogue, 400 for a bad body, and neither changes anything', async () => {
    const { client } = await signUp(t.app);
    const unknown = await client.request('PUT', '/api/blocklists/no-such-list/ignore', { ignored: true });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 'not_found', message: 'Blocklist not found' });
    const bad = await client.request('PUT', '/api/blocklists/spamcop/ignore', { ignored: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'validation_error',
      message: expect.stringContaining('ignored must be true or false'),
    });
    const lists = (await client.get('/api/blocklists')).json() as { id: string; ignored: boolean }[];
    expect(lists.length).toBeGreaterThanOrEqual(47);
    expect(lists.filter((l) => l.ignored)).toEqual([]);
  });

  it('a run that fails while writing leaves nothing of itself behind, and the status says why', async () => {
    const { user, client } = await signUp(t.app);
    const ip = await addIp(t.database.db, user.id, '203.0.113.40');
    listOn('203.0.113.40', 'zen.spamhaus.org');
    // The last write of the transaction fails, as a database that went away would.
    await t.database.db.execute(
      sql.raw(`
      create function fail_reputation_finish() returns trigger language plpgsql as $$
      begin if new.user_id = ${user.id} and new.finished_at is not null then raise exception 'the disk is full'; end if; return new; end $$;
      create trigger fail_reputation_finish before update on reputation_runs for each row execute function fail_reputation_finish();`),
    );
    try {
      await expect(run(user.id)).rejects.toThrow();
    } finally {
      await t.database.db.execute(
        sql.raw('drop trigger fail_reputation_finish on reputation_runs; drop function fail_reputation_finish();'),
      );
    }
    expect(await resultsOf(ip.id)).toEqual([]);
    expect(await listingsOf(ip.id)).toEqual([]);
    expect(await ipRow(ip.id)).toMatchObject({
      status: 'pending',
      senderScore: null,
      lastChecked: null,
      reverseDns: null,
    });
    expect(await alertsOf(client)).toEqual([]);
    const status = (await client.get('/api/ip-monitoring/status')).json();
    expect(status).toMatchObject({
      isRunning: false,
      lastRun: null,
      lastError: expect.stringContaining('Failed query'),
    });

    // The retry succeeds and writes it all.
    await run(user.id);
    expect(await ipRow(ip.id)).toMatchObject({ status: 'blocked', blacklistCount: 1 });
    expect((await client.get('/api/ip-monitoring/status')).json()).toMatchObject({
      isRunning: false,
      lastError: null,
      lastRun: expect.any(String),
    });
  });

  it('skips an IP deleted while its lists were being asked', async () => {
    const { user } = await signUp(t.app);
    const kept = await addIp(t.database.db, user.id, '203.0.113.50');
    const gone = await addIp(t.database.db, user.id, '203.0.113.51');
    listOn('203.0.113.51', 'bl.spamcop.net');
    dns.silent.add(q('203.0.113.50', 'psbl.surriel.com')); // holds the run in its lookups until the engine's timeout
    try {
      const running = run(user.id);
      await waitUntil(async () => (await runOf(user.id))?.startedAt, 'the run to start');
      await t.database.db.delete(ipAddresses).where(and(eq(ipAddresses.id, gone.id), eq(ipAddresses.userId, user.id)));
      await running;
    } finally {
      dns.silent.clear();
    }
    expect((await resultsOf(kept.id)).length).toBe(IPV4_LISTS());
    expect(await resultsOf(gone.id)).toEqual([]);
    expect((await runOf(user.id)).finishedAt).not.toBeNull();
  });

  it("scores the IP's and the domain's DMARC pass rate and inbox placement of the last 30 days, and nothing older", async () => {
    const { user } = await signUp(t.app);
    const ip = await addIp(t.database.db, user.id, '2001:db8::25');
    const domain = await addDomain(user.id, 'measured.test');
    const day = (ago: number) => utcDay(daysAgo(ago));
    const row = {
      userId: user.id,
      domain: 'measured.test',
      disposition: 'none',
      spfAligned: 0,
      dkimAligned: 0,
      failedMisaligned: 0,
    };
    await t.database.db.insert(dmarcSourceDays).values([
      // As a report may write it: the same IPv6 address, not in its shortest form.
      { ...row, day: day(1), sourceIp: '2001:0db8:0:0:0:0:0:25', total: 60, failed: 10 },
      { ...row, day: day(2), sourceIp: '2001:db8::25', total: 40, failed: 10 },
      { ...row, day: day(45), sourceIp: '2001:db8::25', total: 1000, failed: 1000 }, // too old
    ]);
    const tests = await t.database.db
      .insert(inboxTests)
      .values([
        {
          userId: user.id,
          testEmailAddress: `t1-${user.id}@in.test`,
          status: 'completed',
          completedAt: new Date(),
          totalSeeds: 10,
          inboxCount: 6,
          spamCount: 4,
        },
        {
          userId: user.id,
          testEmailAddress: `t2-${user.id}@in.test`,
          status: 'completed',
          completedAt: daysAgo(40),
          totalSeeds: 10,
          spamCount: 10,
        },
      ])
      .returning();
    const report = { connectingIp: { ip: '2001:db8::25' }, authentication: { dmarc: { domain: 'Measured.test' } } };
    await t.database.db.insert(inboxTestReports).values(tests.map((test) => ({ testId: test.id, score: 5, report })));
    dns.zone['5.2.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa'] = {
      PTR: ['v6.measured.test'],
    };
    dns.zone['v6.measured.test'] = { AAAA: ['2001:db8::25'] };

    await run(user.id);

    // DMARC 80 of 100 passed: (95 - 80) / 2 = 7.5 -> 8; placement 6 of 10 in the inbox: (90 - 60) / 2 = 15.
    const scored = await ipRow(ip.id);
    expect(scored).toMatchObject({
      senderScore: 77,
      status: 'caution',
      totalProviders: blocklistsFor('ipv6').length,
      reverseDnsConfirmed: true,
    });
    expect(scored.scoreFactors.map((f) => [f.label, f.points])).toEqual([
      ['Blocklists', 0],
      ['Reverse DNS forward-confirmed', 0],
      ['DMARC pass rate 80%', 8],
      ['Inbox placement 60%', 15],
    ]);
    const [domainRow] = await t.database.db.select().from(domains).where(eq(domains.id, domain.id));
    expect(domainRow.reputationScore).toBe(77);
  });

  it('does not start beside a run of the same user that is going', async () => {
    const { user } = await signUp(t.app);
    const ip = await addIp(t.database.db, user.id, '203.0.113.60');
    await t.database.db.insert(reputationRuns).values({ userId: user.id, startedAt: new Date() });
    await run(user.id);
    expect(await resultsOf(ip.id)).toEqual([]);
    expect((await ipRow(ip.id)).status).toBe('pending');
    expect(await queuedEvaluations(user.id)).toBe(0);
  });

  it('asks for an alert evaluation once its run has committed (the sender scores changed)', async () => {
    const { user } = await signUp(t.app);
    await addIp(t.database.db, user.id, '203.0.113.61');
    await run(user.id);
    expect(await queuedEvaluations(user.id)).toBe(1);
  });
});
