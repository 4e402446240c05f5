import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_IMPORT_MAX_ADDRESSES, MAX_MONITORED_IPS } from '@contracts/reputation';
import { findBlocklist } from '../engine/blocklists/dnsbl-catalogue';
import { blocklistIgnores, blocklistResults, ipAddresses, reputationRuns } from '../platform/db/schema/index';
import { caughtUp } from '../test/caught-up';
import { createTestApp, signUp, type TestApp } from '../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function ipCount(userId: number): Promise<number> {
  const [row] = await t.database.db.select({ n: count() }).from(ipAddresses).where(eq(ipAddresses.userId, userId));
  return row.n;
}

async function professional(userId: number) {
  await t.database.db.execute(sql`UPDATE users SET subscription_plan = 'professional' WHERE id = ${userId}`);
  // The session cache sees a change made behind the app's back once the database's notification arrives.
  await caughtUp(t);
}

describe('monitored IP addresses', () => {
  it('adds, lists and deletes the user own IPs only, and asks for a check after adding', async () => {
    const owner = await signUp(t.app);
    const intruder = await signUp(t.app);
    const first = await owner.client.post('/api/ip-addresses', { ipAddress: ' 8.8.8.8 ', label: 'Primary MTA' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      ipAddress: '8.8.8.8',
      label: 'Primary MTA',
      type: 'dedicated',
      associatedDomains: [],
      status: 'pending',
      blacklistCount: 0,
      senderScore: null,
      lastChecked: null,
      reputationDetails: [],
    });
    const [run] = await t.database.db.select().from(reputationRuns).where(eq(reputationRuns.userId, owner.user.id));
    expect(run?.requestedAt).toBeInstanceOf(Date);

    const second = (
      await owner.client.post('/api/ip-addresses', { ipAddress: '2A00:1450:4001:0:0:0:0:1B', type: 'dedicated' })
    ).json();
    expect(second.ipAddress).toBe('2a00:1450:4001::1b');
    const listed = (await owner.client.get('/api/ip-addresses')).json();
    expect(listed.map((ip: { ipAddress: string }) => ip.ipAddress)).toEqual(['2a00:1450:4001::1b', '8.8.8.8']);

    expect((await intruder.client.get('/api/ip-addresses')).json()).toEqual([]);
    const foreign = await intruder.client.delete(`/api/ip-addresses/${second.id}`);
    const missing = await intruder.client.delete('/api/ip-addresses/2147483647');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(missing.json());
    expect(foreign.json()).toEqual({ code: 'not_found', message: 'IP address not found' });
    expect(await ipCount(owner.user.id)).toBe(2);

    expect((await owner.client.delete(`/api/ip-addresses/${second.id}`)).statusCode).toBe(204);
    expect((await owner.client.delete(`/api/ip-addresses/${second.id}`)).statusCode).toBe(404);
    expect((await owner.client.get('/api/ip-addresses')).json()).toHaveLength(1);
    // Another user may monitor the same address.
    expect((await intruder.client.post('/api/ip-addresses', { ipAddress: '8.8.8.8' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/ip-addresses' })).statusCode).toBe(401);
  });

  it('refuses bad addresses with a clear message and stores nothing', async () => {
    const { client, user } = await signUp(t.app);
    await client.post('/api/ip-addresses', { ipAddress: '8.8.4.4' });
    const cases: [unknown, string][] = [
      ['', 'Please enter an IP address'],
      ['   ', 'Please enter an IP address'],
      [undefined, 'Please enter an IP address'],
      ['mail.example.com', 'mail.example.com is not an IP address'],
      ['256.1.1.1', '256.1.1.1 is not an IP address'],
      ['8.8.8.0/24', '8.8.8.0/24 is not an IP address'],
      ['10.1.2.3', '10.1.2.3 is a private address (10.0.0.0/8): blocklists only list public addresses'],
      ['127.0.0.1', '127.0.0.1 is a loopback address (127.0.0.0/8): blocklists only list public addresses'],
      ['224.0.0.1', '224.0.0.1 is a multicast address (224.0.0.0/4): blocklists only list public addresses'],
      ['192.0.2.1', '192.0.2.1 is a documentation address (192.0.2.0/24): blocklists only list public addresses'],
      [
        '100.64.0.1',
        '100.64.0.1 is a carrier-grade NAT address (100.64.0.0/10): blocklists only list public addresses',
      ],
      ['fe80::1', 'fe80::1 is a link-local address (fe80::/10): blocklists only list public addresses'],
      ['2001:db8::5', '2001:db8::5 is a documentation address (2001:db8::/32): blocklists only list public addresses'],
      [
        '::ffff:192.168.0.1',
        '192.168.0.1 is a private address (192.168.0.0/16): blocklists only list public addresses',
      ],
      ['8.8.4.4', '8.8.4.4 is already monitored'],
      ['::ffff:8.8.4.4', '8.8.4.4 is already monitored'],
    ];
    for (const [ipAddress, message] of cases) {
      const res = await client.post('/api/ip-addresses', { ipAddress });
      expect(res.statusCode, String(ipAddress)).toBe(message.endsWith('already monitored') ? 409 : 400);
      expect(res.json().message, String(ipAddress)).toBe(message);
    }
    const badType = await client.post('/api/ip-addresses', { ipAddress: '8.8.8.8', type: 'pool' });
    expect(badType.json().message).toBe('type must be one of dedicated, shared');
    expect(await ipCount(user.id)).toBe(1);
  });

  it('takes associated domains only for shared IPs, and only the user own domains', async () => {
    const { client, user } = await signUp(t.app);
    const other = await signUp(t.app);
    await client.post('/api/domains', { domain: 'brand-one.com' });
    await other.client.post('/api/domains', { domain: 'someone-else.com' });

    const dedicated = await client.post('/api/ip-addresses', {
      ipAddress: '9.9.9.9',
      type: 'dedicated',
      associatedDomains: ['brand-one.com'],
    });
    expect(dedicated.statusCode).toBe(400);
    expect(dedicated.json().message).toBe('Associated domains can be chosen only when the IP type is shared');
    const foreign = await client.post('/api/ip-addresses', {
      ipAddress: '9.9.9.9',
      type: 'shared',
      associatedDomains: ['brand-one.com', 'someone-else.com'],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe('someone-else.com is not one of your domains');
    expect(await ipCount(user.id)).toBe(0);

    const shared = await client.post('/api/ip-addresses', {
      ipAddress: '9.9.9.9',
      type: 'shared',
      associatedDomains: ['Brand-One.com', 'brand-one.com '],
    });
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json()).toMatchObject({ type: 'shared', associatedDomains: ['brand-one.com'] });
  });

  it('shows each list answer from the catalogue: listed first, then by tier, ignored lists marked, retired lists left out', async () => {
    const { client, user } = await signUp(t.app);
    const ip = (await client.post('/api/ip-addresses', { ipAddress: '8.8.8.8' })).json();
    const checkedAt = new Date('2026-11-20T10:00:00Z');
    const row = (listId: string, status: 'listed' | 'clear' | 'unknown', answers: string[] = []) => ({
      userId: user.id,
      ipAddressId: ip.id,
      listId,
      status,
      answers,
      reason: status === 'listed' ? 'Listed for spam' : null,
      txt: null,
      checkedAt,
    });
    await t.database.db
      .insert(blocklistResults)
      .values([
        row('spamhaus-zen', 'clear'),
        row('spamcop', 'listed', ['127.0.0.2']),
        row('barracuda', 'unknown'),
        row('retired-list', 'listed', ['127.0.0.2']),
      ]);
    await t.database.db.insert(blocklistIgnores).values({ userId: user.id, listId: 'spamcop' });

    const [listed] = (await client.get('/api/ip-addresses')).json();
    const details = listed.reputationDetails;
    expect(details.map((d: { listId: string }) => d.listId)).toEqual([
      'spamcop',
      ...['spamhaus-zen', 'barracuda'].sort(
        (a, b) =>
          findBlocklist(a)!.tier - findBlocklist(b)!.tier ||
          findBlocklist(a)!.name.localeCompare(findBlocklist(b)!.name),
      ),
    ]);
    expect(details[0]).toEqual({
      listId: 'spamcop',
      provider: findBlocklist('spamcop')!.name,
      zone: findBlocklist('spamcop')!.zone,
      tier: findBlocklist('spamcop')!.tier,
      status: 'listed',
      listed: true,
      answers: ['127.0.0.2'],
      reason: 'Listed for spam',
      txt: null,
      removalUrl: findBlocklist('spamcop')!.removalUrl,
      ignored: true,
      checkedAt: checkedAt.toISOString(),
    });
    expect(details.find((d: { listId: string }) => d.listId === 'barracuda')).toMatchObject({
      status: 'unknown',
      listed: false,
      ignored: false,
    });
    // Another user's results for another IP do not leak in.
    const other = await signUp(t.app);
    const theirs = (await other.client.post('/api/ip-addresses', { ipAddress: '8.8.8.8' })).json();
    expect(theirs.reputationDetails).toEqual([]);
    expect((await other.client.get('/api/ip-addresses')).json()[0].reputationDetails).toEqual([]);
  });
});

describe('bulk import', () => {
  it('needs the Professional plan, whatever the body', async () => {
    const { client, user } = await signUp(t.app);
    for (const body of [{ cidrBlock: '8.8.4.0/24' }, {}]) {
      const res = await client.post('/api/ip-addresses/bulk-import', body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ code: 'forbidden', message: 'Requires Professional plan' });
    }
    expect(await ipCount(user.id)).toBe(0);
  });

  it('expands a /24 to 256 labelled addresses in order and a /25 to 128, as shared by default', async () => {
    const { client, user } = await signUp(t.app);
    await professional(user.id);
    const res = await client.post('/api/ip-addresses/bulk-import', { cidrBlock: '8.8.4.17/24', label: 'Pool' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ imported: 256 });
    const rows = await t.database.db
      .select({ ip: ipAddresses.ipAddress, label: ipAddresses.label, type: ipAddresses.type })
      .from(ipAddresses)
      .where(eq(ipAddresses.userId, user.id))
      .orderBy(ipAddresses.id);
    expect(rows).toHaveLength(256);
    rows.forEach((row, i) => expect(row).toEqual({ ip: `8.8.4.${i}`, label: `Pool #${i + 1}`, type: 'shared' }));

    const half = await client.post('/api/ip-addresses/bulk-import', { cidrBlock: '8.8.5.128/25', type: 'dedicated' });
    expect(half.json()).toEqual({ imported: 128 });
    const unlabelled = await t.database.db
      .select({ label: ipAddresses.label, type: ipAddresses.type })
      .from(ipAddresses)
      .where(and(eq(ipAddresses.userId, user.id), eq(ipAddresses.ipAddress, '8.8.5.200')));
    expect(unlabelled).toEqual([{ label: null, type: 'dedicated' }]);
    expect(await ipCount(user.id)).toBe(384);
  });

  it('refuses empty, oversized and reserved blocks before storing anything', async () => {
    const { client, user } = await signUp(t.app);
    await professional(user.id);
    const cases: [string, string][] = [
      ['', 'Please enter a CIDR block'],
      [
        '8.8.0.0/21',
        `8.8.0.0/21 holds 2,048 addresses: one import may add at most ${BULK_IMPORT_MAX_ADDRESSES.toLocaleString('en-US')}`,
      ],
      ['2a00:1450:4001::/64', '2a00:1450:4001::/64 holds 2^64 addresses: one import may add at most 1,024'],
      ['10.0.0.0/8', '10.0.0.0/8 holds 16,777,216 addresses: one import may add at most 1,024'],
      [
        '192.168.1.0/24',
        '192.168.1.0/24 includes private addresses (192.168.0.0/16): blocklists only list public addresses',
      ],
      [
        '203.0.113.0/25',
        '203.0.113.0/25 includes documentation addresses (203.0.113.0/24): blocklists only list public addresses',
      ],
      [
        '8.8.8.0/33',
        '8.8.8.0/33 is not a CIDR block such as 203.0.113.0/24 or 2001:db8::/120: the prefix length is at most 32',
      ],
      ['not-a-block', 'not-a-block is not a CIDR block such as 203.0.113.0/24 or 2001:db8::/120'],
    ];
    // A /8 or an IPv6 /64 is refused from its prefix: listing its addresses first would not end within the test's time.
    for (const [cidrBlock, message] of cases) {
      const res = await client.post('/api/ip-addresses/bulk-import', { cidrBlock });
      expect(res.statusCode, cidrBlock).toBe(400);
      expect(res.json().message, cidrBlock).toBe(message);
    }
    expect(await ipCount(user.id)).toBe(0);
  });

  it('keeps an account at MAX_MONITORED_IPS addresses: an import past it adds nothing, a single add up to it works', async () => {
    const { client, user } = await signUp(t.app);
    await professional(user.id);
    const already = MAX_MONITORED_IPS - 100;
    const rows = Array.from({ length: already }, (_, i) => ({
      userId: user.id,
      ipAddress: `9.9.${i >> 8}.${i & 255}`,
      type: 'dedicated' as const,
    }));
    await t.database.db.insert(ipAddresses).values(rows);
    const res = await client.post('/api/ip-addresses/bulk-import', { cidrBlock: '8.8.7.0/24' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      'An account can monitor at most 4,096 IP addresses; you monitor 3,996, and this would add 256: nothing was added',
    );
    expect(await ipCount(user.id)).toBe(already);
    expect((await client.post('/api/ip-addresses/bulk-import', { cidrBlock: '8.8.7.0/26' })).json()).toEqual({
      imported: 64,
    });
    for (let i = 0; i < 36; i++)
      expect((await client.post('/api/ip-addresses', { ipAddress: `8.8.8.${i}` })).statusCode).toBe(200);
    const past = await client.post('/api/ip-addresses', { ipAddress: '8.8.9.1' });
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toMatch(/^An account can monitor at most 4,096 IP addresses; you monitor 4,096/);
    expect(await ipCount(user.id)).toBe(MAX_MONITORED_IPS);
  });

  it('imports nothing when any address of the block is already monitored, naming them', async () => {
    const { client, user } = await signUp(t.app);
    await professional(user.id);
    for (const ip of ['8.8.6.3', '8.8.6.9', '8.8.6.10', '8.8.6.11', '8.8.6.12', '8.8.6.200'])
      await client.post('/api/ip-addresses', { ipAddress: ip });
    const res = await client.post('/api/ip-addresses/bulk-import', { cidrBlock: '8.8.6.0/24', label: 'Pool' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      '6 of these addresses are already monitored (8.8.6.3, 8.8.6.9, 8.8.6.10, 8.8.6.11, 8.8.6.12, ...): nothing was imported',
    );
    expect(await ipCount(user.id)).toBe(6);

    const one = await client.post('/api/ip-addresses/bulk-import', { cidrBlock: '8.8.6.200/30' });
    expect(one.json().message).toBe('8.8.6.200 is already monitored: nothing was imported');
    expect(await ipCount(user.id)).toBe(6);
  });
});
