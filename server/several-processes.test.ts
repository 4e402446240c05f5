import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '@contracts/alerts';
import type { Domain } from '@contracts/domains';
import type { InboxTest } from '@contracts/inbox-tests';
import { fixture } from './dmarc/fixtures';
import { verifyWebhookSignature } from './webhooks/webhook-signature';
import { startDnsServer, type TestDnsServer, type ZoneEntry } from './test/dns-server';
import { freePort } from './test/process-group';
import { hasOpenssl, makeSelfSignedCert } from './test/self-signed-cert';
import { waitUntil } from './test/wait-until';
import {
  connectionOwner,
  HttpSession,
  startAppProcess,
  stopAppProcess,
  type AppProcess,
} from './several-processes.test-support';

/*
 * ROLES split the app into processes that share nothing but the database (docs/architecture.md, "One codebase,
 * three roles, one database"). Here they run as production runs them: four `server/main.ts` processes on one
 * PostgreSQL server (TEST_DATABASE_URL) and a database of their own, two with ROLES=worker, one web, one smtp,
 * started together. Everything goes in as a user's would, through the web process's HTTP API and the smtp
 * process's listener, and comes out where a user would see it: the API, the e-mails at an SMTP server, the webhooks
 * at a receiver. Then each piece of work must have been done exactly once, although two workers competed for it,
 * and a worker killed in the middle of its work must leave it to the other, which does it once.
 */

const serverUrl = process.env.TEST_DATABASE_URL;
const skipReason = !serverUrl
  ? 'needs TEST_DATABASE_URL: separate processes share a PostgreSQL server (the embedded one serves one process)'
  : !hasOpenssl
    ? 'needs openssl to make the webhook receiver certificate'
    : false;

const INBOUND = 'in.roles.test';
const DOMAIN = 'example.com';
const HOOK_HOST = 'hooks.receiver.test';
/** The receiver's address: the processes' outbound guard lets this one non-public address through. */
const RECEIVER_ADDRESS = '127.0.0.2';
// A public address (the product refuses to watch documentation and private ones), listed only in the test zone.
const LISTED_IP = '93.184.216.34';
const ptrName = (ip: string) => `${ip.split('.').reverse().join('.')}.in-addr.arpa`;
// Real aggregate reports for example.com (parsedmarc samples, report-fixtures/README.md): one uploaded, one mailed.
const UPLOADED_REPORT = 'aggregate/example.net!example.com!1529366400!1529452799.xml';
const MAILED_REPORT = 'aggregate/addisonfoods.com!example.com!1536105600!1536191999.xml';

/** The jobs that did this test's work: each must have run once and completed, none retried. */
const WORK_JOBS = ['process-inbound-message', 'reputation-check', 'deliver-webhook', 'send-email', 'deliver-alerts'];

interface WebhookRequest {
  deliveryId: string;
  event: string;
  body: { id: string; data: { alert_id?: number } };
  signatureValid: boolean;
}
interface SinkMail {
  to: string;
  subject: string;
  /** The process whose connection brought it. */
  senderPid: number | undefined;
}

