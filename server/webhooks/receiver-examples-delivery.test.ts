import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer, type Server } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ENVELOPE_EXAMPLE,
  receiverExample,
  SIGN_WITH_OPENSSL,
  WEBHOOK_ATTEMPTS,
  WEBHOOK_HEADERS,
  WEBHOOK_PAUSE,
  WEBHOOK_RETRY_WAITS_SECONDS,
  type ReceiverLanguage,
} from '@content/docs/webhooks';
import { WEBHOOK_MAX_ATTEMPTS } from '@contracts/webhooks';
import { loadEnv } from '../platform/env';
import { WEBHOOK_BREAKER } from './webhooks.service';
import { startDnsServer, type TestDnsServer } from '../test/dns-server';
import { hasOpenssl, makeSelfSignedCert } from '../test/self-signed-cert';
import { createTestApp, signUp, type TestApp, type TestClient } from '../test/test-app';
import { waitUntil } from '../test/wait-until';
import { settledDelivery } from './webhook-deliveries.test-support';

/**
 * The receivers the Webhook Documentation shows (docs/webhooks.md's marked blocks, rendered on
 * /webhook-docs), run as a reader would run them and fed real deliveries from the app: each accepts
 * an event signed with its secret and answers 401 to one signed with another.
 */

const GUIDE = readFileSync(path.resolve(import.meta.dirname, '../../docs/webhooks.md'), 'utf8');
const HOST = 'receiver.docs.test';
/** The HTTPS front listens here; the app's guard lets only this non-public address through. */
const FRONT_ADDRESS = '127.0.0.2';

