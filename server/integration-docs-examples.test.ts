import { spawn, execFile, type ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHECK_ANSWER,
  MTA_GUIDES,
  MTA_IDS,
  mtaEndpointUrl,
  mtaGuide,
  POSTFIX_LOG_FILE,
  POSTFIX_MAIN_CF,
  postfixMonitorScript,
  postfixSystemdUnit,
  powerMtaShipScript,
} from '@content/docs/mta-integration';
import { POSTFIX_ENDPOINTS, postfixAnalyticsCurl, postfixQueueCron } from '@content/docs/postfix';
import {
  EXAMPLE_LANGUAGES,
  SMTP2GO_ACTIVITY_LIMIT,
  SMTP2GO_WEBHOOK_ACCOUNT,
  SMTP2GO_WEBHOOK_SAMPLE,
  smtp2goApiExample,
  smtp2goWebhookUrl,
  type ExampleLanguage,
} from '@content/docs/smtp2go';
import { MTA_INTEGRATIONS } from '@content/integrations';
import { MTA_SOURCES, PostfixAnalytics, PostfixConfig } from '@contracts/delivery-events';
import { postfixConfig } from './delivery-events/postfix-config';
import { deliveryEvents } from './platform/db/schema/delivery-events';
import { users } from './platform/db/schema/users';
import { startDnsServer, type TestDnsServer } from './test/dns-server';
import { createTestApp, signUp, type TestApp } from './test/test-app';

/**
 * The MTA guide, the Postfix guide and the SMTP2GO page (content/docs/) against the real app on a
 * real socket: every "check the endpoint" command is run with curl, every sample of what an MTA posts
 * is sent as that MTA sends it, the Postfix monitoring script follows a real log file, the PowerMTA
 * script posts a real accounting file, the queue cron line runs as written, and the SMTP2GO API
 * examples run against a stand-in of SMTP2GO's API. What the pages show stays true of the server.
 */

const run = promisify(execFile);
const BASH = '/bin/bash';

let t: TestApp;
let dns: TestDnsServer;
let baseUrl = '';
let token = '';
let apiKey = '';
let userId = 0;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dns = await startDnsServer({
    'gmail.com': { MX: [{ exchange: 'gmail-smtp-in.l.google.com', priority: 5 }] },
    'yahoo.com': { MX: [{ exchange: 'mta5.am0.yahoodns.net', priority: 1 }] },
    'example.org': { MX: [{ exchange: 'mx.example.org', priority: 10 }] },
  });
  t = await createTestApp({ env: { DNS_SERVERS: dns.address } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const { client, user } = await signUp(t.app);
  userId = user.id;
  const generated = await client.post('/api/webhook-tokens/generate');
  expect(generated.statusCode, generated.body).toBe(200);
  token = generated.json().token;
  // The /v1/postfix calls take an API key, which needs the Professional plan.
  await t.database.db.update(users).set({ subscriptionPlan: 'professional' }).where(eq(users.id, userId));
  const key = await client.post('/api/api-keys/generate');
  expect(key.statusCode, key.body).toBe(200);
  apiKey = key.json().apiKey;
});

afterAll(async () => {
  // Only the processes this file started, by their group id.
  for (const child of children) stop(child);
  await t?.close();
  await dns?.close();
});

const ctx = () => ({ baseUrl, token });

/** Ends a script this file started: its process group (tail and grep with it), by id. */
function stop(child: ChildProcess): void {
  if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

async function storedEvents(messageId: string) {
  return t.database.db
    .select()
    .from(deliveryEvents)
    .where(and(eq(deliveryEvents.userId, userId), eq(deliveryEvents.messageId, messageId)))
    .orderBy(deliveryEvents.recipient);
}

async function waitFor<T>(probe: () => Promise<T>, done: (value: T) => boolean, what: string, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Whether some process has `file` open (Linux /proc): the script's tail, once it follows the log. */
function isOpenByAProcess(file: string): boolean {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // ended meanwhile
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === file) return true;
      } catch {
        // closed meanwhile
      }
    }
  }
  return false;
}

