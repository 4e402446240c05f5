import { dayStart, utcDay } from '@contracts/utc-day';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportXml, type TestRecord, type TestReport } from './report-xml.test-support';
import { startDnsServer, type TestDnsServer } from '../test/dns-server';
import { createTestApp, signUp, type TestApp, type TestClient } from '../test/test-app';
import { threatSeverity } from './threat-severity';
import { uploadReport } from './upload-client.test-support';

/*
 * A small hand-made data set whose figures are worked out here by hand:
 *   report A (google.com, 2 days ago)       report B (yahoo.com, 1 day ago)
 *   198.51.100.10  900 pass/pass            198.51.100.10  100 pass/pass
 *   198.51.100.11   80 dkim pass only       192.0.2.66    1000 fail/fail
 *   192.0.2.66     150 fail/fail
 *   192.0.2.77      12 fail/fail, DKIM passed for esp.example (unaligned)
 *   203.0.113.9      3 fail/fail, quarantined
 * A: 1145 messages, 980 pass (85.59%). B: 1100 messages, 100 pass (9.09%).
 * Together: 2245 messages, 1080 pass = 48.11%.
 * Reverse DNS: .10 and .11 are o1/o2.mail.sendgrid.net (one source: sendgrid.net), .77 is
 * mail77.mcsv.net; the others have no PTR.
 */

const DAY = 24 * 3600 * 1000;
const now = Date.now();
// Report periods start at midnight UTC, as reporters' do.
const midnight = (daysAgo: number) => dayStart(utcDay(now - daysAgo * DAY));

const reportA: TestReport = {
  orgName: 'google.com',
  reportId: 'a-1',
  domain: 'example.com',
  begin: midnight(2),
  records: [
    {
      ip: '198.51.100.10',
      count: 900,
      dkim: 'pass',
      spf: 'pass',
      dkimAuth: [{ domain: 'example.com', result: 'pass' }],
      spfAuth: [{ domain: 'example.com', result: 'pass' }],
    },
    {
      ip: '198.51.100.11',
      count: 80,
      dkim: 'pass',
      spf: 'fail',
      dkimAuth: [{ domain: 'example.com', result: 'pass' }],
      spfAuth: [{ domain: 'bounces.example.net', result: 'pass' }],
    },
    { ip: '192.0.2.66', count: 150, dkim: 'fail', spf: 'fail', spfAuth: [{ domain: 'example.com', result: 'fail' }] },
    { ip: '192.0.2.77', count: 12, dkim: 'fail', spf: 'fail', dkimAuth: [{ domain: 'esp.example', result: 'pass' }] },
    { ip: '203.0.113.9', count: 3, dkim: 'fail', spf: 'fail', disposition: 'quarantine' },
  ],
};
const reportB: TestReport = {
  orgName: 'yahoo.com',
  reportId: 'b-1',
  domain: 'example.com',
  begin: midnight(1),
  records: [
    { ip: '198.51.100.10', count: 100, dkim: 'pass', spf: 'pass' },
    { ip: '192.0.2.66', count: 1000, dkim: 'fail', spf: 'fail' },
  ],
};
// Outside a 30-day window, inside a 90-day one.
const reportOld: TestReport = {
  orgName: 'google.com',
  reportId: 'old-1',
  domain: 'example.com',
  begin: midnight(60),
  records: [{ ip: '198.51.100.10', count: 55, dkim: 'pass', spf: 'pass' }],
};
// Another domain, nearly all passing under p=none: ready for quarantine.
const reportGood: TestReport = {
  orgName: 'google.com',
  reportId: 'good-1',
  domain: 'good.example',
  p: 'none',
  begin: midnight(3),
  records: [
    { ip: '198.51.100.10', count: 995, dkim: 'pass', spf: 'pass' },
    { ip: '203.0.113.50', count: 5, dkim: 'fail', spf: 'fail' },
  ],
};

let t: TestApp;
let dns: TestDnsServer;
let client: TestClient;

beforeAll(async () => {
  dns = await startDnsServer({
    '10.100.51.198.in-addr.arpa': { PTR: ['o1.mail.sendgrid.net'] },
    '11.100.51.198.in-addr.arpa': { PTR: ['o2.mail.sendgrid.net'] },
    '77.2.0.192.in-addr.arpa': { PTR: ['mail77.mcsv.net'] },
  });
  // A reverse lookup that fails (SERVFAIL) leaves the source unnamed rather than failing the request.
  dns.servfail.add('9.113.0.203.in-addr.arpa');
  t = await createTestApp({ env: { DNS_SERVERS: dns.address } });
  ({ client } = await signUp(t.app));
  for (const report of [reportA, reportB, reportOld, reportGood]) {
    const res = await uploadReport(t.app, client, reportXml(report));
    expect(res.json()).toMatchObject({ imported: 1 });
  }
  // Someone else's report must not count.
  const other = await signUp(t.app);
  await uploadReport(t.app, other.client, reportXml({ ...reportB, reportId: 'other-1' }));
});
afterAll(async () => {
  await t.close();
  await dns.close();
});

