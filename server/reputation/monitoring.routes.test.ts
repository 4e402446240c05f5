import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ipAddresses } from '../platform/db/schema/index';
import { DNSBL_CATALOGUE } from '../engine/blocklists/dnsbl';
import { startDnsServer, type TestDnsServer, type ZoneEntry } from '../test/dns-server';
import { createTestApp, signUp, TestClient, type TestApp } from '../test/test-app';
import { waitUntil } from '../test/wait-until';
import { reputationCheckJob } from './reputation-check.job';
import { nextScheduledRun } from './monitoring.routes';
import { addIp } from './ip-addresses.test-support';

let dns: TestDnsServer;
let t: TestApp;
/** Queries the test DNS server received per name (it reads its zone once per query). */
const asked = new Map<string, number>();
beforeAll(async () => {
  dns = await startDnsServer();
  dns.zone = new Proxy<Record<string, ZoneEntry>>(
    {},
    {
      get(zone, name) {
        if (typeof name === 'string') asked.set(name, (asked.get(name) ?? 0) + 1);
        return Reflect.get(zone, name);
      },
    },
  );
  t = await createTestApp({ env: { DNS_SERVERS: dns.address }, work: true });
});
afterAll(async () => {
  await t?.close();
  await dns?.close();
});

const ptrName = (ip: string) => `${ip.split('.').reverse().join('.')}.in-addr.arpa`;
const status = async (client: TestClient) => (await client.get('/api/ip-monitoring/status')).json();
const finished = (client: TestClient) =>
  waitUntil(() => status(client), 'the run to finish', {
    until: (s: { isRunning: boolean; lastRun: string | null; lastError: string | null }) =>
      !s.isRunning && s.lastRun !== null,
  });
const jobsOf = async (userId: number) => {
  const { rows } = await t.database.pool.query<{ state: string }>(
    `select state from pgboss.job where name = $1 and (data->>'userId')::int = $2`,
    [reputationCheckJob.name, userId],
  );
  return rows.map((r) => r.state);
};

