import pino from 'pino';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../platform/context';
import { createTestAppWithDns, type TestAppWithDns } from '../test/test-app';
import { waitUntil } from '../test/wait-until';
import { refreshSendingServiceNetworksJob } from './refresh-sending-service-networks.job';
import { refreshSendingServiceNetworksRunner } from './refresh-sending-service-networks.runner';
import { networkRefreshTimes, servicesByNetwork } from './sending-service-networks.repo';

/*
 * Google's include tree as Google publishes it for Workspace customers (include:_spf.google.com, documented at
 * https://support.google.com/a/answer/10685031; its ranges are those https://support.google.com/a/answer/10026322
 * tells to read from these records), as dug on 2024-03-05.
 */
const GOOGLE_TREE = {
  '_spf.google.com':
    'v=spf1 include:_netblocks.google.com include:_netblocks2.google.com include:_netblocks3.google.com ~all',
  '_netblocks.google.com':
    'v=spf1 ip4:35.190.247.0/24 ip4:64.233.160.0/19 ip4:66.102.0.0/20 ip4:66.249.80.0/20 ip4:72.14.192.0/18 ip4:74.125.0.0/16 ip4:108.177.8.0/21 ip4:173.194.0.0/16 ip4:209.85.128.0/17 ip4:216.58.192.0/19 ip4:216.239.32.0/19 ~all',
  '_netblocks2.google.com':
    'v=spf1 ip6:2001:4860:4000::/36 ip6:2404:6800:4000::/36 ip6:2607:f8b0:4000::/36 ip6:2800:3f0:4000::/36 ip6:2a00:1450:4000::/36 ip6:2c0f:fb50:4000::/36 ~all',
  '_netblocks3.google.com':
    'v=spf1 ip4:172.217.0.0/19 ip4:172.217.32.0/20 ip4:172.217.128.0/19 ip4:172.217.160.0/20 ip4:172.217.192.0/19 ip4:108.177.96.0/19 ~all',
};

// 209.85.221.53 sent as mail-wr1-f53.google.com (a Received header of a public mailing-list archive); the
// others are inside the IPv6 and _netblocks3 ranges above; 192.0.2.1 is in none.
const PROBES = ['209.85.221.53', '2a00:1450:4864:20::52f', '172.217.33.10', '192.0.2.1'];

let env: TestAppWithDns;
const ctx = () => ({ db: env.t.database.db, dns: env.t.dns, log: pino({ level: 'silent' }) }) as unknown as AppContext;
const googleRefreshedAt = async () => (await networkRefreshTimes(env.t.database.db)).get('Google Workspace');

beforeAll(async () => {
  env = await createTestAppWithDns({ work: true });
  for (const [name, record] of Object.entries(GOOGLE_TREE)) env.dns.zone[name] = { TXT: [record] };
});
afterAll(() => env?.close());

describe('the networks sending services publish', () => {
  it("reads a service's include tree through DNS in the job queue and names IPv4 and IPv6 senders by it", async () => {
    await env.t.jobs.send(refreshSendingServiceNetworksJob, {});
    await waitUntil(googleRefreshedAt, "Google's networks to be stored");
    const byNetwork = await servicesByNetwork(env.t.database.db, PROBES);
    expect(Object.fromEntries(byNetwork)).toEqual({
      '209.85.221.53': 'Google Workspace',
      '2a00:1450:4864:20::52f': 'Google Workspace',
      '172.217.33.10': 'Google Workspace',
    });
    // A service whose include does not answer here (every other one) stores nothing rather than an empty list.
    expect([...(await networkRefreshTimes(env.t.database.db)).keys()]).toEqual(['Google Workspace']);
  });

  it('keeps the last good networks when a refresh fails, and refreshes them once DNS answers again', async () => {
    const db = env.t.database.db;
    const dayAndAHourAgo = new Date(Date.now() - 25 * 3600 * 1000);
    await db.execute(sql`update sending_service_networks set refreshed_at = ${dayAndAHourAgo.toISOString()}`);
    env.dns.servfail.add('_netblocks2.google.com');
    await refreshSendingServiceNetworksRunner.run({}, ctx());
    expect(await googleRefreshedAt()).toEqual(dayAndAHourAgo);
    expect((await servicesByNetwork(db, PROBES)).size).toBe(3);

    env.dns.servfail.delete('_netblocks2.google.com');
    env.dns.zone['_netblocks3.google.com'] = { TXT: ['v=spf1 ip4:172.217.0.0/19 ~all'] };
    await refreshSendingServiceNetworksRunner.run({}, ctx());
    const refreshed = await googleRefreshedAt();
    expect(refreshed!.getTime()).toBeGreaterThan(dayAndAHourAgo.getTime());
    // The new list replaced the old one: 172.217.33.10 left with the range Google no longer publishes.
    expect([...(await servicesByNetwork(db, PROBES)).keys()].sort()).toEqual([
      '209.85.221.53',
      '2a00:1450:4864:20::52f',
    ]);
    // Fresh now: a run within the day reads nothing.
    await refreshSendingServiceNetworksRunner.run({}, ctx());
    expect(await googleRefreshedAt()).toEqual(refreshed);
  });
});