describe('GET /api/dmarc/analytics', () => {
  it('computes the spec fields from the stored rows of one domain', async () => {
    const res = await client.get('/api/dmarc/analytics?domain=example.com&days=30');
    expect(res.statusCode).toBe(200);
    const a = res.json();
    expect(a).toMatchObject({
      days: 30,
      domain: 'example.com',
      totalReports: 2,
      totalMessages: 2245,
      averageCompliance: 48.11,
    });
    expect(a.threatSummary).toEqual({ low: 1, medium: 1, high: 0, critical: 1 });
    expect(a.trends).toEqual({
      volume: [
        { date: utcDay(now - 2 * DAY), value: 1145 },
        { date: utcDay(now - DAY), value: 1100 },
      ],
      compliance: [
        { date: utcDay(now - 2 * DAY), value: 85.59 },
        { date: utcDay(now - DAY), value: 9.09 },
      ],
    });
    expect(a.topThreats).toEqual([
      {
        type: 'spoofing',
        severity: 'critical',
        sourceIPs: ['192.0.2.66'],
        frequency: 1150,
        description: expect.stringMatching(
          /^1150 messages from 192\.0\.2\.66 failed DMARC for example\.com\. Neither SPF nor DKIM passed/,
        ),
      },
      {
        type: 'misaligned',
        severity: 'medium',
        sourceIPs: ['192.0.2.77'],
        frequency: 12,
        description: expect.stringMatching(
          /^12 messages from mcsv\.net \(192\.0\.2\.77\) failed DMARC .*for another domain/,
        ),
      },
      { type: 'spoofing', severity: 'low', sourceIPs: ['203.0.113.9'], frequency: 3, description: expect.any(String) },
    ]);
    expect(a.recommendations).toEqual([
      'example.com: only 48.11% of mail passes DMARC. Keep p=none and fix the failing sources below before enforcing a policy.',
      // A service sending unaligned mail is named with how to set it up, however small.
      'Source 192.0.2.77 (Mailchimp, mcsv.net) has 0% SPF and 0% DKIM alignment (12 messages failed DMARC): add include:servers.mcsv.net to your SPF or set a custom return-path under example.com at Mailchimp; and it signs with d=esp.example, not example.com: set up DKIM for example.com at Mailchimp and publish its public key in DNS.',
      '1153 unauthenticated messages used example.com; an enforced policy (p=quarantine or p=reject) tells receivers to stop them.',
    ]);
  });

  it('groups source IPs by the organisation their reverse DNS names', async () => {
    const a = (await client.get('/api/dmarc/analytics?domain=example.com')).json();
    expect(a.sources).toEqual([
      {
        ips: ['192.0.2.66'],
        reverseDns: null,
        organisation: null,
        provider: null,
        authDomains: [],
        count: 1150,
        spfAligned: 0,
        dkimAligned: 0,
        failed: 1150,
        dispositions: { none: 1150 },
        // Nothing authenticates it: a forger, not a sender to set up, so no fix.
        coverage: { spf: 'not covered', dkim: 'not covered' },
      },
      {
        ips: ['198.51.100.10', '198.51.100.11'],
        reverseDns: 'o1.mail.sendgrid.net',
        organisation: 'sendgrid.net',
        provider: 'SendGrid',
        providerMatchedBy: 'reverse-dns',
        // .11's SPF passed for bounces.example.net: what its return-path was.
        authDomains: ['example.net'],
        count: 1080,
        spfAligned: 1000,
        dkimAligned: 1080,
        failed: 0,
        dispositions: { none: 1080 },
        coverage: { spf: 'covered', dkim: 'covered' },
      },
      {
        ips: ['192.0.2.77'],
        reverseDns: 'mail77.mcsv.net',
        organisation: 'mcsv.net',
        provider: 'Mailchimp',
        providerMatchedBy: 'reverse-dns',
        authDomains: ['esp.example'],
        count: 12,
        spfAligned: 0,
        dkimAligned: 0,
        failed: 12,
        dispositions: { none: 12 },
        // The same fixes the recommendations give.
        coverage: {
          spf: 'not covered',
          dkim: 'not covered',
          spfFix: 'add include:servers.mcsv.net to your SPF or set a custom return-path under example.com at Mailchimp',
          dkimFix:
            'it signs with d=esp.example, not example.com: set up DKIM for example.com at Mailchimp and publish its public key in DNS',
        },
      },
      {
        ips: ['203.0.113.9'],
        reverseDns: null,
        organisation: null,
        provider: null,
        authDomains: [],
        count: 3,
        spfAligned: 0,
        dkimAligned: 0,
        failed: 3,
        dispositions: { quarantine: 3 },
        coverage: { spf: 'not covered', dkim: 'not covered' },
      },
    ]);
    expect(a.reporters).toEqual([
      {
        orgName: 'yahoo.com',
        lastReportAt: expect.stringMatching(new RegExp(`^${utcDay(now - DAY)}T23:59:59`)),
        reports: 1,
        silentDays: 0,
        daily: false,
        stopped: false,
      },
      {
        orgName: 'google.com',
        lastReportAt: expect.stringMatching(new RegExp(`^${utcDay(now - 2 * DAY)}T23:59:59`)),
        reports: 2,
        silentDays: 1,
        daily: false,
        stopped: false,
      },
    ]);
  });

  it('widens to 90 days and to all domains, and recommends quarantine above 98% under p=none', async () => {
    const all = (await client.get('/api/dmarc/analytics?days=90')).json();
    expect(all).toMatchObject({ domain: null, totalReports: 4, totalMessages: 2245 + 55 + 1000 });
    const good = (await client.get('/api/dmarc/analytics?domain=good.example')).json();
    expect(good).toMatchObject({
      totalReports: 1,
      averageCompliance: 99.5,
      threatSummary: { low: 1, medium: 0, high: 0, critical: 0 },
    });
    expect(good.recommendations[0]).toBe(
      'good.example: 99.5% of mail passes DMARC. Move the policy from p=none to p=quarantine.',
    );
  });

  it('says what to do when there are no reports, and checks its query', async () => {
    const empty = (await client.get('/api/dmarc/analytics?domain=nothing.example&days=7')).json();
    expect(empty).toMatchObject({
      totalReports: 0,
      totalMessages: 0,
      averageCompliance: null,
      topThreats: [],
      sources: [],
      trends: { volume: [], compliance: [] },
    });
    expect(empty.recommendations).toEqual([expect.stringMatching(/^No DMARC reports in the last 7 days\. .*rua=/)]);
    const bad = await client.get('/api/dmarc/analytics?days=14');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('days must be 7, 30 or 90');
  });
});

