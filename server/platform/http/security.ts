import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Env, TrustProxy } from '../env';
import { AppError } from '../errors';
import { bearerTokenOf } from './api-key-auth';

/** The methods that only read (RFC 9110's safe methods this app answers): no Origin check, a quiet access line. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A CSP that fits the built SPA: own scripts only, inline styles for UI libraries. */
const CSP_DIRECTIVES = {
  'default-src': "'self'",
  'script-src': "'self'",
  // Radix and chart libraries position elements with inline style attributes.
  'style-src': "'self' 'unsafe-inline'",
  'img-src': "'self' data:",
  'font-src': "'self' data:",
  'connect-src': "'self'",
  'object-src': "'none'",
  'base-uri': "'self'",
  'form-action': "'self'",
  'frame-ancestors': "'none'",
};
const cspOf = (directives: Record<string, string>) =>
  Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join(';');
const CONTENT_SECURITY_POLICY = cspOf(CSP_DIRECTIVES);

/**
 * The checkout page's CSP in Stripe mode (ADR 033): Stripe.js from js.stripe.com, its card fields and
 * 3-D Secure frames (js.stripe.com, hooks.stripe.com), its calls to api.stripe.com. Opened on that
 * page alone, so no other page can load a script from Stripe.
 */
const CHECKOUT_CONTENT_SECURITY_POLICY = cspOf({
  ...CSP_DIRECTIVES,
  'script-src': "'self' https://js.stripe.com",
  'frame-src': 'https://js.stripe.com https://hooks.stripe.com',
  'connect-src': "'self' https://api.stripe.com",
});
const CHECKOUT_PATH = '/checkout';

/**
 * Helmet's defaults with our CSP, for the pages and files of the front end. Written out once and the
 * same on every response: nothing is computed per request (@fastify/helmet rebuilt them, CSP parsing
 * included, on every request). HSTS is left to the TLS-terminating proxy, which knows whether HTTPS
 * is in use.
 */
const DOCUMENT_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

/**
 * API answers are JSON, never rendered: they need no script or style policy, only to be nothing a
 * browser would run, frame or keep (the OWASP REST set), in a third of the header bytes every
 * signed-in request pays for.
 */
const API_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

/**
 * Fastify's trustProxy for TRUST_PROXY: nothing, the last `n` hops (the proxies we run append the
 * address they were called from; whatever came before is the client's to write), or the proxies'
 * addresses. A number becomes the function Fastify would build from it (its types take no number).
 */
export function proxyTrust(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

/** Names that reach only this machine: no page elsewhere can make a browser send them (no DNS rebinding). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1']);

/** The name of a Host header: lower case, without port or IPv6 brackets. */
export function hostName(host: string): string {
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.split(':', 1)[0];
  return name.toLowerCase().replace(/\.$/, '');
}

type SecurityEnv = Pick<Env, 'APP_URL' | 'ALLOWED_HOSTS' | 'NODE_ENV' | 'STRIPE_SECRET_KEY'>;

/** /checkout, with or without a query: the page that loads Stripe.js. */
function isCheckoutPage(url: string): boolean {
  return (
    url.startsWith(CHECKOUT_PATH) &&
    (url.length === CHECKOUT_PATH.length || url[CHECKOUT_PATH.length] === '?' || url[CHECKOUT_PATH.length] === '/')
  );
}

/**
 * One hook before every request (each hook is a cost every request pays):
 * - echoes the request id, so a user's bug report can be matched to the log lines;
 * - adds the security headers (documents or API answers; in Stripe mode, /checkout's opens Stripe's origins);
 * - outside tests, answers 421 to a Host that is neither APP_URL's, one of ALLOWED_HOSTS nor this
 *   machine's loopback name: a DNS-rebinding page (its own name pointed at this server) gets nothing;
 * - refuses state-changing API requests sent from another site: the Origin must be APP_URL's. Browsers
 *   send Origin (and Sec-Fetch-Site) on such requests; clients without them (scripts, API keys) are
 *   not browsers.
 */
export function registerRequestSecurity(app: FastifyInstance, env: SecurityEnv): void {
  const allowed = browserOrigins(env.APP_URL);
  const hosts = new Set([hostName(new URL(env.APP_URL).host), ...env.ALLOWED_HOSTS, ...LOOPBACK_HOSTS]);
  const checkHost = env.NODE_ENV !== 'test';
  const checkoutHeaders = env.STRIPE_SECRET_KEY
    ? { ...DOCUMENT_HEADERS, 'content-security-policy': CHECKOUT_CONTENT_SECURITY_POLICY }
    : DOCUMENT_HEADERS;
  // Nearly every request carries the Host header of the one before: its verdict is kept.
  let lastHost = '';
  let lastHostAllowed = false;
  const hostAllowed = (host: string) => {
    if (host !== lastHost) {
      lastHostAllowed = hosts.has(hostName(host));
      lastHost = host;
    }
    return lastHostAllowed;
  };
  app.addHook('onRequest', (request, reply, done) => {
    const api = request.url.startsWith('/api/');
    reply.header('x-request-id', request.id);
    reply.headers(api ? API_HEADERS : isCheckoutPage(request.url) ? checkoutHeaders : DOCUMENT_HEADERS);
    if (checkHost && !hostAllowed(request.host)) {
      // 421 Misdirected Request: this server does not answer for that name. Said once, here; no done().
      reply.code(421).send({
        code: 'forbidden',
        message: `This server does not answer for the host name "${hostName(request.host).slice(0, 100)}"`,
      });
      return;
    }
    done(
      api && !SAFE_METHODS.has(request.method) && isCrossSite(request, allowed)
        ? new AppError('forbidden', 'Cross-site request refused')
        : undefined,
    );
  });
}

/**
 * The origins of this app's pages: APP_URL's, and when that is a loopback address (the quick start's
 * http://localhost:3000), the same port under this machine's other loopback names: no other site's
 * page can have those.
 */
function browserOrigins(appUrl: string): Set<string> {
  const url = new URL(appUrl);
  const origins = new Set([url.origin]);
  if (LOOPBACK_HOSTS.has(hostName(url.host))) {
    for (const name of ['localhost', '127.0.0.1', '[::1]'])
      origins.add(`${url.protocol}//${name}${url.port ? `:${url.port}` : ''}`);
  }
  return origins;
}

/**
 * Another site's page: Sec-Fetch-Site says so, or its Origin is not APP_URL's (the request's own Host
 * proves nothing). A bearer request is not checked: its credential is the header it carries, which
 * no page can make a browser send to another site, not a cookie the browser adds by itself (and a
 * bearer request's cookies are never read: session.ts requireUser).
 */
function isCrossSite(request: FastifyRequest, allowed: Set<string>): boolean {
  if (bearerTokenOf(request) !== undefined) return false;
  if (request.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = request.headers.origin;
  return origin !== undefined && !allowed.has(origin);
}