const hasPython = spawnSync('python3', ['--version']).status === 0;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A receiver example as a child process, as `node receiver.mjs` or `python3 receiver.py` would start it. */
async function startReceiver(language: ReceiverLanguage, secret: string, dir: string) {
  const port = await freePort();
  const file = path.join(dir, language === 'js' ? `receiver-${port}.mjs` : `receiver-${port}.py`);
  writeFileSync(file, receiverExample(GUIDE, language));
  let output = '';
  const child: ChildProcess = spawn(language === 'js' ? process.execPath : 'python3', [file], {
    env: { PATH: process.env.PATH, INBOXPULSE_WEBHOOK_SECRET: secret, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', () => {}); // Python's request log
  await waitUntil(
    () =>
      fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '' }).then(
        () => true,
        () => false,
      ),
    `the ${language} receiver to listen`,
  );
  return { port, child, output: () => output };
}

describe.skipIf(!hasOpenssl || !hasPython)(
  'the documented webhook receivers against real deliveries (needs openssl and python3)',
  () => {
    let t: TestApp;
    let dns: TestDnsServer;
    let front: Server;
    let frontPort = 0;
    let made: ReturnType<typeof makeSelfSignedCert>;
    let dir: string;
    const children: ChildProcess[] = [];
    /** Where the HTTPS front forwards each path: the receiver's plain-HTTP port, as a TLS proxy would. */
    const routes = new Map<string, number>();
    /** What the app sent, as the front saw it. */
    const seen: { headers: Record<string, unknown>; body: string }[] = [];

    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'inboxpulse-receivers-'));
      made = makeSelfSignedCert(HOST);
      front = createHttpsServer({ key: readFileSync(made.key), cert: readFileSync(made.cert) }, (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const body = Buffer.concat(chunks);
          seen.push({ headers: req.headers, body: body.toString('utf8') });
          const forward = httpRequest(
            {
              host: '127.0.0.1',
              port: routes.get(req.url ?? '/'),
              path: '/',
              method: 'POST',
              headers: { ...req.headers, 'content-length': body.length },
            },
            (answer) => {
              answer.resume();
              answer.on('end', () => res.writeHead(answer.statusCode ?? 502).end());
            },
          );
          forward.on('error', () => res.writeHead(502).end());
          forward.end(body);
        });
      });
      await new Promise<void>((resolve) => front.listen(0, FRONT_ADDRESS, resolve));
      frontPort = (front.address() as AddressInfo).port;
      dns = await startDnsServer({ [HOST]: { A: [FRONT_ADDRESS] } });
      t = await createTestApp({
        work: true,
        env: {
          DNS_SERVERS: dns.address,
          OUTBOUND_ALLOW_ADDRESSES: FRONT_ADDRESS,
          OUTBOUND_CA_FILE: made.cert,
          WEBHOOK_RETRY_SECONDS: '0',
          WEBHOOK_TIMEOUT_MS: '2000',
        },
      });
    });
    afterAll(async () => {
      for (const child of children) child.kill();
      await t?.close();
      await dns?.close();
      front?.closeAllConnections();
      front?.close();
      if (made) rmSync(made.dir, { recursive: true, force: true });
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    async function register(client: TestClient, route: string): Promise<{ id: number; secret: string }> {
      const res = await client.post('/api/webhooks', {
        url: `https://${HOST}:${frontPort}${route}`,
        events: ['webhook.test'],
        description: route,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    }

    for (const language of ['js', 'python'] as const) {
      it(`the ${language === 'js' ? 'Node' : 'Python'} receiver accepts a delivery signed with its secret and answers 401 to another endpoint's`, async () => {
        const { client } = await signUp(t.app);
        const own = await register(client, `/${language}/own`);
        const foreign = await register(client, `/${language}/foreign`);
        const receiver = await startReceiver(language, own.secret, dir);
        children.push(receiver.child);
        routes.set(`/${language}/own`, receiver.port);
        routes.set(`/${language}/foreign`, receiver.port);

        const good = await client.post(`/api/webhooks/${own.id}/test`);
        const delivered = await settledDelivery(client, own.id, good.json().id);
        expect(delivered).toMatchObject({ status: 'delivered', attempts: [{ statusCode: 200, error: null }] });
        await waitUntil(
          () => receiver.output().includes(`received webhook.test ${delivered.eventId}`),
          'the receiver to log the event',
        );
        // The page's envelope and headers are what the app sent.
        const sent = seen.find((r) => r.body.includes(delivered.eventId))!;
        const envelope = JSON.parse(sent.body);
        expect(Object.keys(envelope)).toEqual(Object.keys(ENVELOPE_EXAMPLE));
        for (const key of Object.keys(ENVELOPE_EXAMPLE) as (keyof typeof ENVELOPE_EXAMPLE)[])
          expect(typeof envelope[key]).toBe(typeof ENVELOPE_EXAMPLE[key]);
        expect(envelope.id).toMatch(/^evt_/);
        for (const header of WEBHOOK_HEADERS) expect(sent.headers).toHaveProperty(header.name.toLowerCase());
        expect(sent.headers['content-type']).toBe('application/json');
        expect(sent.headers['user-agent']).toBe('InboxPulse-Webhooks/1.0');
        expect(sent.headers['inboxpulse-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

        // Signed with the other endpoint's secret: refused at every attempt, never handled.
        const bad = await client.post(`/api/webhooks/${foreign.id}/test`);
        const failed = await settledDelivery(client, foreign.id, bad.json().id);
        expect(failed.status).toBe('failed');
        expect(failed.attempts.map((a) => a.statusCode)).toEqual(Array(WEBHOOK_MAX_ATTEMPTS).fill(401));
        expect(receiver.output()).not.toContain(failed.eventId);
      });
    }

    it('the openssl signing script of the Testing section makes a signature the Node receiver accepts', async () => {
      const secret = 'whsec_your_signing_secret';
      const receiver = await startReceiver('js', secret, dir);
      children.push(receiver.child);
      const script = SIGN_WITH_OPENSSL.replace('http://localhost:3000/', `http://127.0.0.1:${receiver.port}/`);
      execFileSync('bash', ['-c', `set -e; ${script.replace('curl ', 'curl -sf ')}`]);
      await waitUntil(
        () => receiver.output().includes('received webhook.test evt_local'),
        'the receiver to accept the signed test event',
      );
    });
  },
);

describe('the webhook documentation’s figures', () => {
  it('match the server: 5 attempts, waiting 30 s x 4^n between them', () => {
    const env = loadEnv({
      NODE_ENV: 'test',
      DATA_DIR: tmpdir(),
      APP_SECRET: 'test-secret-test-secret-test-secret-0123',
      APP_URL: 'http://localhost:3000',
    });
    expect(WEBHOOK_ATTEMPTS).toBe(WEBHOOK_MAX_ATTEMPTS);
    expect(WEBHOOK_RETRY_WAITS_SECONDS).toEqual(
      Array.from({ length: WEBHOOK_MAX_ATTEMPTS - 1 }, (_, n) => env.WEBHOOK_RETRY_SECONDS * 4 ** n),
    );
  });

  it('match the server: the pause after failed attempts in a row', () => {
    expect(WEBHOOK_PAUSE).toEqual({
      failuresInARow: WEBHOOK_BREAKER.threshold,
      firstPauseMinutes: WEBHOOK_BREAKER.pauseSeconds / 60,
      longestPauseMinutes: WEBHOOK_BREAKER.maxPauseSeconds / 60,
    });
  });

  it('shows the Node receiver block that receiver-example.test.ts runs', () => {
    const tested = /<!-- receiver-example[^>]*-->\s*```js\n([\s\S]*?)```/.exec(GUIDE)![1];
    expect(receiverExample(GUIDE, 'js')).toBe(tested);
  });
});