describe('recommendations from the sources (issue 13)', () => {
  it('names a source that passes only DKIM or only SPF, and how to fix it, even when all mail passes DMARC under p=reject', async () => {
    const { client: owner } = await signUp(t.app);
    dns.zone['20.113.0.203.in-addr.arpa'] = { PTR: ['mail.first-hour.example'] };
    const report: TestReport = {
      orgName: 'google.com',
      reportId: 'first-hour-1',
      domain: 'first-hour.example',
      p: 'reject',
      begin: midnight(1),
      records: [
        // An ESP that signs as the domain but bounces to its own domain: no PTR here, named by what it authenticates
        // as.
        {
          ip: '198.51.100.7',
          count: 500,
          dkim: 'pass',
          spf: 'fail',
          dkimAuth: [{ domain: 'first-hour.example', result: 'pass' }],
          spfAuth: [{ domain: 'em123.sendgrid.net', result: 'pass' }],
        },
        // The domain's own server: in its SPF, but signing nothing.
        {
          ip: '203.0.113.20',
          count: 300,
          dkim: 'fail',
          spf: 'pass',
          spfAuth: [{ domain: 'first-hour.example', result: 'pass' }],
        },
      ],
    };
    expect((await uploadReport(t.app, owner, reportXml(report))).json()).toMatchObject({ imported: 1 });
    const a = (await owner.get('/api/dmarc/analytics?domain=first-hour.example')).json();
    expect(a).toMatchObject({ averageCompliance: 100 });
    expect(
      a.sources.map(
        (s: { ips: string[]; provider: string | null; organisation: string | null; authDomains: string[] }) => [
          s.ips[0],
          s.provider,
          s.organisation,
          s.authDomains,
        ],
      ),
    ).toEqual([
      ['198.51.100.7', 'SendGrid', null, ['sendgrid.net']],
      ['203.0.113.20', null, 'first-hour.example', []],
    ]);
    expect(a.recommendations).toEqual([
      'Source 198.51.100.7 (SendGrid, sendgrid.net) passes DKIM but 0% SPF alignment: its return-path (MAIL FROM) is em123.sendgrid.net, not under first-hour.example: set a custom return-path (bounce domain) under first-hour.example at SendGrid, whose SPF includes sendgrid.net. If it only forwards your mail (a mailing list or forwarding mailbox), DKIM already carries it.',
      'Source 203.0.113.20 (first-hour.example) passes SPF but 0% DKIM alignment: set up DKIM signing with d=first-hour.example on the server or service that sends it and publish its public key in DNS. Forwarded mail loses SPF, so without DKIM it then fails DMARC.',
    ]);
  });

  it('asks for the include when the source bounces to the domain itself and SPF does not list it', async () => {
    const { client: owner } = await signUp(t.app);
    const report: TestReport = {
      orgName: 'google.com',
      reportId: 'own-return-path',
      domain: 'own-rp.example',
      p: 'reject',
      begin: midnight(1),
      records: [
        {
          ip: '198.51.100.8',
          count: 100,
          dkim: 'pass',
          spf: 'fail',
          dkimAuth: [
            { domain: 'own-rp.example', result: 'pass' },
            { domain: 'sendgrid.net', result: 'pass' },
          ],
          spfAuth: [{ domain: 'bounce.own-rp.example', result: 'softfail' }],
        },
      ],
    };
    await uploadReport(t.app, owner, reportXml(report));
    const a = (await owner.get('/api/dmarc/analytics?domain=own-rp.example')).json();
    expect(a.recommendations).toEqual([
      'Source 198.51.100.8 (SendGrid, sendgrid.net) passes DKIM but 0% SPF alignment: its return-path is bounce.own-rp.example, whose SPF does not list it (SPF softfail): add include:sendgrid.net to the SPF record of bounce.own-rp.example. If it only forwards your mail (a mailing list or forwarding mailbox), DKIM already carries it.',
    ]);
  });
});

