import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '@contracts/alerts';
import type { InboxTest } from '@contracts/inbox-tests';
import type { IpAddress, IpMonitoringStatus } from '@contracts/reputation';
import type { Diagnosis, DomainTimeline } from '@contracts/timeline';
import { setPlan } from '../api-keys/api-keys.test-support';
import { queueSeedPolling } from '../inbox-tests/seeds/poll-seed-mailboxes.job';
import { seedNetworkOf } from '../inbox-tests/seeds/seed-network-file';
import { syncSeedNetwork } from '../inbox-tests/seeds/seed-sync';
import type { SmtpListener } from '../platform/smtp/smtp-listener';
import { startDnsServer, type TestDnsServer } from '../test/dns-server';
import { noDovecot, startDovecot, type TestImapServer } from '../test/dovecot';
import { createTestApp, signUp, startTestSmtpListener, type TestApp, type TestClient } from '../test/test-app';
import { waitUntil } from '../test/wait-until';

/*
 * Issue 19's first scenario, through the real paths: inbox tests over SMTP whose seed mailboxes (a
 * real Dovecot; the test stands in for the providers' filters by filing the copies in INBOX or Junk)
 * put the domain's mail in the inbox at Gmail and Outlook; then the reputation check finds the
 * domain's sending IP on Spamhaus ZEN (the loopback DNS server answers the list's zone); then a test
 * lands in Gmail's spam folder. The diagnosis names the listing first, and the evaluation queued by
 * the test's completion raises one alert for that moment. Everything happens in real time, in order.
 */

const INBOUND = 'in.inboxpulse.test';
const DOMAIN = 'listed-sender.com';
const SENDING_IP = '93.184.216.25';
const SEEDS = [
  { user: 'g1@seeds.example', password: 'g1 password', provider: 'Gmail', env: 'SEED_G1' },
  { user: 'g2@seeds.example', password: 'g2 password', provider: 'Gmail', env: 'SEED_G2' },
  { user: 'o1@seeds.example', password: 'o1 password', provider: 'Outlook', env: 'SEED_O1' },
];
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicDer = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

let dns: TestDnsServer;
let imap: TestImapServer;
let t: TestApp;
let smtp: SmtpListener;
let client: TestClient;

