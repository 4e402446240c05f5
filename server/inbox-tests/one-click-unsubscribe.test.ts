import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startLoopbackHttpsSite, type LoopbackHttpsSite } from '../test/loopback-https-site';
import { hasOpenssl } from '../test/self-signed-cert';
import { createOutboundGuard, type OutboundGuard } from '../platform/security/outbound-address';
import { oneClickTurnedOff, testOneClickUnsubscribe } from './one-click-unsubscribe';

/*
 * The sender's unsubscribe endpoint is a loopback HTTPS server with a certificate for its name; each path answers
 * as a kind of endpoint seen in the wild does: accepting, refusing, redirecting to a sign-in page, allowing GET only,
 * asking to confirm, or never answering.
 */

const HOST = 'unsubscribe.brand.test';
const ONE_CLICK = 'List-Unsubscribe=One-Click';

const ANSWERS: Record<string, (res: ServerResponse) => void> = {
  '/u/accept': (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('Unsubscribed'),
  '/u/accept-202': (res) => res.writeHead(202).end(),
  '/u/broken': (res) => res.writeHead(500).end('Internal Server Error'),
  '/u/gone': (res) => res.writeHead(404).end('Not Found'),
  '/u/to-login': (res) => res.writeHead(302, { location: '/account/login?next=%2Fu%2Fto-login' }).end(),
  '/u/to-page': (res) => res.writeHead(303, { location: '/unsubscribed' }).end(),
  '/unsubscribed': (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>You are unsubscribed.</p>'),
  '/u/get-only': (res) => res.writeHead(405, { allow: 'GET' }).end('Method Not Allowed'),
  '/u/confirm': (res) =>
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<form method="get" action="/u/confirmed"><button>Confirm unsubscribe</button></form>'),
  '/u/silent': () => undefined,
};

describe.skipIf(!hasOpenssl)('the live one-click unsubscribe test (needs openssl for the certificate)', () => {
  let site: LoopbackHttpsSite;
  let guard: OutboundGuard;
  let received: { method?: string; path?: string; headers: IncomingHttpHeaders; body: string }[] = [];

  beforeAll(async () => {
    site = await startLoopbackHttpsSite(
      HOST,
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          received.push({
            method: req.method,
            path: req.url,
            headers: req.headers,
            body: Buffer.concat(chunks).toString(),
          });
          const answer = ANSWERS[new URL(req.url ?? '/', 'https://x').pathname];
          if (answer) answer(res);
          else res.writeHead(404).end();
        });
      },
      { [HOST]: { A: ['127.0.0.1'] }, 'unsubscribe.inside.test': { A: ['10.1.2.3'] } },
    );
    guard = {
      resolve: site.outbound.resolve,
      fetch: (url, options) => site.outbound.fetch(url, { ...options, ca: site.ca }),
    };
  });
  afterAll(async () => {
    site?.server.closeAllConnections();
    await site?.close();
  });
  beforeEach(() => {
    received = [];
  });

  const link = (path: string) => `https://${HOST}:${site.port}${path}`;
  const oneClick = (path: string) => ({
    listUnsubscribe: `<mailto:unsubscribe@brand.test?subject=unsubscribe>, <${link(path)}>`,
    listUnsubscribePost: ONE_CLICK,
  });

  it('sends one POST with the RFC 8058 form body, no cookie and no authorization, and reports an accepting link', async () => {
    const result = await testOneClickUnsubscribe(guard, oneClick('/u/accept?token=s3cret'));
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request).toMatchObject({ method: 'POST', path: '/u/accept?token=s3cret', body: ONE_CLICK });
    expect(request!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request!.headers.cookie).toBeUndefined();
    expect(request!.headers.authorization).toBeUndefined();
    expect(result).toMatchObject({
      outcome: 'accepted',
      summary: 'Accepted: the link answered 200 to the POST.',
      rfcReason: null,
      status: 200,
      redirects: [],
      hasListUnsubscribe: true,
    });
    // The token in the query is not kept.
    expect(result.url).toBe(`https://${HOST}:${site.port}/u/accept?…`);
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(result.testedAt).not.toBeNull();
  });

  it('takes 202 as accepted too', async () => {
    expect(await testOneClickUnsubscribe(guard, oneClick('/u/accept-202'))).toMatchObject({
      outcome: 'accepted',
      status: 202,
    });
  });

  it.each([
    ['/u/broken', 500],
    ['/u/gone', 404],
  ])('reports %s answering %i as refused, with the RFC reason', async (path, status) => {
    expect(await testOneClickUnsubscribe(guard, oneClick(path))).toMatchObject({
      outcome: 'refused',
      status,
      summary: `Refused: the link answered ${status} to the POST, so nothing was unsubscribed.`,
      rfcReason: expect.stringMatching(/^RFC 8058 3\.1/),
    });
  });

  it('records a redirect to a sign-in page and says the link required a login, without following it', async () => {
    const result = await testOneClickUnsubscribe(guard, oneClick('/u/to-login'));
    expect(result).toMatchObject({
      outcome: 'requires_login',
      status: 302,
      redirects: [{ status: 302, location: `https://${HOST}:${site.port}/account/login?…` }],
      rfcReason: expect.stringContaining('no cookies, HTTP authorization or other context'),
    });
    expect(received.map((r) => r.path)).toEqual(['/u/to-login']);
  });

  it('follows another redirect as a browser would (303: a GET), records it, and reports it as forbidden by RFC 8058', async () => {
    const result = await testOneClickUnsubscribe(guard, oneClick('/u/to-page'));
    expect(received.map((r) => [r.method, r.path])).toEqual([
      ['POST', '/u/to-page'],
      ['GET', '/unsubscribed'],
    ]);
    expect(result).toMatchObject({
      outcome: 'redirected',
      status: 200,
      redirects: [{ status: 303, location: `https://${HOST}:${site.port}/unsubscribed` }],
      rfcReason: expect.stringContaining('MUST NOT return an HTTPS redirect'),
    });
  });

  it('reports a link that answers 405 as requiring a GET', async () => {
    expect(await testOneClickUnsubscribe(guard, oneClick('/u/get-only'))).toMatchObject({
      outcome: 'requires_get',
      status: 405,
      summary: 'Required a GET: the link answered 405 (method not allowed) to the POST.',
      rfcReason: expect.stringMatching(/^RFC 8058 3\.2/),
    });
  });

  it('reports a page asking to confirm as requiring a confirmation', async () => {
    expect(await testOneClickUnsubscribe(guard, oneClick('/u/confirm'))).toMatchObject({
      outcome: 'requires_confirmation',
      status: 200,
    });
  });

  it('gives up on a link that does not answer within the time allowed', async () => {
    expect(await testOneClickUnsubscribe(guard, oneClick('/u/silent'), 300)).toMatchObject({
      outcome: 'timed_out',
      status: null,
      summary: 'Timed out: the link gave no answer within 0.3 s.',
    });
  });

  it('with the production guard, sends nothing to a host that is not public and says so', async () => {
    const production = createOutboundGuard(site.resolver);
    for (const host of [`${HOST}:${site.port}`, 'unsubscribe.inside.test']) {
      const result = await testOneClickUnsubscribe(production, {
        listUnsubscribe: `<https://${host}/u/accept>`,
        listUnsubscribePost: ONE_CLICK,
      });
      expect(result).toMatchObject({
        outcome: 'blocked',
        summary: "Blocked: the link's host is not a public address, and InboxPulse sends no requests there.",
      });
    }
    expect(received).toEqual([]);
  });

  it('sends nothing when the message offers no one-click unsubscribe, and says whether List-Unsubscribe is there', async () => {
    expect(await testOneClickUnsubscribe(guard, { listUnsubscribe: null, listUnsubscribePost: null })).toMatchObject({
      outcome: 'not_offered',
      summary: 'Not offered: the message has no List-Unsubscribe header.',
      hasListUnsubscribe: false,
      url: null,
    });
    expect(
      await testOneClickUnsubscribe(guard, { listUnsubscribe: `<${link('/u/accept')}>`, listUnsubscribePost: null }),
    ).toMatchObject({ outcome: 'not_offered', hasListUnsubscribe: true });
    expect(received).toEqual([]);
  });

  it('never posts to an http: link, which RFC 8058 does not allow for one-click', async () => {
    const result = await testOneClickUnsubscribe(guard, {
      listUnsubscribe: `<http://${HOST}:${site.port}/u/accept>`,
      listUnsubscribePost: ONE_CLICK,
    });
    expect(result).toMatchObject({ outcome: 'not_https', rfcReason: expect.stringContaining('one HTTPS URI') });
    expect(received).toEqual([]);
  });

  it('says the test was turned off, sending nothing', () => {
    expect(oneClickTurnedOff(oneClick('/u/accept'))).toMatchObject({ outcome: 'turned_off', status: null });
  });
});