describe('analytics kept up to date as reports come and go', () => {
  it('counts every failing source, however many, while answering with the busiest', async () => {
    // More IPs than the analytics load rows for (SOURCE_ROWS_PER_ORDER per order): the rest are counted by the
    // database.
    const { client: many } = await signUp(t.app);
    const failing = (ip: string, count: number): TestRecord => ({ ip, count, dkim: 'fail', spf: 'fail' });
    const records = Array.from({ length: 1500 }, (_, i) => failing(`10.${i >> 8}.${i & 255}.1`, 1));
    records.push(failing('192.0.2.1', 20), failing('192.0.2.2', 20), failing('192.0.2.3', 20));
    records.push({ ip: '198.51.100.10', count: 5000, dkim: 'pass', spf: 'pass' });
    const upload = await uploadReport(
      t.app,
      many,
      reportXml({ orgName: 'google.com', reportId: 'many-1', domain: 'many.example', begin: midnight(1), records }),
    );
    expect(upload.json()).toMatchObject({ imported: 1 });

    const a = (await many.get('/api/dmarc/analytics?days=7')).json();
    expect(a).toMatchObject({
      totalMessages: 5000 + 1500 + 60,
      threatSummary: { low: 1500, medium: 3, high: 0, critical: 0 },
    });
    expect(a.sources).toHaveLength(100);
    expect(a.sources[0]).toMatchObject({ ips: ['198.51.100.10'], count: 5000 });
    expect(a.topThreats).toHaveLength(10);
    expect(a.topThreats.slice(0, 3).map((th: { sourceIPs: string[] }) => th.sourceIPs[0])).toEqual([
      '192.0.2.1',
      '192.0.2.2',
      '192.0.2.3',
    ]);
    expect(a.recommendations).toContain(
      '1560 unauthenticated messages used many.example; an enforced policy (p=quarantine or p=reject) tells receivers to stop them.',
    );
  });

  it('takes a deleted report out, and counts it once when it comes back', async () => {
    const { client: owner } = await signUp(t.app);
    const xml = reportXml({ ...reportB, reportId: 'come-and-go' });
    const first = (await uploadReport(t.app, owner, xml)).json();
    const sources = async () =>
      (await owner.get('/api/dmarc/analytics?days=7'))
        .json()
        .sources.map((s: { ips: string[]; count: number }) => [s.ips[0], s.count]);
    expect(await sources()).toEqual([
      ['192.0.2.66', 1000],
      ['198.51.100.10', 100],
    ]);
    expect((await owner.delete(`/api/dmarc/reports/${first.reports[0].id}`)).statusCode).toBe(204);
    expect(await sources()).toEqual([]);
    expect((await uploadReport(t.app, owner, xml)).json()).toMatchObject({ imported: 1 });
    expect(await uploadReport(t.app, owner, xml).then((r) => r.json())).toMatchObject({ imported: 0, duplicates: 1 });
    expect(await sources()).toEqual([
      ['192.0.2.66', 1000],
      ['198.51.100.10', 100],
    ]);
  });
});

describe('threat severity thresholds', () => {
  it('grades failing volume per source', () => {
    expect([1, 9, 10, 99, 100, 999, 1000].map(threatSeverity)).toEqual([
      'low',
      'low',
      'medium',
      'medium',
      'high',
      'high',
      'critical',
    ]);
  });
});