describe.skipIf(skipReason)(
  `two workers, one web and one smtp process on one database${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const databaseName = `inboxpulse_roles_${randomBytes(4).toString('hex')}`;
    let dkimKey: string;
    let dataDir: string | undefined;
    let cert: ReturnType<typeof makeSelfSignedCert> | undefined;

    let dns: TestDnsServer;
    /** DNS questions asked, by name. */
    const asked = new Map<string, number>();
    let receiver: Server;
    let receiverPort: number;
    const webhookRequests: WebhookRequest[] = [];
    let webhookSecret = '';
    let sink: SMTPServer;
    let sinkPort: number;
    const accepted: SinkMail[] = [];
    /** Mail whose subject matches is taken in but never answered, as from a server that hangs. */
    let holdSubject: RegExp | undefined;
    const held: SinkMail[] = [];

    let web: AppProcess, smtp: AppProcess, workerA: AppProcess, workerB: AppProcess;
    let webUrl: string;
    let smtpPort: number;
    let db: pg.Pool;
    let user: HttpSession;
    let email: string;
    const startedAt = Date.now();

    const admin = async (text: string) => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(text).finally(() => client.end());
    };
    const rows = async <T extends object>(text: string, values: unknown[] = []) =>
      (await db.query<T & pg.QueryResultRow>(text, values)).rows;
    const workerPids = () => [workerA.pid, workerB.pid];
    const dump = () => [web, smtp, workerA, workerB].map((p) => `--- ${p.name}\n${p.output().slice(-3000)}`).join('\n');

    beforeAll(async () => {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      dkimKey = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      dataDir = mkdtempSync(path.join(tmpdir(), 'inboxpulse-roles-'));
      cert = makeSelfSignedCert(HOOK_HOST);
      dns = await startDnsServer({
        [DOMAIN]: { TXT: ['v=spf1 ip4:127.0.0.1 -all'], MX: [{ exchange: `mx.${DOMAIN}`, priority: 10 }] },
        [`mx.${DOMAIN}`]: { A: ['192.0.2.25'] },
        [`s1._domainkey.${DOMAIN}`]: {
          TXT: [`v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`],
        },
        [`_dmarc.${DOMAIN}`]: { TXT: [`v=DMARC1; p=reject; rua=mailto:dmarc@${INBOUND}`] },
        [ptrName('127.0.0.1')]: { PTR: [`mta.${DOMAIN}`] },
        [`mta.${DOMAIN}`]: { A: ['127.0.0.1'] },
        [HOOK_HOST]: { A: [RECEIVER_ADDRESS] },
        [ptrName(LISTED_IP)]: { PTR: [`mta70.${DOMAIN}`] },
        [`mta70.${DOMAIN}`]: { A: [LISTED_IP] },
        [`${LISTED_IP.split('.').reverse().join('.')}.bl.spamcop.net`]: { A: ['127.0.0.2'] },
      } as Record<string, ZoneEntry>);
      const zone = dns.zone;
      dns.zone = new Proxy(zone, {
        get(target, name) {
          if (typeof name === 'string') asked.set(name, (asked.get(name) ?? 0) + 1);
          return Reflect.get(target, name);
        },
      });

      receiver = createHttpsServer({ key: readFileSync(cert.key), cert: readFileSync(cert.cert) }, (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          // Anything else asked of this host (the registry lookup, RDAP_BASE_URL points here) finds nothing.
          if (req.url !== '/hooks') return res.writeHead(404).end();
          const body = Buffer.concat(chunks).toString('utf8');
          webhookRequests.push({
            deliveryId: String(req.headers['inboxpulse-delivery']),
            event: String(req.headers['inboxpulse-event']),
            body: JSON.parse(body),
            signatureValid: verifyWebhookSignature(
              webhookSecret,
              body,
              req.headers['inboxpulse-signature'] as string,
              300,
            ).valid,
          });
          res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, RECEIVER_ADDRESS, resolve));
      receiverPort = (receiver.address() as AddressInfo).port;

      sink = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        onData(stream, session, callback) {
          // Read while the sender's connection is open: which process holds it.
          const senderPid = connectionOwner(session.remotePort, sinkPort, workerPids());
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', async () => {
            const mail = await simpleParser(Buffer.concat(chunks));
            const got = { to: session.envelope.rcptTo.map((r) => r.address).join(','), subject: mail.subject ?? '' };
            if (holdSubject?.test(got.subject)) return held.push({ ...got, senderPid }); // never answered
            accepted.push({ ...got, senderPid });
            callback();
          });
        },
      });
      await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
      sinkPort = (sink.server.address() as AddressInfo).port;

      await admin(`CREATE DATABASE ${databaseName}`);
      const url = new URL(serverUrl!);
      url.pathname = `/${databaseName}`;
      db = new pg.Pool({ connectionString: url.toString(), max: 2 });
      const webPort = await freePort();
      smtpPort = await freePort();
      webUrl = `http://127.0.0.1:${webPort}`;
      const env = {
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: url.toString(),
        APP_SECRET: randomBytes(32).toString('hex'),
        APP_URL: webUrl,
        DNS_SERVERS: dns.address,
        INBOUND_DOMAIN: INBOUND,
        SMTP_URL: `smtp://127.0.0.1:${sinkPort}`,
        OUTBOUND_ALLOW_ADDRESSES: RECEIVER_ADDRESS,
        OUTBOUND_CA_FILE: cert.cert,
        RDAP_BASE_URL: `https://${HOOK_HOST}:${receiverPort}`,
      };
      // All four at once on an empty database: they migrate it together (under the migration lock).
      web = startAppProcess('web', ['web'], { ...env, PORT: String(webPort) });
      smtp = startAppProcess('smtp', ['smtp'], { ...env, PORT: '0', SMTP_PORT: String(smtpPort) });
      workerA = startAppProcess('worker A', ['worker'], { ...env, PORT: '0' });
      workerB = startAppProcess('worker B', ['worker'], { ...env, PORT: '0' });
      await Promise.all([web, smtp, workerA, workerB].map((p) => p.started));
    }, 180_000);

    afterAll(async () => {
      await Promise.all([web, smtp, workerA, workerB].filter(Boolean).map(stopAppProcess));
      await db?.end();
      if (serverUrl) await admin(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
      await new Promise<void>((resolve) => (sink ? sink.close(() => resolve()) : resolve()));
      receiver?.closeAllConnections();
      receiver?.close();
      await dns?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      if (cert) rmSync(cert.dir, { recursive: true, force: true });
    }, 60_000);

    /** Sends a DKIM-signed message as DOMAIN to the smtp process. */
    function sendToSmtp(mail: SendMailOptions, sign = true) {
      const transport = nodemailer.createTransport({
        host: '127.0.0.1',
        port: smtpPort,
        secure: false,
        ignoreTLS: true,
        name: `mta.${DOMAIN}`,
        ...(sign ? { dkim: { domainName: DOMAIN, keySelector: 's1', privateKey: dkimKey } } : {}),
      });
      return transport.sendMail({ from: `News <news@${DOMAIN}>`, ...mail }).finally(() => transport.close());
    }

    /** No job is due or running (delayed ones wait for their time): what the workers were given is done. */
    const settled = () =>
      waitUntil(
        async () =>
          (
            await rows<{ n: number }>(
              `select count(*)::int as n from pgboss.job where state in ('created', 'retry', 'active') and start_after <= now()`,
            )
          )[0]!.n,
        'every due job to be done',
        { until: (n) => n === 0, timeoutMs: 60_000 },
      );

    it('migrated the database once, although all four started on it together', async () => {
      const [migrations] = await rows<{ n: number; distinct: number }>(
        `select count(*)::int as n, count(distinct hash)::int as distinct from drizzle.__drizzle_migrations`,
      );
      expect(migrations!.n).toBeGreaterThan(0);
      expect(migrations!.n).toBe(migrations!.distinct);
    });

    it('a user signs up on the web process, registers a webhook and verifies a domain', async () => {
      user = new HttpSession(webUrl);
      email = `owner-${randomBytes(3).toString('hex')}@${DOMAIN}`;
      await user.json('POST', '/api/register', { username: 'roles_owner', email, password: 'correct horse battery' });
      // Webhooks and more inbox tests than Free's need Professional (self-hosted billing: at once).
      await user.json('POST', '/api/upgrade-subscription', { planId: 'professional' });
      const hook = await user.json<{ secret: string }>('POST', '/api/webhooks', {
        url: `https://${HOOK_HOST}:${receiverPort}/hooks`,
        events: ['alert.created', 'alert.resolved'],
        description: 'the test receiver',
      });
      webhookSecret = hook.secret;

      const added = await user.json<Domain>('POST', '/api/domains', { domain: DOMAIN });
      dns.zone[added.verificationRecord.name] = { TXT: [added.verificationRecord.value] };
      // The ownership record is published now that the token is known: the checks run again and find it.
      await user.json('POST', `/api/domains/${added.id}/verify`);
      const domain = await waitUntil(
        async () => (await user.get<Domain[]>('/api/domains')).find((d) => d.id === added.id),
        'the domain to be verified and healthy',
        { until: (d) => d?.isVerified === true && d.status === 'healthy' },
      );
      expect(domain).toMatchObject({ spfStatus: 'valid', dkimStatus: 'valid', dmarcStatus: 'valid' });
    }, 60_000);

    it('runs inbox tests sent over SMTP to the smtp process, each analysed once', async () => {
      const tests = await Promise.all(
        [1, 2, 3].map(() => user.json<InboxTest>('POST', '/api/inbox-tests', { testType: 'automatic' })),
      );
      const answers = await Promise.all(
        tests.map((test) =>
          sendToSmtp({
            to: test.testEmailAddress,
            subject: `${test.subjectTag} Spring sale`,
            text: 'Our spring collection is here.',
            html: '<p>Our spring collection is here.</p>',
          }),
        ),
      );
      expect(answers.map((a) => a.response)).toEqual(tests.map(() => expect.stringMatching(/^250 /)));
      const done = await waitUntil(
        async () => (await user.get<InboxTest[]>('/api/inbox-tests')).filter((t) => t.status === 'completed'),
        'the three tests to complete',
        { until: (completed) => completed.length === 3, timeoutMs: 60_000 },
      );
      expect(done.map((t) => t.inboxCount + t.spamCount).sort()).toEqual([1, 1, 1]);
      // One analysis per test: one placement and one report each.
      expect(
        await rows(
          `select t.id, (select count(*)::int from inbox_test_placements p where p.test_id = t.id) as placements,
                  (select count(*)::int from inbox_test_reports r where r.test_id = t.id) as reports
           from inbox_tests t order by t.id`,
        ),
      ).toEqual(tests.map((t) => ({ id: t.id, placements: 1, reports: 1 })).sort((a, b) => a.id - b.id));
    }, 90_000);

    it('takes a DMARC report uploaded to the web process and one mailed to the smtp process, each stored once', async () => {
      const uploaded = await user.request('POST', '/api/dmarc/upload', fixture(UPLOADED_REPORT), 'application/xml');
      expect(uploaded.status, await uploaded.clone().text()).toBe(200);
      const mailed = await sendToSmtp(
        {
          to: `dmarc@${INBOUND}`,
          subject: `Report Domain: ${DOMAIN} Submitter: addisonfoods.com`,
          text: 'DMARC aggregate report attached.',
          attachments: [{ filename: path.basename(MAILED_REPORT), content: fixture(MAILED_REPORT) }],
        },
        false,
      );
      expect(mailed.response).toMatch(/^250 /);
      const reports = await waitUntil(
        () => user.get<{ total: number; items: { orgName: string }[] }>('/api/dmarc/reports'),
        'both reports to be stored',
        { until: (r) => r.total === 2, timeoutMs: 60_000 },
      );
      expect(reports.items.map((r) => r.orgName).sort()).toEqual(['addisonfoods.com', 'example.net']);
    }, 90_000);

    it('runs blocklist checks on the workers, each once, and raises the alert', async () => {
      // Adding the address may queue a run already; then the trigger starts none.
      await user.json('POST', '/api/ip-addresses', { ipAddress: LISTED_IP });
      await user.json('POST', '/api/ip-monitoring/trigger');
      await waitUntil(
        () => user.get<{ isRunning: boolean; lastRun: string | null }>('/api/ip-monitoring/status'),
        'the run to finish',
        { until: (s) => !s.isRunning && s.lastRun !== null, timeoutMs: 60_000 },
      );
      await waitUntil(() => user.get<Alert[]>('/api/alerts'), 'its alert', {
        until: (alerts) => alerts.some((a) => `${a.title} ${a.message}`.includes(LISTED_IP)),
      });
      await settled();
      // Each run looks the address's name up once: as many lookups as runs, none done twice by two workers.
      const runs = await rows(`select 1 from pgboss.job where name = 'reputation-check' and state = 'completed'`);
      expect(runs.length).toBeGreaterThan(0);
      expect(asked.get(ptrName(LISTED_IP))).toBe(runs.length);
    }, 90_000);

    it('did every job once: each message, report, check and mail once, each alert delivered once', async () => {
      await settled();
      const jobs = await rows<{ name: string; state: string; retry_count: number }>(
        `select name, state, retry_count from pgboss.job where name = any($1)`,
        [WORK_JOBS],
      );
      expect(
        jobs.filter((j) => j.state !== 'completed' || j.retry_count > 0),
        dump(),
      ).toEqual([]);
      expect(new Set(jobs.map((j) => j.name))).toEqual(new Set(WORK_JOBS));

      // Received messages: each processed, at the first attempt.
      expect(await rows(`select status, attempts from inbound_messages order by id`)).toEqual(
        [1, 2, 3, 4].map(() => ({ status: 'processed', attempts: 1 })),
      );
      expect(
        await rows(`select report_id, count(*)::int as n from dmarc_reports group by report_id order by report_id`),
      ).toEqual([
        { report_id: '3ceb5548498640beaeb47327e202b0b9', n: 1 },
        { report_id: 'b043f0e264cf4ea995e93765242f6dfb', n: 1 },
      ]);

      // Every webhook delivery reached the receiver once, signed; every alert was told once.
      const deliveries = await rows<{ id: number; status: string; attempts: number }>(
        `select id, status, jsonb_array_length(attempts) as attempts from webhook_deliveries order by id`,
      );
      expect(deliveries.length).toBeGreaterThan(0);
      expect(deliveries.filter((d) => d.status !== 'delivered' || d.attempts !== 1)).toEqual([]);
      expect(webhookRequests.map((r) => r.deliveryId).sort()).toEqual(deliveries.map((d) => String(d.id)).sort());
      expect(webhookRequests.every((r) => r.signatureValid)).toBe(true);
      const alerts = await user.get<Alert[]>('/api/alerts');
      const created = webhookRequests.filter((r) => r.event === 'alert.created').map((r) => r.body.data.alert_id);
      expect(created.sort()).toEqual(alerts.map((a) => a.id).sort());

      // Every e-mail (the sign-up's, the alerts') went out once, at the first attempt.
      const outbox = await rows<{ status: string; attempts: number }>(`select status, attempts from outbox`);
      expect(outbox.filter((m) => m.status !== 'sent' || m.attempts !== 1)).toEqual([]);
      expect(accepted).toHaveLength(outbox.length);
      expect(accepted.every((m) => m.senderPid !== undefined && workerPids().includes(m.senderPid))).toBe(true);
    }, 90_000);

    it('fires each schedule once a minute, whichever worker keeps the clock', async () => {
      // Two minutes of the every-minute maintenance, with both workers keeping schedules.
      await waitUntil(
        async () => (await rows(`select 1 from pgboss.job where name = 'maintenance'`)).length,
        'two maintenance runs',
        { until: (n) => n >= 2, timeoutMs: 150_000, intervalMs: 1000 },
      );
      // The clock's tick queues one send-it job per schedule and minute (pg-boss's singleton slot), and that job queues
      // the run: as many runs as slots, each slot once, each run done once it settles.
      const perSchedule = await waitUntil(
        () =>
          rows<{ name: string; runs: number; slots: number; distinctSlots: number; done: number }>(
            `select s.name,
                    (select count(*)::int from pgboss.job j where j.name = s.name) as runs,
                    count(t.id)::int as slots,
                    count(distinct t.singleton_on)::int as "distinctSlots",
                    (select count(*)::int from pgboss.job j where j.name = s.name and j.state = 'completed') as done
             from pgboss.schedule s
             left join pgboss.job t on t.name = '__pgboss__send-it' and t.singleton_key = s.name
             group by s.name order by s.name`,
          ),
        'every slot fired to have run',
        { until: (all) => all.every((s) => s.runs === s.slots && s.done === s.runs), timeoutMs: 60_000 },
      );
      expect(perSchedule.length).toBeGreaterThan(0);
      for (const schedule of perSchedule) expect(schedule.distinctSlots, schedule.name).toBe(schedule.slots);
      const maintenance = perSchedule.find((s) => s.name === 'maintenance')!;
      expect(maintenance.runs).toBeLessThanOrEqual(Math.ceil((Date.now() - startedAt) / 60_000) + 1);
    }, 200_000);

    it('loses nothing when a worker is killed while it sends an e-mail: the other worker sends it, once', async () => {
      holdSubject = /password/i;
      await user.json('POST', '/api/forgot-password', { email });
      const [stuck] = await waitUntil(() => held, 'the reset e-mail to reach the SMTP server', {
        until: (h) => h.length === 1,
      });
      const victim = [workerA, workerB].find((w) => w.pid === stuck!.senderPid);
      expect(victim, 'the connection belongs to a worker').toBeDefined();
      const survivor = victim === workerA ? workerB : workerA;
      victim!.child.kill('SIGKILL');
      await victim!.exited;
      holdSubject = undefined;

      // The mail's claim runs out (2 minutes) and the survivor's every-minute maintenance hands it back to a sender.
      const [resent] = await waitUntil(
        () => accepted.filter((m) => m.to === email && /password/i.test(m.subject)),
        'the reset e-mail to be sent by the other worker',
        { until: (mails) => mails.length > 0, timeoutMs: 240_000, intervalMs: 1000 },
      );
      expect(resent!.senderPid).toBe(survivor.pid);
      const [row] = await rows<{ status: string; attempts: number }>(
        `select status, attempts from outbox where subject ilike '%password%'`,
      );
      expect(row).toEqual({ status: 'sent', attempts: 2 });
      // Once: nothing more is sent of it while the survivor goes on (its next maintenance run finds it sent).
      const maintenanceRuns = () => rows(`select 1 from pgboss.job where name = 'maintenance' and state = 'completed'`);
      const runsSoFar = (await maintenanceRuns()).length;
      await waitUntil(async () => (await maintenanceRuns()).length, 'the next maintenance run', {
        until: (n) => n > runsSoFar,
        timeoutMs: 90_000,
        intervalMs: 1000,
      });
      expect(accepted.filter((m) => m.to === email && /password/i.test(m.subject))).toHaveLength(1);
    }, 300_000);
  },
);