describe.skipIf(noDovecot)('a blocklist listing followed by a placement drop at Gmail', () => {
  beforeAll(async () => {
    dns = await startDnsServer({
      [DOMAIN]: { TXT: ['v=spf1 ip4:127.0.0.1 -all'] },
      [`s1._domainkey.${DOMAIN}`]: { TXT: [`v=DKIM1; k=rsa; p=${publicDer}`] },
      [`_dmarc.${DOMAIN}`]: { TXT: ['v=DMARC1; p=none'] },
    });
    imap = await startDovecot({ users: SEEDS });
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'inboxpulse-seeds-')), 'seeds.yaml');
    writeFileSync(
      file,
      `seeds:\n${SEEDS.map(
        (s) => `  - provider: ${s.provider}
    mailboxSystem: Dovecot
    region: Europe
    country: France
    address: ${s.user}
    imap: { host: 127.0.0.1, port: ${imap.port}, tls: false, user: ${s.user}, password: env:${s.env} }
`,
      ).join('')}`,
    );
    t = await createTestApp({
      work: true,
      env: {
        INBOUND_DOMAIN: INBOUND,
        DNS_SERVERS: dns.address,
        SEED_NETWORK_FILE: file,
        ...Object.fromEntries(SEEDS.map((s) => [s.env, s.password])),
      },
    });
    await syncSeedNetwork(t.database.db, seedNetworkOf(t.env), t.env.APP_SECRET);
    smtp = await startTestSmtpListener(t);
    const signedUp = await signUp(t.app);
    client = signedUp.client;
    await setPlan(t, signedUp.user.id, 'professional'); // four tests: more than the Free plan's month
  });
  afterAll(async () => {
    await smtp?.close();
    await t?.close();
    await imap?.stop();
    await dns?.close();
  });

  const testById = async (id: number) =>
    ((await client.get('/api/inbox-tests')).json() as InboxTest[]).find((x) => x.id === id)!;

  /** One inbox test: the message over SMTP, then its copies filed at each seed as `folders` says. */
  async function runTest(folders: Record<string, 'INBOX' | 'Junk'>): Promise<InboxTest> {
    const created = await client.post('/api/inbox-tests', { testType: 'automatic' });
    expect(created.statusCode, created.body).toBe(200);
    const test = created.json() as InboxTest;
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      ignoreTLS: true,
      name: `mta.${DOMAIN}`,
      dkim: { domainName: DOMAIN, keySelector: 's1', privateKey: privatePem },
    });
    const subject = `${test.subjectTag} Spring collection`;
    await transport
      .sendMail({
        from: `News <news@${DOMAIN}>`,
        to: test.testEmailAddress,
        subject,
        text: 'Our spring collection is here.',
      })
      .finally(() => transport.close());
    await waitUntil(() => testById(test.id), `test ${test.id} to run`, {
      until: (x) => x.status !== 'awaiting_email',
      timeoutMs: 20_000,
    });
    for (const seed of SEEDS) {
      await imap.deliver(
        seed.user,
        folders[seed.user] ?? 'INBOX',
        `From: news@${DOMAIN}\r\nTo: ${seed.user}\r\nSubject: ${subject}\r\n\r\nOur spring collection is here.\r\n`,
      );
    }
    await queueSeedPolling(t.jobs);
    return waitUntil(() => testById(test.id), `test ${test.id} to complete`, {
      until: (x) => x.status === 'completed',
      timeoutMs: 30_000,
    });
  }

  it('names the listing as the most likely cause and raises one alert', async () => {
    const added = await client.post('/api/domains', { domain: DOMAIN, verifyDns: true });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().status).toBe('healthy');
    const domainId = added.json().id as number;
    const ip = await client.post('/api/ip-addresses', { ipAddress: SENDING_IP, type: 'dedicated' });
    expect(ip.statusCode, ip.body).toBe(200);
    const idle = () =>
      waitUntil(
        async () => (await client.get('/api/ip-monitoring/status')).json() as IpMonitoringStatus,
        'the reputation check to finish',
        {
          until: (s) => !s.isRunning && s.lastRun !== null,
          timeoutMs: 30_000,
        },
      );
    await idle(); // the check a new IP asks for: clean

    for (let i = 0; i < 3; i++) expect(await runTest({})).toMatchObject({ inboxCount: 3, totalSeeds: 3 });

    // Spamhaus lists the sending IP; the next check sees it.
    dns.zone[`25.216.184.93.zen.spamhaus.org`] = { A: ['127.0.0.2'] };
    expect((await client.post('/api/ip-monitoring/trigger')).json().started).toBe(true);
    await waitUntil(
      async () => ((await client.get('/api/ip-addresses')).json() as IpAddress[])[0]!,
      'the listing to be found',
      {
        until: (x) => x.blacklistCount > 0,
        timeoutMs: 30_000,
      },
    );
    await idle();

    // Gmail now files the mail as spam; Outlook still delivers it.
    expect(await runTest({ 'g1@seeds.example': 'Junk', 'g2@seeds.example': 'Junk' })).toMatchObject({
      inboxCount: 1,
      totalSeeds: 3,
    });

    const timeline = (await client.get(`/api/domains/${domainId}/timeline`)).json() as DomainTimeline;
    expect(timeline.series.map((s) => [s.key, s.label, s.points.map((p) => p.value)])).toEqual([
      ['placement:all', 'Inbox placement (all providers)', [100, 100, 100, 33.3333]],
      ['placement:gmail', 'Inbox placement at Gmail', [100, 100, 100, 0]],
      ['placement:outlook', 'Inbox placement at Outlook', [100, 100, 100, 100]],
    ]);
    expect(timeline.events.map((e) => e.kind)).toEqual([
      'placement_test',
      'placement_test',
      'placement_test',
      'listing',
      'placement_test',
      'drop',
      'drop',
    ]);

    const { drops } = (await client.get(`/api/domains/${domainId}/diagnosis`)).json() as Diagnosis;
    const gmail = drops.find((d) => d.series === 'placement:gmail')!;
    expect(gmail).toMatchObject({ label: 'Inbox placement at Gmail', before: 100, after: 0 });
    expect(gmail.causes[0]).toMatchObject({
      kind: 'listing',
      title: `${SENDING_IP} listed on Spamhaus ZEN`,
      link: '/blacklist-monitoring',
    });
    expect(gmail.causes[0]!.score).toBeGreaterThan(0.9);
    expect(gmail.causes[0]!.fix).toContain('https://check.spamhaus.org/');
    expect(gmail.summary).toMatch(
      /^Inbox placement at Gmail fell from 100% to 0% on (\d{1,2} \w+); most likely cause: listed on Spamhaus ZEN since \1, less than an hour before$/,
    );
    expect(drops.find((d) => d.series === 'placement:all')!.causes[0]!.kind).toBe('listing');
    expect(drops.map((d) => d.series)).not.toContain('placement:outlook');

    // The evaluation the completed test queued raises one alert for the moment, worded by the Gmail drop.
    const raised = await waitUntil(
      async () => ((await client.get('/api/alerts')).json() as Alert[]).filter((a) => a.metadata?.dropId),
      'the drop alert',
      {
        until: (list) => list.length > 0,
        timeoutMs: 20_000,
      },
    );
    expect(raised.map((a) => [a.type, a.message, a.metadata?.link])).toEqual([
      ['deliverability_drop', gmail.summary, `/domains/${domainId}/timeline`],
    ]);
  });
});
