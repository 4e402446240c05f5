import { readFileSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createResolver } from '../../platform/dns/resolver';
import type { OutboundGuard } from '../../platform/security/outbound-address';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server';
import { hasOpenssl, makeSelfSignedCert } from '../../test/self-signed-cert';
import { appOutboundGuard } from '../../platform/security/app-outbound-guard';
import { postSlackAlert, SlackError, type SlackAlert } from './slack';

const HOST = 'hooks.slack.test';
const ALERT: SlackAlert = {
  id: 42,
  severity: 'critical',
  title: 'example.com listed on Spamhaus DBL',
  message: 'example.com appears on <Spamhaus DBL> & 1 other list.',
  domain: 'example.com',
  createdAt: '2026-11-26T10:00:00.000Z',
};

describe.skipIf(!hasOpenssl)('Slack alerts (needs openssl to make a test certificate)', () => {
  let slack: Server;
  let dns: TestDnsServer;
  let guard: OutboundGuard;
  let made: ReturnType<typeof makeSelfSignedCert>;
  let port = 0;
  /** What the loopback Slack answers: status and text, as Slack's incoming webhooks do. */
  let answer: { status: number; text: string } | 'silent' = { status: 200, text: 'ok' };
  let received: { method?: string; path?: string; headers: IncomingHttpHeaders; body: string }[] = [];

  beforeAll(async () => {
    made = makeSelfSignedCert(HOST);
    slack = createServer({ key: readFileSync(made.key), cert: readFileSync(made.cert) }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          method: req.method,
          path: req.url,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        if (answer === 'silent') return;
        res.writeHead(answer.status, { 'content-type': 'text/html' }).end(answer.text);
      });
    });
    await new Promise<void>((resolve) => slack.listen(0, '127.0.0.2', resolve));
    port = (slack.address() as AddressInfo).port;
    dns = await startDnsServer({ [HOST]: { A: ['127.0.0.2'] }, 'inside.slack.test': { A: ['192.168.1.20'] } });
    const resolver = createResolver({ servers: [dns.address], timeoutMs: 1000, tries: 1, maxCacheSeconds: 0 });
    guard = appOutboundGuard({ OUTBOUND_ALLOW_ADDRESSES: ['127.0.0.2'], OUTBOUND_CA_FILE: made.cert }, resolver);
  });
  afterAll(async () => {
    slack?.closeAllConnections();
    slack?.close();
    await dns?.close();
    if (made) rmSync(made.dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    received = [];
    answer = { status: 200, text: 'ok' };
  });

  const hookUrl = () => `https://${HOST}:${port}/services/T000/B000/XXXX`;

  it('posts a Block Kit message with the severity, title, message, domain, time and a link to the alert', async () => {
    await postSlackAlert(guard, hookUrl(), ALERT, 'https://app.inboxpulse.test/');
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request).toMatchObject({ method: 'POST', path: '/services/T000/B000/XXXX' });
    expect(request!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(request!.body)).toEqual({
      text: 'Critical: example.com listed on Spamhaus DBL',
      blocks: [
        {
          type: 'header',
          text: {
            type: 'plain_text',
            text: ':rotating_light: Critical: example.com listed on Spamhaus DBL',
            emoji: true,
          },
        },
        {
          type: 'section',
          text: { type: 'mrkdwn', text: 'example.com appears on &lt;Spamhaus DBL&gt; &amp; 1 other list.' },
        },
        {
          type: 'context',
          elements: [
            { type: 'mrkdwn', text: 'Domain: *example.com*' },
            { type: 'mrkdwn', text: '<!date^1795687200^{date_short_pretty} at {time}|2026-11-26T10:00:00.000Z>' },
          ],
        },
        {
          type: 'actions',
          elements: [
            {
              type: 'button',
              text: { type: 'plain_text', text: 'View alert' },
              url: 'https://app.inboxpulse.test/alerts?alertId=42',
            },
          ],
        },
      ],
    });
  });

  it('leaves the domain out when the alert has none and cuts a long title to the header limit', async () => {
    await postSlackAlert(
      guard,
      hookUrl(),
      { ...ALERT, domain: null, severity: 'warning', title: 'x'.repeat(400) },
      'https://app.inboxpulse.test',
    );
    const message = JSON.parse(received[0]!.body);
    expect(Array.from(message.blocks[0].text.text as string)).toHaveLength(150);
    expect(message.blocks[0].text.text).toMatch(/^:warning: Warning: x+…$/);
    expect(message.blocks[2].elements).toHaveLength(1);
  });

  it.each([
    [400, 'invalid_payload', /malformed \(invalid_payload\)/, false],
    [404, 'no_service', /removed or disabled \(no_service\)/, true],
    [404, 'channel_not_found', /no longer exists \(channel_not_found\)/, true],
    [500, 'internal trouble', /^Slack answered HTTP 500: internal trouble$/, false],
  ])('turns Slack’s %i "%s" into a clear error', async (status, text, message, permanent) => {
    answer = { status, text };
    const error = await postSlackAlert(guard, hookUrl(), ALERT, 'https://app.inboxpulse.test').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SlackError);
    expect((error as SlackError).message).toMatch(message);
    expect((error as SlackError).permanent).toBe(permanent);
  });

  it('refuses plain http, private addresses and a Slack that does not answer in time', async () => {
    await expect(postSlackAlert(guard, `http://${HOST}:${port}/services/x`, ALERT, 'https://a.test')).rejects.toThrow(
      'must be an https:// URL',
    );
    await expect(
      postSlackAlert(guard, 'https://inside.slack.test/services/x', ALERT, 'https://a.test'),
    ).rejects.toThrow('points to a private address');
    await expect(postSlackAlert(guard, 'https://127.0.0.1/services/x', ALERT, 'https://a.test')).rejects.toThrow(
      'points to a private address',
    );
    expect(received).toEqual([]);
    answer = 'silent';
    const started = Date.now();
    await expect(postSlackAlert(guard, hookUrl(), ALERT, 'https://a.test', { timeoutMs: 300 })).rejects.toThrow(
      'did not answer in time',
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
