import type { InboxTestReport, OneClickUnsubscribeResult } from '@contracts/inbox-tests';
import { OutboundRequestError, type OutboundGuard, type OutboundResponse } from '../platform/security/outbound-address';

/*
 * The live one-click unsubscribe test: InboxPulse does what Gmail does when a user clicks "Unsubscribe" next to the
 * sender's name (RFC 8058 3.2): one POST to the https link of List-Unsubscribe with the body
 * "List-Unsubscribe=One-Click", no cookies and no HTTP authorization. The link is the one in the test message, so the
 * address it unsubscribes is the test's own. Redirects are not followed as a browser would: each is recorded, and at
 * most MAX_REDIRECTS are followed, each through the outbound guard, only to tell where they lead (a sign-in page;
 * ADR 058).
 */

/** The whole test, every hop included: a mailbox provider does not wait longer either. */
export const ONE_CLICK_TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 3;
/** Enough of an answer to tell a sign-in or confirmation page. */
const MAX_BODY_BYTES = 64 * 1024;
const ONE_CLICK_BODY = 'List-Unsubscribe=One-Click';

const RFC = {
  offer:
    'RFC 8058 3.1: a sender offering one-click unsubscribe puts an https link in List-Unsubscribe and "List-Unsubscribe-Post: List-Unsubscribe=One-Click" beside it.',
  https:
    'RFC 8058 3.1: the List-Unsubscribe header field must contain one HTTPS URI; an http: link is never posted to.',
  post: 'RFC 8058 3.1: the link must unsubscribe the recipient it names when it receives the POST "List-Unsubscribe=One-Click".',
  get: 'RFC 8058 3.2: mailbox providers unsubscribe with a POST, never a GET (a GET is what link scanners send); the link must accept the POST.',
  confirm:
    'RFC 8058 3.1: the POST alone must unsubscribe; a page asking to confirm is a second step no mailbox provider takes.',
  login:
    'RFC 8058 3.1 and 3.2: the link itself must identify the recipient, since the POST carries no cookies, HTTP authorization or other context; a login can never succeed.',
  redirect:
    'RFC 8058 3.1: "The mail sender MUST NOT return an HTTPS redirect, since redirected POST actions have historically not worked reliably, and many browsers have turned redirected HTTP POSTs into GETs."',
} as const;

type Content = Pick<InboxTestReport['content'], 'listUnsubscribe' | 'listUnsubscribePost'>;
type Redirect = OneClickUnsubscribeResult['redirects'][number];

/** The result when the user turned the test off for this inbox test. */
export function oneClickTurnedOff(content: Content): OneClickUnsubscribeResult {
  return notSent(
    content,
    'turned_off',
    'Not tested: the one-click unsubscribe test was turned off for this test.',
    null,
  );
}

/** Sends the RFC 8058 POST when the message offers one-click unsubscribe, and says what the link did. */
export async function testOneClickUnsubscribe(
  guard: OutboundGuard,
  content: Content,
  timeoutMs = ONE_CLICK_TIMEOUT_MS,
): Promise<OneClickUnsubscribeResult> {
  const uris = [...(content.listUnsubscribe ?? '').matchAll(/<([^>]*)>/g)].map((m) => m[1]!.trim());
  const link = uris.find((uri) => /^https:/i.test(uri));
  if (content.listUnsubscribePost?.trim().toLowerCase() !== ONE_CLICK_BODY.toLowerCase())
    return notSent(
      content,
      'not_offered',
      content.listUnsubscribe === null
        ? 'Not offered: the message has no List-Unsubscribe header.'
        : 'Not offered: the message has List-Unsubscribe but no "List-Unsubscribe-Post: List-Unsubscribe=One-Click", so no one-click unsubscribe is shown.',
      RFC.offer,
    );
  if (link === undefined) {
    const http = uris.some((uri) => /^http:/i.test(uri));
    return http
      ? notSent(
          content,
          'not_https',
          'Not one-click: the List-Unsubscribe link is http:, and one-click needs https:.',
          RFC.https,
        )
      : notSent(content, 'not_offered', 'Not offered: List-Unsubscribe has no https link to post to.', RFC.offer);
  }
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return notSent(
      content,
      'not_offered',
      'Not offered: the https link in List-Unsubscribe is not a valid URL.',
      RFC.offer,
    );
  }
  return post(guard, url, timeoutMs);
}