describe('monitoring status and trigger', () => {
  it('says how many lists there are, that nothing ran yet, and when the next 2-hourly run is', async () => {
    const { client } = await signUp(t.app);
    const before = await status(client);
    expect(before).toEqual({
      totalProviders: DNSBL_CATALOGUE.filter((l) => l.kind === 'ip').length,
      totalDomainProviders: DNSBL_CATALOGUE.filter((l) => l.kind === 'domain').length,
      // What an address is asked: IPv6 only of the lists that serve it (the overview says so).
      ipv4Providers: DNSBL_CATALOGUE.filter((l) => l.kind === 'ip' && l.ipv4 !== false).length,
      ipv6Providers: DNSBL_CATALOGUE.filter((l) => l.kind === 'ip' && l.ipv6).length,
      isRunning: false,
      lastRun: null,
      nextRun: expect.any(String),
      lastError: null,
    });
    const next = new Date(before.nextRun);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(2 * 3600_000);
    expect(next.getUTCHours() % 2).toBe(0);
    expect(next.getUTCMinutes()).toBe(0);
  });

  it('the next run is the next even hour, UTC', () => {
    expect(nextScheduledRun(new Date('2026-03-01T10:00:00Z')).toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(nextScheduledRun(new Date('2026-03-01T11:59:59Z')).toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(nextScheduledRun(new Date('2026-03-01T23:30:00Z')).toISOString()).toBe('2026-03-02T00:00:00.000Z');
  });

  it('two triggers at once run once; running while it goes, then the time it finished', async () => {
    const { user, client } = await signUp(t.app);
    const ip = '203.0.113.70';
    await addIp(t.database.db, user.id, ip);
    dns.zone[ptrName(ip)] = { PTR: ['mx70.sender.test'] };
    dns.zone['mx70.sender.test'] = { A: [ip] };
    dns.zone[`70.113.0.203.bl.spamcop.net`] = { A: ['127.0.0.2'] };
    // One list never answers: the run lasts the engine's per-list timeout, long enough to see it going.
    dns.silent.add(`70.113.0.203.psbl.surriel.com`);
    try {
      const [a, b] = await Promise.all([
        client.post('/api/ip-monitoring/trigger'),
        client.post('/api/ip-monitoring/trigger'),
      ]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      expect([a.json().started, b.json().started].sort()).toEqual([false, true]);
      expect(a.json().status.isRunning).toBe(true);
      expect(b.json().status.isRunning).toBe(true);
      expect((await status(client)).isRunning).toBe(true);
      const after = await finished(client);
      expect(after.lastError).toBeNull();
    } finally {
      dns.silent.clear();
    }
    // The run is finished once it committed; its job completes a moment later, after queueing what follows.
    await waitUntil(() => jobsOf(user.id), 'the one run to complete', {
      until: (states) => states.length === 1 && states[0] === 'completed',
    });
    expect(await jobsOf(user.id)).toEqual(['completed']);
    expect(asked.get(ptrName(ip))).toBe(1); // one reverse lookup: one run
    const [row] = await t.database.db
      .select()
      .from(ipAddresses)
      .where(sql`${ipAddresses.userId} = ${user.id}`);
    expect(row).toMatchObject({ status: 'blocked', blacklistCount: 1, senderScore: 65 });

    // Once finished, a trigger starts a new run.
    const again = await client.post('/api/ip-monitoring/trigger');
    expect(again.json().started).toBe(true);
    await waitUntil(() => jobsOf(user.id), 'the second run', {
      until: (states) => states.length === 2 && states.every((s) => s === 'completed'),
    });
    expect(asked.get(ptrName(ip))).toBe(2);
  });

  it('an IP added while a run is going is checked by one more run after it', async () => {
    const { user, client } = await signUp(t.app);
    const first = '203.0.113.71';
    await addIp(t.database.db, user.id, first);
    dns.silent.add(`71.113.0.203.psbl.surriel.com`); // the first run lasts the per-list timeout
    try {
      expect((await client.post('/api/ip-monitoring/trigger')).json().started).toBe(true);
      await waitUntil(() => jobsOf(user.id), 'the first run to start', {
        until: (states) => states.includes('active'),
      });
      const added = await client.post('/api/ip-addresses', { ipAddress: '93.184.216.34' });
      expect(added.statusCode).toBe(200);
    } finally {
      dns.silent.clear();
    }
    await waitUntil(() => jobsOf(user.id), 'both runs', {
      until: (states) => states.length === 2 && states.every((s) => s === 'completed'),
    });
    const rows = await t.database.db
      .select()
      .from(ipAddresses)
      .where(sql`${ipAddresses.userId} = ${user.id}`);
    expect(rows.map((r) => [r.ipAddress, r.status !== 'pending' && r.lastChecked !== null]).sort()).toEqual([
      ['203.0.113.71', true],
      ['93.184.216.34', true],
    ]);
  });

  it('needs a signed-in user', async () => {
    const anonymous = new TestClient(t.app);
    expect((await anonymous.get('/api/ip-monitoring/status')).statusCode).toBe(401);
    expect((await anonymous.post('/api/ip-monitoring/trigger')).statusCode).toBe(401);
    expect((await anonymous.get('/api/blocklists')).statusCode).toBe(401);
  });
});

describe('listing history and the dashboard', () => {
  it('lists when each listing began and ended, for the owner only; the dashboard shows the mean sender score', async () => {
    const { user, client } = await signUp(t.app);
    const other = await signUp(t.app);
    const ip = await addIp(t.database.db, user.id, '203.0.113.80');
    await addIp(t.database.db, user.id, '203.0.113.81');
    dns.zone[ptrName('203.0.113.80')] = { PTR: ['mx80.sender.test'] };
    dns.zone['mx80.sender.test'] = { A: ['203.0.113.80'] };
    dns.zone[ptrName('203.0.113.81')] = { PTR: ['mx81.sender.test'] };
    dns.zone['mx81.sender.test'] = { A: ['203.0.113.81'] };
    dns.zone['80.113.0.203.bl.spamcop.net'] = { A: ['127.0.0.2'] };
    expect((await client.get('/api/dashboard/overview')).json().ipReputation).toBeNull();

    await client.post('/api/ip-monitoring/trigger');
    await finished(client);
    const first = (await client.get(`/api/reputation/listings?ipAddressId=${ip.id}`)).json();
    expect(first).toEqual([
      {
        listId: 'spamcop',
        provider: 'SpamCop',
        target: '203.0.113.80',
        listedAt: expect.any(String),
        delistedAt: null,
        reason: expect.any(String),
      },
    ]);
    expect((await client.get('/api/dashboard/overview')).json().ipReputation).toBe(82.5); // (65 + 100) / 2

    delete dns.zone['80.113.0.203.bl.spamcop.net'];
    const lastRun = (await status(client)).lastRun;
    await client.post('/api/ip-monitoring/trigger');
    await waitUntil(() => status(client), 'the second run', {
      until: (s: { isRunning: boolean; lastRun: string }) => !s.isRunning && s.lastRun !== lastRun,
    });
    const [period] = (await client.get(`/api/reputation/listings?ipAddressId=${ip.id}`)).json();
    expect(period.delistedAt).not.toBeNull();
    expect(new Date(period.delistedAt).getTime()).toBeGreaterThanOrEqual(new Date(period.listedAt).getTime());
    expect((await client.get('/api/dashboard/overview')).json().ipReputation).toBe(100);

    const foreign = await other.client.get(`/api/reputation/listings?ipAddressId=${ip.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ code: 'not_found', message: 'IP address not found' });
    expect((await client.get('/api/reputation/listings?domainId=999999')).json()).toEqual({
      code: 'not_found',
      message: 'Domain not found',
    });
    for (const query of ['', `?ipAddressId=${ip.id}&domainId=1`, '?ipAddressId=abc']) {
      const bad = await client.get(`/api/reputation/listings${query}`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().code).toBe('validation_error');
    }
  });
});