function tempDir(name: string): string {
  return mkdtempSync(path.join(tmpdir(), `inboxpulse-${name}-`));
}

/**
 * The Postfix monitoring script as a user installs it, following an empty log in a folder of its own, with the
 * given token and unsent file (a path inside that folder). What it writes to stderr is kept for the test.
 */
async function startPostfixMonitor(name: string, webhookToken: string, unsentFile: string) {
  const dir = tempDir(name);
  const script = path.join(dir, 'inboxpulse-postfix-monitor');
  writeFileSync(script, postfixMonitorScript(ctx()));
  chmodSync(script, 0o755);
  const log = path.join(dir, 'postfix.log');
  writeFileSync(log, '');
  const unsent = path.join(dir, unsentFile);
  const child = spawn(script, [], {
    detached: true,
    env: {
      PATH: process.env.PATH,
      INBOXPULSE_WEBHOOK_TOKEN: webhookToken,
      POSTFIX_LOG_FILE: log,
      INBOXPULSE_UNSENT_FILE: unsent,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  // tail starts at the end of the file: nothing is logged before it has the file open.
  await waitFor(async () => isOpenByAProcess(log), Boolean, `the monitoring script to follow ${log}`);
  return { child, log, unsent, stderr: () => stderr };
}

/** An RFC 3339 time a few seconds ago, as rsyslog writes it. */
const isoAgo = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString().replace('Z', '+00:00');

describe('the MTA guides against the real endpoints', () => {
  it('covers the six MTAs of the spec, each on its own endpoint, and the catalogue’s MTA list', () => {
    expect(MTA_GUIDES.map((g) => g.id)).toEqual([...MTA_IDS]);
    expect(MTA_GUIDES.map((g) => g.name)).toEqual(['Postfix', 'PowerMTA', 'GreenArrow', 'Halon', 'KumoMTA', 'Postal']);
    expect(MTA_GUIDES.map((g) => g.name).sort()).toEqual(MTA_INTEGRATIONS.map((m) => m.name).sort());
    for (const guide of MTA_GUIDES) {
      expect(guide.path).toBe(`/api/webhooks/${guide.id}`);
      expect(MTA_SOURCES).toContain(guide.id);
    }
  });

  for (const id of MTA_IDS) {
    describe(mtaGuide(id).name, () => {
      const guide = mtaGuide(id);

      it('configures the MTA with the endpoint and the token where the MTA sends it', () => {
        const configs = guide.config(ctx()).map((c) => c.code);
        const text = configs.join('\n');
        expect(text).toContain(guide.token === 'query' ? mtaEndpointUrl(guide, ctx()) : `${baseUrl}${guide.path}`);
        expect(text).toContain(token);
        // Without a token the reader sees the placeholder, never an empty value.
        expect(
          guide
            .config({ baseUrl })
            .map((c) => c.code)
            .join('\n'),
        ).toContain('iwt_your_webhook_token');
      });

      it('checks the endpoint and the token with a curl command that stores nothing', async () => {
        const { code } = guide.check(ctx());
        const { stdout } = await run(BASH, ['-c', code], { timeout: 30_000 });
        expect(JSON.parse(stdout)).toEqual(CHECK_ANSWER);
        // The same command with a wrong token says what is wrong.
        const wrong = await run(BASH, ['-c', guide.check({ baseUrl, token: 'iwt_wrong' }).code], { timeout: 30_000 });
        expect(JSON.parse(wrong.stdout)).toMatchObject({
          code: 'unauthorized',
          message: expect.stringMatching(/^Invalid webhook token/),
        });
      });

      it('stores the delivery, the bounce and the deferral of the sample the MTA posts', async () => {
        const url = new URL(mtaEndpointUrl(guide, ctx()));
        const res = await t.app.inject({
          method: 'POST',
          url: `${url.pathname}${url.search}`,
          payload: guide.sample.body,
          headers: {
            'content-type': guide.sample.contentType,
            ...(guide.token === 'bearer' ? { authorization: `Bearer ${token}` } : {}),
          },
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toEqual({
          accepted: guide.sample.events,
          duplicates: 0,
          ignored: guide.sample.ignored,
          rejected: [],
        });
      });
    });
  }
});

describe('the Postfix guide', () => {
  it('shows the main.cf lines and log file GET /v1/postfix/config answers', async () => {
    expect(POSTFIX_MAIN_CF).toBe(postfixConfig(baseUrl, true, 1000).mainCf);
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/postfix/config',
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const config = PostfixConfig.parse(res.json());
    expect(config.mainCf).toBe(POSTFIX_MAIN_CF);
    expect(config.logFile).toBe(POSTFIX_LOG_FILE);
    expect(config.hasWebhookToken).toBe(true);
  });

  it('lists endpoints the server serves, each with the credential it takes', async () => {
    for (const endpoint of POSTFIX_ENDPOINTS) {
      // Without credentials each answers 401 (a missing route would answer 404).
      const res = await t.app.inject({
        method: endpoint.method,
        url: endpoint.path,
        payload: endpoint.method === 'POST' ? {} : undefined,
      });
      expect(res.statusCode, `${endpoint.method} ${endpoint.path}`).toBe(401);
      const expected = endpoint.auth === 'webhook token' ? /webhook token/i : /API key|sign in/i;
      expect(res.json().message, endpoint.path).toMatch(expected);
    }
  });

  it('runs the monitoring script on a real log: delivered, bounced and deferred lines arrive with their sender domain', async () => {
    const { child, log, unsent, stderr } = await startPostfixMonitor('postfix', token, 'unsent.log');
    const queueId = '4TfKScr1pt01';
    appendFileSync(
      log,
      [
        `${isoAgo(9)} mx1 postfix/pickup[2101]: ${queueId}: uid=1001 from=<news@mail.example.com>`,
        `${isoAgo(9)} mx1 postfix/cleanup[2110]: ${queueId}: message-id=<20261126.${queueId}@mail.example.com>`,
        `${isoAgo(8)} mx1 postfix/qmgr[1999]: ${queueId}: from=<news@mail.example.com>, size=4211, nrcpt=3 (queue active)`,
        `${isoAgo(7)} mx1 postfix/smtp[2120]: ${queueId}: to=<ann@gmail.com>, relay=gmail-smtp-in.l.google.com[142.250.102.27]:25, delay=1.2, delays=0.1/0.01/0.5/0.59, dsn=2.0.0, status=sent (250 2.0.0 OK  1764148801 - gsmtp)`,
        `${isoAgo(6)} mx1 postfix/smtp[2121]: ${queueId}: to=<bob@example.org>, relay=mx.example.org[192.0.2.25]:25, delay=2.1, delays=0.1/0.01/1.5/0.49, dsn=5.1.1, status=bounced (host mx.example.org[192.0.2.25] said: 550 5.1.1 <bob@example.org>: Recipient address rejected: User unknown (in reply to RCPT TO command))`,
        `${isoAgo(5)} mx1 postfix/smtp[2122]: ${queueId}: to=<carol@yahoo.com>, relay=mta7.am0.yahoodns.net[67.195.204.72]:25, delay=3.3, delays=0.1/0.01/3.1/0.09, dsn=4.7.0, status=deferred (host mta7.am0.yahoodns.net[67.195.204.72] said: 421 4.7.0 [TSS04] Messages from 203.0.113.10 temporarily deferred (in reply to MAIL FROM command))`,
        `${isoAgo(4)} mx1 postfix/local[2150]: 4TfKScr1pt02: to=<root@mx1.example.com>, relay=local, delay=0.01, delays=0/0/0/0.01, dsn=2.0.0, status=sent (delivered to mailbox)`,
        `${isoAgo(4)} mx1 sshd[3000]: Accepted publickey for deploy from 198.51.100.9 port 50122 ssh2`,
        '',
      ].join('\n'),
    );
    const events = await waitFor(
      () => storedEvents(queueId),
      (rows) => rows.length >= 3,
      'the script’s events',
    );
    expect(
      events.map((e) => [
        e.source,
        e.recipient,
        e.eventType,
        e.bounceClass,
        e.enhancedStatus,
        e.domain,
        e.mailboxProvider,
      ]),
    ).toEqual([
      ['postfix', 'ann@gmail.com', 'delivered', null, '2.0.0', 'mail.example.com', 'gmail'],
      ['postfix', 'bob@example.org', 'bounced', 'hard', '5.1.1', 'mail.example.com', 'other'],
      ['postfix', 'carol@yahoo.com', 'deferred', null, '4.7.0', 'mail.example.com', 'yahoo'],
    ]);
    // The local delivery and the other programs' lines never left the server.
    expect(await storedEvents('4TfKScr1pt02')).toEqual([]);
    expect(existsSync(unsent)).toBe(false);
    expect(stderr()).toBe('');
    stop(child);
  }, 60_000);

  it('keeps what InboxPulse refuses (a wrong token) in the unsent file and says why', async () => {
    const { child, log, unsent, stderr } = await startPostfixMonitor(
      'postfix-refused',
      'iwt_revoked',
      'spool/unsent.log',
    );
    const line = `${isoAgo(3)} mx1 postfix/smtp[2120]: 4TfKScr1pt03: to=<ann@gmail.com>, relay=gmail-smtp-in.l.google.com[142.250.102.27]:25, delay=1, delays=0/0/0.5/0.5, dsn=2.0.0, status=sent (250 2.0.0 OK - gsmtp)`;
    appendFileSync(log, `${line}\n`);
    await waitFor(
      async () => (existsSync(unsent) ? readFileSync(unsent, 'utf8') : ''),
      (text) => text.length > 0,
      'the unsent file',
    );
    expect(readFileSync(unsent, 'utf8')).toBe(`${line}\n`);
    expect(stderr()).toMatch(/HTTP 401 .*Invalid webhook token.*1 lines kept in/);
    stop(child);
  }, 60_000);

  it('the systemd unit runs the script with the token in its environment', () => {
    const unit = postfixSystemdUnit(ctx());
    expect(unit).toContain(`Environment=INBOXPULSE_WEBHOOK_TOKEN=${token}`);
    expect(unit).toContain('ExecStart=/usr/local/bin/inboxpulse-postfix-monitor');
  });

  it('runs the queue cron line as written: postqueue -j piped to /v1/postfix/queue stores the deferred recipients', async () => {
    const dir = tempDir('postqueue');
    const queueId = '4TfKQueue001';
    // A stand-in for postqueue on PATH that prints what postqueue -j prints.
    const queue = [
      {
        queue_name: 'deferred',
        queue_id: queueId,
        arrival_time: Math.floor(Date.now() / 1000) - 600,
        message_size: 2314,
        forced_expire: false,
        sender: 'news@mail.example.com',
        recipients: [
          {
            address: 'dave@example.org',
            delay_reason: 'connect to mx.example.org[192.0.2.25]:25: Connection timed out',
          },
        ],
      },
    ];
    writeFileSync(
      path.join(dir, 'postqueue'),
      `#!/bin/sh\n[ "$1" = -j ] || exit 64\ncat <<'EOF'\n${queue.map((m) => JSON.stringify(m)).join('\n')}\nEOF\n`,
    );
    chmodSync(path.join(dir, 'postqueue'), 0o755);
    const line = postfixQueueCron(ctx(), apiKey);
    const command = line.replace(/^(\S+\s+){5}root\s+/, '');
    await run(BASH, ['-c', command], { timeout: 30_000, env: { PATH: `${dir}:${process.env.PATH}` } });
    const events = await storedEvents(queueId);
    expect(events.map((e) => [e.recipient, e.eventType, e.domain])).toEqual([
      ['dave@example.org', 'deferred', 'mail.example.com'],
    ]);
  });

  it('runs the analytics command and gets the documented answer', async () => {
    const { stdout } = await run(BASH, ['-c', postfixAnalyticsCurl(ctx(), apiKey)], { timeout: 30_000 });
    const analytics = PostfixAnalytics.parse(JSON.parse(stdout));
    expect(analytics.days).toBe(7);
  });
});

describe('the PowerMTA guide', () => {
  it('ships a finished accounting file of 1,500 records in two requests, then removes it', async () => {
    const outbox = tempDir('pmta');
    const header =
      'type,timeLogged,timeQueued,orig,rcpt,orcpt,dsnAction,dsnStatus,dsnDiag,dsnMta,bounceCat,dlvSourceIp,jobId,envId';
    const rows = Array.from({ length: 1500 }, (_, i) => {
      const recipient = `reader${i}@${['gmail.com', 'yahoo.com', 'example.org'][i % 3]}`;
      return i % 10 === 0
        ? `b,${Math.floor(Date.now() / 1000) - 60},${Math.floor(Date.now() / 1000) - 120},news@mail.example.com,${recipient},,failed,5.1.1 (bad destination mailbox address),"smtp;550 5.1.1 User unknown, sorry",mx.example.org (192.0.2.25),bad-mailbox,203.0.113.10,spring,pmta-ship-${i}`
        : `d,${Math.floor(Date.now() / 1000) - 60},${Math.floor(Date.now() / 1000) - 120},news@mail.example.com,${recipient},,relayed,2.0.0 (success),smtp;250 2.0.0 OK,gmail-smtp-in.l.google.com (142.250.102.27),,203.0.113.10,spring,pmta-ship-${i}`;
    });
    const file = path.join(outbox, 'inboxpulse.csv-2026-11-26-0920');
    writeFileSync(file, `${header}\r\n${rows.join('\r\n')}\r\n`);
    const script = path.join(outbox, '..', `ship-${path.basename(outbox)}`);
    writeFileSync(script, powerMtaShipScript(ctx()));
    chmodSync(script, 0o755);
    const { stderr } = await run(script, [], {
      timeout: 60_000,
      env: { PATH: process.env.PATH, INBOXPULSE_WEBHOOK_TOKEN: token, PMTA_OUTBOX: outbox },
    });
    expect(stderr).toBe('');
    expect(readdirSync(outbox)).toEqual([]);
    const stored = await t.database.db
      .select({ messageId: deliveryEvents.messageId, eventType: deliveryEvents.eventType })
      .from(deliveryEvents)
      .where(and(eq(deliveryEvents.userId, userId), eq(deliveryEvents.source, 'powermta')));
    const shipped = stored.filter((e) => e.messageId.startsWith('pmta-ship-'));
    expect(shipped).toHaveLength(1500);
    expect(shipped.filter((e) => e.eventType === 'bounced')).toHaveLength(150);
  }, 60_000);

  it('keeps a file InboxPulse refused for the next run', async () => {
    const outbox = tempDir('pmta-refused');
    writeFileSync(path.join(outbox, 'acct.csv'), 'type,timeLogged,rcpt\r\nd,1764148801,ann@gmail.com\r\n');
    const script = path.join(outbox, '..', `ship-${path.basename(outbox)}`);
    writeFileSync(script, powerMtaShipScript(ctx()));
    chmodSync(script, 0o755);
    const { stderr } = await run(script, [], {
      timeout: 60_000,
      env: { PATH: process.env.PATH, INBOXPULSE_WEBHOOK_TOKEN: 'iwt_revoked', PMTA_OUTBOX: outbox },
    });
    expect(stderr).toMatch(/acct\.csv: HTTP 401 .*Invalid webhook token/);
    expect(readdirSync(outbox)).toEqual(['acct.csv']);
  });
});

describe('the SMTP2GO page', () => {
  it('posts SMTP2GO’s webhook to the account’s endpoint, token in the URL', async () => {
    const url = new URL(smtp2goWebhookUrl(ctx()));
    expect(url.pathname).toBe(`/api/webhooks/smtp2go/${SMTP2GO_WEBHOOK_ACCOUNT}`);
    const res = await t.app.inject({
      method: 'POST',
      url: `${url.pathname}${url.search}`,
      payload: SMTP2GO_WEBHOOK_SAMPLE,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ accepted: 1, duplicates: 0, ignored: 0, rejected: [] });
    const [event] = await storedEvents('1rPqRs-4TfK2Q-Ab');
    expect(event).toMatchObject({
      source: 'smtp2go',
      recipient: 'ann@gmail.com',
      eventType: 'delivered',
      domain: 'mail.example.com',
    });
  });

  describe('API examples against a stand-in of SMTP2GO’s API', () => {
    const KEY = 'api-0123456789ABCDEF0123456789ABCDEF';
    let server: Server;
    let apiBase = '';
    const requests: { path: string; key: string | undefined; body: unknown }[] = [];

    beforeAll(async () => {
      server = createServer((req: IncomingMessage, res) => {
        let raw = '';
        req.on('data', (chunk) => (raw += chunk));
        req.on('end', () => {
          const key = req.headers['x-smtp2go-api-key'] as string | undefined;
          requests.push({ path: req.url ?? '', key, body: raw ? JSON.parse(raw) : undefined });
          res.setHeader('content-type', 'application/json');
          if (req.method !== 'POST' || key !== KEY) {
            res.statusCode = 401;
            return res.end(
              JSON.stringify({
                request_id: 'r1',
                data: { error: 'Invalid API key', error_code: 'E_ApiResponseCodes.API_KEY_INVALID' },
              }),
            );
          }
          if (req.url === '/v3/stats/email_summary') {
            return res.end(
              JSON.stringify({
                request_id: 'r2',
                data: {
                  cycle_used: 1234,
                  cycle_max: 10000,
                  email_count: 1234,
                  hardbounces: 7,
                  softbounces: 3,
                  spam_count: 1,
                },
              }),
            );
          }
          if (req.url === '/v3/activity/search') {
            return res.end(
              JSON.stringify({
                request_id: 'r3',
                data: { events: [{ event: 'delivered', email_id: '1rPqRs-4TfK2Q-Ab', recipient: 'ann@gmail.com' }] },
              }),
            );
          }
          res.statusCode = 404;
          res.end(JSON.stringify({ request_id: 'r4', data: { error: 'Not found' } }));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      apiBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const commands: Record<ExampleLanguage, (code: string) => [string, string[]]> = {
      shell: (code) => [BASH, ['-c', code]],
      node: (code) => [process.execPath, ['--input-type=module', '-e', code]],
      python: (code) => ['python3', ['-c', code]],
    };

    async function pythonWorks(): Promise<boolean> {
      try {
        await run('python3', ['-c', 'import json, urllib.request'], { timeout: 20_000 });
        return true;
      } catch {
        return false;
      }
    }

    for (const language of EXAMPLE_LANGUAGES) {
      it(`${language}: reads the email summary and the latest ${SMTP2GO_ACTIVITY_LIMIT} activity events with the key header`, async (test) => {
        if (language === 'python' && !(await pythonWorks())) test.skip('python3 is not installed here');
        requests.length = 0;
        const [file, args] = commands[language](smtp2goApiExample(language, apiBase));
        const { stdout } = await run(file, args, {
          timeout: 30_000,
          env: { PATH: process.env.PATH, HOME: process.env.HOME, SMTP2GO_API_KEY: KEY },
        });
        expect(requests).toEqual([
          { path: '/v3/stats/email_summary', key: KEY, body: {} },
          { path: '/v3/activity/search', key: KEY, body: { limit: SMTP2GO_ACTIVITY_LIMIT } },
        ]);
        expect(stdout).toContain('1234');
        expect(stdout).toContain('1rPqRs-4TfK2Q-Ab');
      });
    }

    it('the Node.js example says SMTP2GO’s error when the key is refused', async () => {
      const [file, args] = commands.node(smtp2goApiExample('node', apiBase));
      await expect(
        run(file, args, { timeout: 30_000, env: { PATH: process.env.PATH, SMTP2GO_API_KEY: 'api-wrong' } }),
      ).rejects.toMatchObject({
        stderr: expect.stringContaining('401: Invalid API key'),
      });
    });
  });
});
