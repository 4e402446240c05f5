import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportXml } from '../dmarc/report-xml.test-support';
import { uploadReport } from '../dmarc/upload-client.test-support';
import { inboxTestReports, inboxTests } from '../platform/db/schema/index';
import type { TestDnsServer } from '../test/dns-server';
import { createTestApp, createTestAppWithDns, signUp, type TestApp } from '../test/test-app';
import { waitUntil } from '../test/wait-until';
import { scheduleDomainChecksJob } from './schedule-domain-checks.job';
import { verifiedOwnersOf } from './domains.service';

let t: TestApp;
let dns: TestDnsServer;
let close: () => Promise<void>;
beforeAll(async () => ({ t, dns, close } = await createTestAppWithDns()));
afterAll(() => close?.());

function publishHealthy(domain: string, token?: string) {
  dns.zone[domain] = { TXT: ['v=spf1 include:_spf.sender.net -all'], MX: [{ exchange: `mx.${domain}`, priority: 10 }] };
  dns.zone['_spf.sender.net'] = { TXT: ['v=spf1 ip4:192.0.2.0/24 -all'] };
  dns.zone[`_dmarc.${domain}`] = { TXT: ['v=DMARC1; p=reject; rua=mailto:dmarc@' + domain] };
  dns.zone[`mail._domainkey.${domain}`] = { TXT: ['v=DKIM1; k=ed25519; p=' + Buffer.alloc(32, 7).toString('base64')] };
  if (token) dns.zone[`_inboxpulse.${domain}`] = { TXT: [token] };
}

