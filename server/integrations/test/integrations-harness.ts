import pino from 'pino';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server';
import { createTestApp, type TestApp, type TestAppOptions } from '../../test/test-app';
import type { SyncContext } from '../integration-sync';
import {
  acceptedKey,
  FAKE_HOSTS,
  FAKE_PROVIDER_IDS,
  fakeProviderEnv,
  startFakeProvider,
  type FakeProvider,
  type FakeProviderId,
  type TruthDay,
} from '../providers/test/fake-providers';

/**
 * The app with every ESP's stand-in on loopback: its DNS answers the stand-ins' host names with
 * 127.0.0.1, the provider base URLs point at them, and the outbound guard lets 127.0.0.1 through
 * (the test allowlist). `allowLoopback: false` runs the guard as production does.
 */
export interface IntegrationsHarness {
  t: TestApp;
  dns: TestDnsServer;
  fakes: Map<FakeProviderId, FakeProvider>;
  /** What the sync and its job are given. */
  ctx: SyncContext;
  reset(): void;
  close(): Promise<void>;
}

export const KEY = 'sk-live-0123456789abcdefWXYZ';

export async function startIntegrationsHarness(
  days: TruthDay[],
  options: { allowLoopback?: boolean; app?: TestAppOptions; extraZone?: Record<string, string> } = {},
): Promise<IntegrationsHarness> {
  const fakes = new Map<FakeProviderId, FakeProvider>();
  for (const id of FAKE_PROVIDER_IDS)
    fakes.set(id, await startFakeProvider(id, FAKE_HOSTS[id], acceptedKey(id, KEY), days));
  const zone = Object.fromEntries(Object.values(FAKE_HOSTS).map((host) => [host, { A: ['127.0.0.1'] }]));
  for (const [host, address] of Object.entries(options.extraZone ?? {})) zone[host] = { A: [address] };
  const dns = await startDnsServer(zone);
  const t = await createTestApp({
    ...options.app,
    env: {
      DNS_SERVERS: dns.address,
      ...(options.allowLoopback === false ? {} : { OUTBOUND_ALLOW_ADDRESSES: '127.0.0.1' }),
      ...fakeProviderEnv([...fakes.values()]),
      ...options.app?.env,
    },
  });
  const ctx: SyncContext = { env: t.env, db: t.database.db, dns: t.dns, jobs: t.jobs, log: pino({ level: 'silent' }) };
  return {
    t,
    dns,
    fakes,
    ctx,
    reset() {
      for (const fake of fakes.values()) {
        fake.mode = 'ok';
        fake.key = acceptedKey(fake.id as FakeProviderId, KEY);
        fake.requests = [];
        fake.days = days;
      }
    },
    async close() {
      await t.close();
      await dns.close();
      await Promise.all([...fakes.values()].map((f) => f.close()));
    },
  };
}
