import { daysAgo, utcDay } from '@contracts/utc-day';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadEnv, type Env } from '../../platform/env';
import { createResolver } from '../../platform/dns/resolver';
import { createOutboundGuard, type OutboundGuard } from '../../platform/security/outbound-address';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server';
import { PROVIDERS } from './index';
import {
  ProviderError,
  providerHttp,
  retryAfterSeconds,
  withoutSecrets,
  type DailyStats,
  type EspProvider,
} from './provider';
import {
  acceptedKey,
  delivered,
  FAKE_HOSTS,
  FAKE_PROVIDER_IDS,
  fakeConfig,
  fakeProviderEnv,
  REFUSED_TEXT,
  RETRY_AFTER,
  startFakeProvider,
  type FakeProvider,
  type FakeProviderId,
  type TruthDay,
} from './test/fake-providers';

// Each ESP client against its provider's stand-in on loopback (test/fake-providers.ts), through the
// real outbound guard and a real DNS server: the documented calls, the provider's own error text,
// its 429 and what it asks to wait, and answers that are not what its reference documents.

const KEY = 'sk-test-0123456789abcdef';
const day = (offset: number) => utcDay(daysAgo(offset));
const FROM = day(2);
const TO = day(0);
const TRUTH: TruthDay[] = [
  { date: day(10), sent: 999, hard: 9, soft: 9, complaints: 9, opens: 9, clicks: 9 },
  { date: day(2), sent: 1000, hard: 12, soft: 8, complaints: 2, opens: 400, clicks: 50 },
  { date: day(1), sent: 2000, hard: 30, soft: 10, complaints: 5, opens: 900, clicks: 120 },
  { date: day(0), sent: 500, hard: 4, soft: 1, complaints: 0, opens: 100, clicks: 7 },
];

/**
 * What each client reads from the truth: some providers do not split bounces (or count them all as
 * permanent), one reports no complaints.
 */
function expected(id: FakeProviderId, d: TruthDay): DailyStats {
  const bounced = d.hard + d.soft;
  const split = ['sendgrid', 'mailchimp', 'hubspot', 'brevo', 'activecampaign', 'sparkpost'].includes(id);
  return {
    date: d.date,
    emailsSent: d.sent,
    delivered: delivered(d),
    bounced,
    hardBounces: split ? d.hard : id === 'mailgun' ? bounced : 0,
    softBounces: split ? d.soft : 0,
    deferred: 0,
    complaints: id === 'activecampaign' ? 0 : d.complaints,
    opens: d.opens,
    clicks: d.clicks,
  };
}

let dns: TestDnsServer;
let guard: OutboundGuard;
let env: Env;
const fakes = new Map<FakeProviderId, FakeProvider>();

beforeAll(async () => {
  for (const id of FAKE_PROVIDER_IDS)
    fakes.set(id, await startFakeProvider(id, FAKE_HOSTS[id], acceptedKey(id, KEY), TRUTH));
  const zone = Object.fromEntries(Object.values(FAKE_HOSTS).map((host) => [host, { A: ['127.0.0.1'] }]));
  dns = await startDnsServer({
    ...zone,
    'eu.api.mailgun.test': { A: ['127.0.0.1'] },
    'eu.sparkpost.test': { A: ['127.0.0.1'] },
    'private-account.api-us1.test': { A: ['10.0.0.5'] },
  });
  const resolver = createResolver({ servers: [dns.address], timeoutMs: 1000, tries: 1, maxCacheSeconds: 0 });
  guard = createOutboundGuard(resolver, { allowNonPublic: (address) => address === '127.0.0.1' });
  env = loadEnv({
    NODE_ENV: 'test',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'inboxpulse-providers-')),
    APP_SECRET: 'test-secret-test-secret-test-secret-0123',
    ...fakeProviderEnv([...fakes.values()]),
    SPARKPOST_EU_API_BASE_URL: `http://eu.sparkpost.test:${fakes.get('sparkpost')!.port}`,
  });
});
afterAll(async () => {
  await Promise.all([...fakes.values()].map((f) => f.close()));
  await dns?.close();
});
beforeEach(() => {
  for (const fake of fakes.values()) {
    fake.mode = 'ok';
    fake.key = acceptedKey(fake.id as FakeProviderId, KEY);
    fake.requests = [];
  }
});