async function post(guard: OutboundGuard, first: URL, timeoutMs: number) {
  const startedAt = Date.now();
  const base = { url: withoutQuery(first), hasListUnsubscribe: true, testedAt: new Date(startedAt).toISOString() };
  const redirects: Redirect[] = [];
  const result = (outcome: Outcome, summary: string, rfcReason: string | null, status: number | null) => ({
    ...base,
    outcome,
    summary,
    rfcReason,
    status,
    durationMs: Date.now() - startedAt,
    redirects,
  });
  let url = first;
  let method = 'POST';
  for (;;) {
    const remaining = timeoutMs - (Date.now() - startedAt);
    let answer: OutboundResponse;
    try {
      if (remaining <= 0) throw new OutboundRequestError('timeout', 'no time left for the next redirect');
      answer = await guard.fetch(url, {
        method,
        // No cookie, no Authorization, nothing that links the request to anyone (RFC 8058 3.2).
        headers:
          method === 'POST'
            ? {
                'content-type': 'application/x-www-form-urlencoded',
                'content-length': String(ONE_CLICK_BODY.length),
                'user-agent': 'InboxPulse one-click unsubscribe test (RFC 8058)',
              }
            : { 'user-agent': 'InboxPulse one-click unsubscribe test (RFC 8058)' },
        body: method === 'POST' ? ONE_CLICK_BODY : undefined,
        timeoutMs: remaining,
        maxBytes: MAX_BODY_BYTES,
      });
    } catch (err) {
      if (!(err instanceof OutboundRequestError)) throw err;
      // The guard's own message names addresses and ports: for logs, never for the page.
      const [outcome, summary] = unanswered(err, timeoutMs);
      return result(outcome, summary, null, null);
    }
    const { status } = answer;
    const location = typeof answer.headers.location === 'string' ? answer.headers.location : undefined;
    if (status >= 300 && status < 400 && location !== undefined) {
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        return result('redirected', `Redirected to an invalid address (${status}).`, RFC.redirect, status);
      }
      redirects.push({ status, location: withoutQuery(next) });
      if (looksLikeSignIn(next))
        return result(
          'requires_login',
          `Required a login: the link redirected the POST to a sign-in page (${status}).`,
          RFC.login,
          status,
        );
      if (redirects.length > MAX_REDIRECTS || !/^https?:$/.test(next.protocol))
        return result(
          'redirected',
          `Redirected: the link answered the POST with ${redirects.length} redirects; not followed further.`,
          RFC.redirect,
          status,
        );
      // As browsers do: 307 and 308 repeat the POST, the others turn it into a GET.
      if (status !== 307 && status !== 308) method = 'GET';
      url = next;
      continue;
    }
    const [outcome, summary, rfcReason] = verdict(answer, redirects.length > 0);
    return result(outcome, summary, rfcReason, status);
  }
}

type Outcome = OneClickUnsubscribeResult['outcome'];

function verdict(answer: OutboundResponse, redirected: boolean): [Outcome, string, string | null] {
  const { status } = answer;
  const html = answer.body.toString('utf8');
  if (status === 401 || status === 403)
    return ['requires_login', `Required a login: the link answered ${status} to the POST.`, RFC.login];
  if (status === 405)
    return ['requires_get', 'Required a GET: the link answered 405 (method not allowed) to the POST.', RFC.get];
  if (status < 200 || status >= 300)
    return ['refused', `Refused: the link answered ${status} to the POST, so nothing was unsubscribed.`, RFC.post];
  if (/<input[^>]*type\s*=\s*["']?password/i.test(html))
    return ['requires_login', `Required a login: the link answered ${status} with a sign-in page.`, RFC.login];
  if (redirected)
    return [
      'redirected',
      `Redirected: the link answered the POST with a redirect; the page it led to answered ${status}.`,
      RFC.redirect,
    ];
  if (/<form[\s>]/i.test(html) && /confirm/i.test(html))
    return [
      'requires_confirmation',
      `Required a confirmation: the link answered ${status} with a page asking to confirm the unsubscribe.`,
      RFC.confirm,
    ];
  return ['accepted', `Accepted: the link answered ${status} to the POST.`, null];
}

function unanswered(err: OutboundRequestError, timeoutMs: number): [Outcome, string] {
  switch (err.reason) {
    case 'timeout':
      return ['timed_out', `Timed out: the link gave no answer within ${timeoutMs / 1000} s.`];
    case 'not_public':
      return ['blocked', "Blocked: the link's host is not a public address, and InboxPulse sends no requests there."];
    case 'dns':
    case 'no_address':
      return ['unreachable', "Unreachable: the link's host name has no address."];
    case 'connection':
      return ['unreachable', "Unreachable: the connection to the link's host failed."];
  }
}

/** Paths and hosts of sign-in pages, which a one-click link must never lead to. */
function looksLikeSignIn(url: URL): boolean {
  return /(^|[./_-])(log-?in|sign-?in|sso|oauth2?|auth|authorize)([./_-]|$)/i.test(`${url.hostname}${url.pathname}`);
}

/** The query of an unsubscribe link usually holds the recipient's token: it is not stored. */
function withoutQuery(url: URL): string {
  return `${url.origin}${url.pathname}${url.search ? '?…' : ''}`;
}

function notSent(
  content: Content,
  outcome: Outcome,
  summary: string,
  rfcReason: string | null,
): OneClickUnsubscribeResult {
  return {
    outcome,
    summary,
    rfcReason,
    url: null,
    status: null,
    durationMs: null,
    redirects: [],
    hasListUnsubscribe: content.listUnsubscribe !== null,
    testedAt: null,
  };
}
