import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../test/wait-until';
import { signWebhook } from './webhook-signature';

/** The Node receiver docs/webhooks.md gives its readers, run as they would run it. */
function receiverExample(): string {
  const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/webhooks.md'), 'utf8');
  const match = /<!-- receiver-example[^>]*-->\s*```js\n([\s\S]*?)```/.exec(doc);
  if (!match) throw new Error('docs/webhooks.md has no receiver-example block');
  return match[1]!;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('the receiver example in docs/webhooks.md', () => {
  const secret = 'whsec_docs-example-secret';
  const body = JSON.stringify({
    id: 'evt_docs',
    type: 'webhook.test',
    created: 1764151200,
    data: { message: 'hello' },
  });
  let dir: string;
  let child: ChildProcess;
  let port = 0;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'inboxpulse-receiver-'));
    writeFileSync(path.join(dir, 'receiver.mjs'), receiverExample());
    port = await freePort();
    child = spawn(process.execPath, [path.join(dir, 'receiver.mjs')], {
      env: { PATH: process.env.PATH, INBOXPULSE_WEBHOOK_SECRET: secret, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await waitUntil(
      () =>
        fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '' }).then(
          () => true,
          () => false,
        ),
      'the example receiver to listen',
    );
  });
  afterAll(() => {
    child?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const post = (signature: string, payload = body) =>
    fetch(`http://127.0.0.1:${port}/hook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'InboxPulse-Signature': signature },
      body: payload,
    });

  it('accepts what signWebhook signs and refuses a foreign, altered or stale signature', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect((await post(signWebhook(secret, body, now))).status).toBe(200);
    expect((await post(signWebhook('whsec_someone-else', body, now))).status).toBe(401);
    expect((await post(signWebhook(secret, body, now), body.replace('hello', 'hullo'))).status).toBe(401);
    expect((await post(signWebhook(secret, body, now - 301))).status).toBe(401);
    expect((await post('t=abc')).status).toBe(401);
  });
});