const providerOf = (id: FakeProviderId): EspProvider => PROVIDERS[id]!;
const http = (id: FakeProviderId, overrides: Partial<Env> = {}) =>
  providerHttp(guard, { ...env, ...overrides }, providerOf(id));

async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

describe.each(FAKE_PROVIDER_IDS)('%s client', (id) => {
  const provider = () => providerOf(id);
  const fake = () => fakes.get(id)!;

  it('passes the connection test with the key, sent as its API reference says, to its host', async () => {
    await provider().testConnection(http(id), fakeConfig(id, KEY));
    expect(fake().requests.length).toBeGreaterThan(0);
    for (const req of fake().requests) expect(req.headers.host).toBe(`${FAKE_HOSTS[id]}:${fake().port}`);
  });

  it("reports a wrong key in the provider's own words", async () => {
    fake().key = 'another-key-entirely';
    const err = await providerError(provider().testConnection(http(id), fakeConfig(id, KEY)));
    expect(err.kind).toBe('refused');
    expect(err.message).toBe(REFUSED_TEXT[id]);
  });

  it('reads a 429 as a wait, as long as the provider asks', async () => {
    fake().mode = 'rate_limited';
    const err = await providerError(provider().testConnection(http(id), fakeConfig(id, KEY)));
    expect(err.kind).toBe('rate_limited');
    const wanted = RETRY_AFTER[id];
    // SendGrid names the reset time (now + 120 s when the stand-in started).
    if (wanted === 'reset') expect(err.retryAfterSeconds).toBeGreaterThan(60);
    else expect(err.retryAfterSeconds).toBe(wanted);
    expect(err.message).toMatch(/rate limiting requests \(HTTP 429\)/);
  });

  it('refuses an answer that is not JSON', async () => {
    fake().mode = 'not_json';
    const err = await providerError(provider().testConnection(http(id), fakeConfig(id, KEY)));
    expect(err.kind).toBe('malformed');
    expect(err.message).toMatch(/not JSON/);
  });

  // Only for providers with statistics (which ones: 'provider specifics' below).
  if (PROVIDERS[id]?.fetchDailyStats) {
    it('reads the daily figures of the window, and refuses a shape its reference does not document', async () => {
      const days = await provider().fetchDailyStats!(http(id), fakeConfig(id, KEY), FROM, TO);
      expect(days).toEqual(TRUTH.filter((d) => d.date >= FROM).map((d) => expected(id, d)));

      fake().mode = 'wrong_shape';
      const err = await providerError(provider().fetchDailyStats!(http(id), fakeConfig(id, KEY), FROM, TO));
      expect(err.kind).toBe('malformed');
      expect(err.message).toMatch(/unexpected shape/);
    });
  }
});

