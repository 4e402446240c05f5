// bench:hostile's "webhook stall" phase (issue 36, section 1): one account whose webhook never answers,
// fed 200 `email.delivered` events, must not delay another account's `alert.created` webhook.
//
// The receivers are one HTTPS server on 127.0.0.2 (a self-signed certificate for WEBHOOK_HOST, which the
// server trusts through OUTBOUND_CA_FILE, and reaches through OUTBOUND_ALLOW_ADDRESSES and the bench's DNS
// zone): /attacker accepts each request and never answers (the server's 10 s timeout ends it), /victim
// answers 200 at once. The attacker is a second account registered over HTTP, with a webhook token, and a
// webhook for `email.delivered`; its 200 events are one batch of Postfix `status=sent` lines posted to
// /api/webhooks/postfix, as its MTA would. The victim is the bench's account, with a webhook for
// `alert.created`. Once the attacker's receiver holds requests, the victim's alert event is raised
// through the webhooks service (enqueueWebhookEvent, what alert delivery calls) with a job sender of the
// bench's own on the server's database; the figure is the time from raising it to its arrival at /victim.
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import { readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { jobRegistry } from '../../server/job-registry';
import { openNotifications } from '../../server/platform/db/notifications';
import type { Database } from '../../server/platform/db/client';
import { createJobQueue } from '../../server/platform/queue/queue';
import { hasOpenssl, makeSelfSignedCert } from '../../server/test/self-signed-cert';
import { enqueueWebhookEvent } from '../../server/webhooks/webhooks.service';

export const WEBHOOK_HOST = 'hooks.bench.test';
export const RECEIVER_ADDRESS = '127.0.0.2';
/** The goal of issue 36: the other account's alert arrives within 5 s. */
export const GOAL_ALERT_MS = 5000;
const BULK_EVENTS = 200;

export interface StallReceivers {
  /** The server's environment that lets it reach and trust the receivers. */
  env: Record<string, string>;
  port: number;
  /** Requests to /attacker open now, and the most at once. */
  attackerOpen: () => { now: number; most: number };
  attackerRequests: () => number;
  victimArrivedAt: () => number | undefined;
  close(): void;
}

/** The receivers, started before the server (its environment names their certificate); undefined without openssl. */
export async function startStallReceivers(): Promise<StallReceivers | undefined> {
  if (!hasOpenssl) return undefined;
  const cert = makeSelfSignedCert(WEBHOOK_HOST);
  let open = 0;
  let most = 0;
  let requests = 0;
  let victimAt: number | undefined;
  const server: Server = createServer({ key: readFileSync(cert.key), cert: readFileSync(cert.cert) }, (req, res) => {
    req.resume();
    if (req.url === '/victim') {
      victimAt ??= Date.now();
      return void req.on('end', () => res.writeHead(200).end());
    }
    requests++;
    most = Math.max(most, ++open);
    res.on('close', () => open--);
    // /attacker: accepted, never answered.
  });
  await new Promise<void>((resolve) => server.listen(0, RECEIVER_ADDRESS, resolve));
  return {
    // The server allows a loopback receiver and a private CA only under NODE_ENV=test, whose one other
    // effect is to skip the Host header check (env.ts, http/security.ts): no figure of the bench moves with it.
    env: { NODE_ENV: 'test', OUTBOUND_ALLOW_ADDRESSES: RECEIVER_ADDRESS, OUTBOUND_CA_FILE: cert.cert },
    port: (server.address() as AddressInfo).port,
    attackerOpen: () => ({ now: open, most }),
    attackerRequests: () => requests,
    victimArrivedAt: () => victimAt,
    close() {
      server.closeAllConnections();
      server.close();
      rmSync(cert.dir, { recursive: true, force: true });
    },
  };
}

type Call = (
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
) => Promise<{ status: number; body: Buffer; headers: IncomingHttpHeaders }>;

function postfixSentLine(i: number): string {
  const d = new Date();
  const month = d.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
  const time = `${month} ${String(d.getUTCDate()).padStart(2, ' ')} ${d.toISOString().slice(11, 19)}`;
  const queueId = `4TfSTALL${String(i).padStart(4, '0')}`;
  return `${time} mx1 postfix/smtp[2120]: ${queueId}: to=<user${i}@gmail.com>, relay=gmail-smtp-in.l.google.com[142.250.102.27]:25, delay=1, delays=0/0/0/1, dsn=2.0.0, status=sent (250 2.0.0 OK)`;
}

/** Runs the attack and measures the victim's alert; the caller's phase() wraps it with the probes. */
export async function webhookStall(options: {
  receivers: StallReceivers;
  appUrl: string;
  database: Database;
  victim: { id: number; cookie: string };
  call: Call;
  waitFor: <T>(what: string, read: () => Promise<T>, done: (value: T) => boolean) => Promise<T>;
}) {
  const { receivers, appUrl, call, victim } = options;
  const url = (path: string) => `https://${WEBHOOK_HOST}:${receivers.port}${path}`;
  const json = (cookie: string) => ({ 'content-type': 'application/json', origin: appUrl, cookie });
  const expect = (what: string, answer: { status: number; body: Buffer }) => {
    if (answer.status !== 200)
      throw new Error(`${what} answered ${answer.status}: ${answer.body.toString().slice(0, 300)}`);
    return JSON.parse(answer.body.toString()) as Record<string, unknown>;
  };

  // The attacker: an account, a webhook token for its MTA, and a webhook that never answers.
  const username = `stall${Date.now()}`;
  const registered = await call(`${appUrl}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: appUrl },
    body: JSON.stringify({ username, email: `${username}@example.com`, password: 'correct horse battery staple' }),
  });
  expect('POST /api/register', registered);
  const cookie = [registered.headers['set-cookie'] ?? []]
    .flat()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith('inboxpulse_session='))!;
  const token = expect(
    'POST /api/webhook-tokens/generate',
    await call(`${appUrl}/api/webhook-tokens/generate`, { method: 'POST', headers: { origin: appUrl, cookie } }),
  ).token as string;
  const hook = (who: string, path: string, events: string[]) =>
    call(`${appUrl}/api/webhooks`, {
      method: 'POST',
      headers: json(who),
      body: JSON.stringify({ url: url(path), events }),
    });
  expect('POST /api/webhooks (attacker)', await hook(cookie, '/attacker', ['email.delivered']));
  expect('POST /api/webhooks (victim)', await hook(victim.cookie, '/victim', ['alert.created']));

  // The bench's own job sender, on the server's database: how the victim's alert event is queued.
  const log = pino({ level: 'silent' });
  const notifications = await openNotifications(options.database.connection, log);
  const jobs = createJobQueue({ database: options.database, notifications, jobs: jobRegistry, log, work: false });
  // Only sends: no job of the bench runs, so it needs no context.
  await jobs.start(undefined as never);
  try {
    const lines = Array.from({ length: BULK_EVENTS }, (_, i) => postfixSentLine(i)).join('\n');
    const ingested = expect(
      'POST /api/webhooks/postfix',
      await call(`${appUrl}/api/webhooks/postfix`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', authorization: `Bearer ${token}` },
        body: lines,
      }),
    );
    await options.waitFor(
      "the attacker's receiver to hold requests",
      async () => receivers.attackerOpen().now,
      (n) => n > 0,
    );

    const raised = Date.now();
    await enqueueWebhookEvent(options.database.db, jobs, victim.id, 'alert.created', { alert_id: 'bench' });
    const arrived = await options.waitFor(
      "the victim's alert at its receiver",
      async () => receivers.victimArrivedAt(),
      (at) => at !== undefined,
    );
    const latencyMs = arrived! - raised;
    const met = latencyMs <= GOAL_ALERT_MS;
    const held = receivers.attackerOpen();
    return {
      summary:
        `${String(ingested.accepted)} email.delivered events for an endpoint that never answers; the other account's ` +
        `alert.created arrived ${(latencyMs / 1000).toFixed(2)} s after it was raised (goal <= ${GOAL_ALERT_MS / 1000} s: ` +
        `${met ? 'met' : 'MISSED'}); attacker requests so far ${receivers.attackerRequests()}, at most ${held.most} open at once`,
      details: {
        'bulk events accepted': ingested.accepted,
        'other account alert latency s': Math.round(latencyMs) / 1000,
        'alert latency goal s': GOAL_ALERT_MS / 1000,
        'alert goal': met ? 'met' : 'missed',
        'attacker requests at most open': held.most,
      },
    };
  } finally {
    await jobs.stop();
    await notifications.close();
  }
}