describe('domain management API', () => {
  it('adds a domain trimmed and lower-cased, with its ownership record, and refuses bad names', async () => {
    const { client } = await signUp(t.app);
    const res = await client.post('/api/domains', { domain: '  Mail.Brand-One.COM ' });
    expect(res.statusCode).toBe(200);
    const domain = res.json();
    expect(domain).toMatchObject({
      domain: 'mail.brand-one.com',
      status: 'pending',
      isVerified: false,
      dkimSelectors: [],
      lastCheckedAt: null,
    });
    expect(domain.verificationRecord.name).toBe('_inboxpulse.mail.brand-one.com');
    expect(domain.verificationRecord.value).toMatch(/^inboxpulse-verification=[0-9a-f]{32}$/);

    const cases: [unknown, string][] = [
      ['192.0.2.1', 'Enter a domain name, not an IP address'],
      ['localhost', 'Enter a valid domain name such as example.com'],
      ['exa mple.com', 'Enter a valid domain name such as example.com'],
      ['-bad.com', 'Enter a valid domain name such as example.com'],
      ['co.uk', 'Enter a domain under a public suffix, such as example.com'],
      ['intranet.invalidtld', 'Enter a domain under a public suffix, such as example.com'],
      [
        `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`,
        'Domain names are at most 253 characters',
      ],
      ['', 'Domain is required'],
      [42, 'Domain is required'],
    ];
    for (const [input, message] of cases) {
      const bad = await client.post('/api/domains', { domain: input });
      expect(bad.statusCode, String(input)).toBe(400);
      expect(bad.json().message, String(input)).toBe(message);
    }
    const dup = await client.post('/api/domains', { domain: 'MAIL.brand-one.com' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('You already added this domain');
    expect((await client.get('/api/domains')).json()).toHaveLength(1);
  });

  it('verifies ownership and authentication from real DNS, and keeps the details', async () => {
    const { client } = await signUp(t.app);
    const domain = (await client.post('/api/domains', { domain: 'verified-brand.com' })).json();
    publishHealthy('verified-brand.com', domain.verificationRecord.value);
    await client.patch(`/api/domains/${domain.id}`, { dkimSelectors: ['Mail'], notes: 'Sends via our ESP' });

    const res = await client.post(`/api/domains/${domain.id}/verify`);
    expect(res.statusCode).toBe(200);
    const checked = res.json();
    expect(checked).toMatchObject({
      status: 'healthy',
      isVerified: true,
      spfStatus: 'valid',
      dkimStatus: 'valid',
      dmarcStatus: 'valid',
      dkimSelectors: ['mail'],
      notes: 'Sends via our ESP',
    });
    expect(checked.checks.spf.lookupCount).toBe(1);
    expect(checked.checks.dkim.selectors[0]).toMatchObject({ selector: 'mail', keyType: 'ed25519', keyBits: 256 });
    expect(checked.checks.mx.hosts).toEqual([{ exchange: 'mx.verified-brand.com', priority: 10 }]);
    expect((await client.get(`/api/domains/${domain.id}`)).json().checks.dmarc.tags.p).toBe('reject');
  });

  it('keeps the public API’s type and runs the DNS checks at once when verifyDns is true', async () => {
    const { client } = await signUp(t.app);
    const plain = (await client.post('/api/domains', { domain: 'plain-brand.com' })).json();
    expect(plain).toMatchObject({ type: 'sending', status: 'pending', checks: null, lastCheckedAt: null });

    publishHealthy('api-brand.com');
    const res = await client.post('/api/domains', { domain: 'api-brand.com', type: 'mta', verifyDns: true });
    expect(res.statusCode).toBe(200);
    const checked = res.json();
    expect(checked).toMatchObject({
      domain: 'api-brand.com',
      type: 'mta',
      status: 'healthy',
      spfStatus: 'valid',
      dmarcStatus: 'valid',
    });
    // The ownership token is new: nobody could have published it yet.
    expect(checked.isVerified).toBe(false);
    expect(checked.lastCheckedAt).not.toBeNull();
    expect(checked.checks.mx.hosts).toEqual([{ exchange: 'mx.api-brand.com', priority: 10 }]);
    expect((await client.get(`/api/domains/${checked.id}`)).json()).toMatchObject({ type: 'mta', status: 'healthy' });
    expect((await client.get('/api/domains')).json().map((d: { type: string }) => d.type)).toEqual(['mta', 'sending']);

    for (const [body, message] of [
      [{ domain: 'typed-brand.com', type: 'marketing' }, 'Domain type must be "sending" or "mta"'],
      [{ domain: 'typed-brand.com', verifyDns: 'yes' }, 'verifyDns must be true or false'],
    ] as const) {
      const bad = await client.post('/api/domains', body);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe(message);
    }
    expect((await client.get('/api/domains')).json()).toHaveLength(2);
  });

  it('adds the domain unchecked when verifyDns meets a DNS failure', async () => {
    const { client } = await signUp(t.app);
    dns.servfail.add('stormy-brand.com');
    const res = await client.post('/api/domains', { domain: 'stormy-brand.com', verifyDns: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      domain: 'stormy-brand.com',
      status: 'pending',
      checks: null,
      lastCheckedAt: null,
    });
  });

  it('stays unverified without the ownership record', async () => {
    const { client } = await signUp(t.app);
    const domain = (await client.post('/api/domains', { domain: 'unowned-brand.com' })).json();
    publishHealthy('unowned-brand.com', 'inboxpulse-verification=someone-elses-token');
    const checked = (await client.post(`/api/domains/${domain.id}/verify`)).json();
    expect(checked.isVerified).toBe(false);
    expect(checked.status).toBe('healthy');
  });

  it('takes verification away when the ownership record is gone, says so, and stops routing reports to that owner', async () => {
    const { client, user } = await signUp(t.app);
    const domain = (await client.post('/api/domains', { domain: 'sold-brand.com' })).json();
    publishHealthy('sold-brand.com', domain.verificationRecord.value);
    expect((await client.post(`/api/domains/${domain.id}/verify`)).json().isVerified).toBe(true);
    expect(await verifiedOwnersOf(t.database.db, 'sold-brand.com')).toEqual([user.id]);

    delete dns.zone['_inboxpulse.sold-brand.com'];
    expect((await client.post(`/api/domains/${domain.id}/verify`)).json().isVerified).toBe(false);
    expect(await verifiedOwnersOf(t.database.db, 'sold-brand.com')).toEqual([]);
    expect((await client.get('/api/alerts')).json()).toEqual([
      expect.objectContaining({
        title: 'Ownership of sold-brand.com is no longer verified',
        severity: 'error',
        domain: 'sold-brand.com',
      }),
    ]);
  });

  it("alerts on a changed record, only on change, with before and after (the failing status is the evaluation's)", async () => {
    const { client } = await signUp(t.app);
    const domain = (await client.post('/api/domains', { domain: 'changing-brand.com' })).json();
    publishHealthy('changing-brand.com');
    await client.post(`/api/domains/${domain.id}/verify`);
    await client.post(`/api/domains/${domain.id}/verify`);
    expect((await client.get('/api/alerts')).json()).toEqual([]); // first check and an unchanged re-check

    delete dns.zone['_dmarc.changing-brand.com'];
    const after = (await client.post(`/api/domains/${domain.id}/verify`)).json();
    expect(after.status).toBe('error');
    const alerts = (await client.get('/api/alerts')).json();
    expect(alerts.map((a: { type: string; title: string }) => [a.type, a.title]).sort()).toEqual([
      ['dns_changes', 'DMARC record removed for changing-brand.com'],
    ]);
    const change = alerts.find((a: { type: string }) => a.type === 'dns_changes');
    expect(change.metadata).toEqual({
      record: 'DMARC',
      before: 'v=DMARC1; p=reject; rua=mailto:dmarc@changing-brand.com',
      after: null,
    });
  });

  it('changes nothing when DNS fails, and answers 503', async () => {
    const { client } = await signUp(t.app);
    const domain = (await client.post('/api/domains', { domain: 'flaky-brand.com' })).json();
    dns.servfail.add('flaky-brand.com');
    const res = await client.post(`/api/domains/${domain.id}/verify`);
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toMatch(/^DNS lookups for flaky-brand.com failed \(\w+\); nothing was changed/);
    expect((await client.get(`/api/domains/${domain.id}`)).json()).toMatchObject({
      status: 'pending',
      lastCheckedAt: null,
    });
  });

  it('edits and deletes only the user’s own domains', async () => {
    const owner = await signUp(t.app);
    const other = await signUp(t.app);
    const domain = (await owner.client.post('/api/domains', { domain: 'owned-brand.com' })).json();
    const othersCopy = (await other.client.post('/api/domains', { domain: 'owned-brand.com' })).json();
    for (const res of [
      await other.client.get(`/api/domains/${domain.id}`),
      await other.client.patch(`/api/domains/${domain.id}`, { notes: 'x' }),
      await other.client.post(`/api/domains/${domain.id}/verify`),
      await other.client.delete(`/api/domains/${domain.id}`),
    ])
      expect(res.statusCode).toBe(404);
    expect((await owner.client.get(`/api/domains/${domain.id}`)).json()).toMatchObject({ id: domain.id, notes: null });

    const bad = await owner.client.patch(`/api/domains/${domain.id}`, { dkimSelectors: ['bad selector!'] });
    expect(bad.json().message).toBe('A DKIM selector is letters, digits, dots, dashes or underscores');
    const edited = await owner.client.patch(`/api/domains/${domain.id}`, {
      dkimSelectors: ['Mail', 'mail', 's2'],
      notes: '  ESP  ',
    });
    expect(edited.json()).toMatchObject({ dkimSelectors: ['mail', 's2'], notes: 'ESP' });
    const unchanged = await owner.client.patch(`/api/domains/${domain.id}`, {});
    expect(unchanged.statusCode).toBe(200);
    expect(unchanged.json()).toMatchObject({ dkimSelectors: ['mail', 's2'], notes: 'ESP' });

    const deleted = await owner.client.delete(`/api/domains/${domain.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await owner.client.get('/api/domains')).json()).toEqual([]);
    expect((await owner.client.delete(`/api/domains/${domain.id}`)).statusCode).toBe(404);
    expect((await other.client.get('/api/domains')).json()).toEqual([
      expect.objectContaining({ id: othersCopy.id, domain: 'owned-brand.com' }),
    ]);
  });
});

describe('verify rate limit', () => {
  it('answers 429 with Retry-After after 10 re-checks in 10 minutes, per user', async () => {
    const busy = await signUp(t.app);
    const domain = (await busy.client.post('/api/domains', { domain: 'busy-brand.com' })).json();
    publishHealthy('busy-brand.com');
    for (let i = 0; i < 10; i++)
      expect((await busy.client.post(`/api/domains/${domain.id}/verify`)).statusCode).toBe(200);
    const refused = await busy.client.post(`/api/domains/${domain.id}/verify`);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      code: 'rate_limited',
      message: 'Too many attempts. Please try again in 10 minutes.',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(540);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(600);
    // Another domain of the same user is limited too; another user is not.
    const second = (await busy.client.post('/api/domains', { domain: 'busy-brand-two.com' })).json();
    expect((await busy.client.post(`/api/domains/${second.id}/verify`)).statusCode).toBe(429);
    const other = await signUp(t.app);
    const theirs = (await other.client.post('/api/domains', { domain: 'busy-brand.com' })).json();
    expect((await other.client.post(`/api/domains/${theirs.id}/verify`)).statusCode).toBe(200);
  });
});

describe('hourly re-check', () => {
  it('queues one check per domain and each check records the result', async () => {
    publishHealthy('scheduled-brand.com');
    // With schedules: the test reads the cron pg-boss keeps for the hourly check.
    const worker = await createTestApp({ env: { DNS_SERVERS: dns.address }, work: true, schedules: true });
    try {
      const w = await signUp(worker.app);
      const wd = (await w.client.post('/api/domains', { domain: 'scheduled-brand.com' })).json();
      await worker.jobs.send(scheduleDomainChecksJob, {});
      const { status } = await waitUntil(
        async () => (await w.client.get(`/api/domains/${wd.id}`)).json() as { status: string },
        'the scheduled check to record a result',
        { until: (domain) => domain.status !== 'pending' },
      );
      expect(status).toBe('healthy');
      const schedules = await worker.database.pool.query(
        `SELECT cron FROM pgboss.schedule WHERE name = 'schedule-domain-checks'`,
      );
      expect(schedules.rows).toEqual([{ cron: '0 * * * *' }]);
    } finally {
      await worker.close();
    }
  });
});

describe('SPF evaluated as receivers do (RFC 7208, ADR 037)', () => {
  it('completes Verify DNS for a record with a macro term and an include whose DNS fails, and names the term', async () => {
    const { client } = await signUp(t.app);
    const domain = (await client.post('/api/domains', { domain: 'hosted-spf-brand.com' })).json();
    publishHealthy('hosted-spf-brand.com', domain.verificationRecord.value);
    dns.zone['hosted-spf-brand.com'].TXT = [
      'v=spf1 include:%{i}._ip.%{h}._ehlo.%{d}._spf.vali.email include:_spf.down-relay.net ~all',
    ];
    dns.servfail.add('_spf.down-relay.net');
    const res = await client.post(`/api/domains/${domain.id}/verify`);
    expect(res.statusCode).toBe(200);
    const checked = res.json();
    expect(checked.status).not.toBe('pending');
    expect(checked.checks.spf).toMatchObject({ status: 'valid', lookupCount: 2, senderEvaluation: { results: [] } });
    const messages = checked.checks.spf.findings.map((f: { message: string }) => f.message);
    expect(messages).toContain(
      '"include:_spf.down-relay.net" in the SPF record of hosted-spf-brand.com could not be checked: the DNS lookup of TXT _spf.down-relay.net failed (SERVFAIL).',
    );
    expect(messages.join('\n')).toContain(
      'include:%{i}._ip.%{h}._ehlo.%{d}._spf.vali.email builds its name from the sending IP or address',
    );
  });

  it('evaluates a record that depends on the sender for the IPs of the domain’s DMARC reports and inbox tests', async () => {
    const { client, user } = await signUp(t.app);
    const domain = (await client.post('/api/domains', { domain: 'per-ip-brand.com' })).json();
    publishHealthy('per-ip-brand.com', domain.verificationRecord.value);
    dns.zone['per-ip-brand.com'].TXT = ['v=spf1 exists:%{i}._allow.%{d} -all'];
    dns.zone['192.0.2.44._allow.per-ip-brand.com'] = { A: ['127.0.0.2'] };
    const report = reportXml({
      orgName: 'receiver.example',
      reportId: 'per-ip-1',
      domain: 'per-ip-brand.com',
      begin: new Date(Date.now() - 2 * 24 * 3600 * 1000),
      records: [
        { ip: '192.0.2.44', count: 900, dkim: 'pass', spf: 'pass' },
        { ip: '203.0.113.66', count: 12, dkim: 'fail', spf: 'fail' },
      ],
    });
    expect((await uploadReport(t.app, client, report)).json()).toMatchObject({ imported: 1 });
    // An inbox test's message, as the analyser stores its report: the envelope names the connecting IP.
    const analysed = (
      await client.post('/api/simulate-email', {
        fromEmail: 'news@per-ip-brand.com',
        subject: 'Hello',
        content: 'Hi there',
      })
    ).json();
    const [test] = await t.database.db
      .insert(inboxTests)
      .values({ userId: user.id, testEmailAddress: `per-ip-${user.id}@in.inboxpulse.test`, status: 'completed' })
      .returning();
    const envelope = { remoteIp: '198.51.100.45', helo: 'mta.per-ip-brand.com', mailFrom: 'bounce@per-ip-brand.com' };
    await t.database.db
      .insert(inboxTestReports)
      .values({ testId: test!.id, score: analysed.score, report: { ...analysed, simulated: false, envelope } });

    const checked = (await client.post(`/api/domains/${domain.id}/verify`)).json();
    expect(checked.checks.spf.senderEvaluation).toEqual({
      sender: 'postmaster@per-ip-brand.com',
      helo: 'per-ip-brand.com',
      results: [
        {
          ip: '198.51.100.45',
          result: 'fail',
          reason: 'Domain of postmaster@per-ip-brand.com does not designate 198.51.100.45 as permitted sender.',
        },
        {
          ip: '192.0.2.44',
          result: 'pass',
          reason: 'Domain of postmaster@per-ip-brand.com designates 192.0.2.44 as permitted sender.',
        },
        {
          ip: '203.0.113.66',
          result: 'fail',
          reason: 'Domain of postmaster@per-ip-brand.com does not designate 203.0.113.66 as permitted sender.',
        },
      ],
    });
    // Another user's reports for the same domain name are not this owner's senders.
    const other = await signUp(t.app);
    const theirs = (await other.client.post('/api/domains', { domain: 'per-ip-brand.com' })).json();
    expect(
      (await other.client.post(`/api/domains/${theirs.id}/verify`)).json().checks.spf.senderEvaluation.results,
    ).toEqual([]);
  });
});