describe('provider specifics', () => {
  it('offers daily statistics for every provider but Omnisend and Shopify Email', () => {
    const withStats = FAKE_PROVIDER_IDS.filter((id) => PROVIDERS[id]?.fetchDailyStats);
    expect(withStats.sort()).toEqual(
      FAKE_PROVIDER_IDS.filter((id) => id !== 'omnisend' && id !== 'shopifyemail').sort(),
    );
  });

  it('Mailchimp: the server prefix picks the datacenter host; a key without one and no prefix is refused before any request', async () => {
    const mailchimp = fakes.get('mailchimp')!;
    await PROVIDERS.mailchimp!.testConnection(http('mailchimp'), { apiKey: `${KEY}-us21`, serverPrefix: 'us21' });
    expect(mailchimp.requests.at(-1)!.headers.host).toBe(`us21.api.mailchimp.test:${mailchimp.port}`);
    mailchimp.requests = [];
    const err = await providerError(
      PROVIDERS.mailchimp!.testConnection(http('mailchimp'), { apiKey: 'no_datacenter_here' }),
    );
    expect(err.message).toMatch(/datacenter suffix/);
    expect(mailchimp.requests).toEqual([]);
  });

  it('Mailgun: a key the US region refuses is tried in the EU region', async () => {
    const us = fakes.get('mailgun')!;
    const eu = await startFakeProvider('mailgun', 'eu.api.mailgun.test', 'eu-only-key-0123456789', TRUTH);
    try {
      const overrides = { MAILGUN_EU_API_BASE_URL: `http://eu.api.mailgun.test:${eu.port}` };
      const days = await PROVIDERS.mailgun!.fetchDailyStats!(
        http('mailgun', overrides),
        { apiKey: 'eu-only-key-0123456789' },
        FROM,
        TO,
      );
      expect(days.map((d) => d.emailsSent)).toEqual([1000, 2000, 500]);
      expect(us.requests).toHaveLength(1);
      expect(eu.requests.map((r) => r.path)).toEqual(['/v3/domains', '/v3/mg.example.com/stats/total']);
      // A domain the account does not have: Mailgun's 404 in its words.
      const err = await providerError(
        PROVIDERS.mailgun!.testConnection(http('mailgun', overrides), {
          apiKey: 'eu-only-key-0123456789',
          domain: 'other.example.com',
        }),
      );
      expect(err.message).toBe('Domain not found (HTTP 404)');
    } finally {
      await eu.close();
    }
  });

  it('SparkPost: the eu region goes to the EU host', async () => {
    const sparkpost = fakes.get('sparkpost')!;
    await PROVIDERS.sparkpost!.testConnection(http('sparkpost'), { apiKey: KEY, additionalConfig: 'eu' });
    expect(sparkpost.requests.at(-1)!.headers.host).toBe(`eu.sparkpost.test:${sparkpost.port}`);
  });

  it('Klaviyo: follows the metric pages and counts only its own email metrics', async () => {
    const klaviyo = fakes.get('klaviyo')!;
    await PROVIDERS.klaviyo!.fetchDailyStats!(http('klaviyo'), fakeConfig('klaviyo', KEY), FROM, TO);
    const asked = klaviyo.requests
      .filter((r) => r.path === '/api/metric-aggregates')
      .map((r) => (r.body as { data: { attributes: { metric_id: string } } }).data.attributes.metric_id);
    expect(asked.sort()).toEqual(['Bnc001', 'Clck01', 'Open01', 'RcvD01', 'Spam01']);
  });

  it('a user-given host that resolves to a private address is refused before any connection', async () => {
    const err = await providerError(
      PROVIDERS.activecampaign!.testConnection(http('activecampaign'), {
        apiKey: KEY,
        additionalConfig: 'https://private-account.api-us1.test',
      }),
    );
    expect(err.kind).toBe('refused');
    expect(err.message).toBe(
      'private-account.api-us1.test points to a private or local address, which InboxPulse does not connect to',
    );
    // Without the test allowlist, loopback is refused too.
    const production = createOutboundGuard(createResolver({ servers: [dns.address], timeoutMs: 1000, tries: 1 }));
    const refused = await providerError(
      PROVIDERS.shopifyemail!.testConnection(
        providerHttp(production, env, PROVIDERS.shopifyemail!),
        fakeConfig('shopifyemail', KEY),
      ),
    );
    expect(refused.message).toBe(
      `${FAKE_HOSTS.shopifyemail} points to a private or local address, which InboxPulse does not connect to`,
    );
    expect(fakes.get('shopifyemail')!.requests).toEqual([]);
  });
});

describe('retryAfterSeconds', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads Retry-After in seconds or as a date, then reset headers, else waits a minute', () => {
    expect(retryAfterSeconds({ 'retry-after': '120' }, now)).toBe(120);
    expect(retryAfterSeconds({ 'retry-after': 'Thu, 01 Jan 2026 00:05:00 GMT' }, now)).toBe(300);
    expect(retryAfterSeconds({ 'x-ratelimit-reset': String(now / 1000 + 45) }, now)).toBe(45);
    expect(retryAfterSeconds({ 'x-ratelimit-reset': '599 seconds' }, now)).toBe(599);
    expect(retryAfterSeconds({}, now)).toBe(60);
    expect(retryAfterSeconds({ 'retry-after': '999999' }, now)).toBe(86_400);
  });
});

describe('withoutSecrets', () => {
  it('takes a key the provider quoted back out of its error text', () => {
    const err = new ProviderError(`Invalid API key ${KEY} for this account (HTTP 401)`, 'refused', 401);
    const safe = withoutSecrets(err, [KEY, '']);
    expect(safe.message).toBe('Invalid API key [key] for this account (HTTP 401)');
    expect(safe).toMatchObject({ kind: 'refused', status: 401 });
    expect(withoutSecrets(err, ['not-in-it'])).toBe(err);
  });
});
