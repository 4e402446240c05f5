import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A CSP that fits the built SPA: own scripts only, inline styles for UI libraries. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Radix and chart libraries position elements with inline style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join(';');

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
 * One hook before every request (each hook is a cost every request pays):
 * - echoes the request id, so a user's bug report can be matched to the log lines;
 * - adds the security headers (documents or API answers);
 * - refuses state-changing API requests sent from another site. Browsers send Origin (and
 *   Sec-Fetch-Site) on such requests; clients without them (scripts, API keys) are not browsers.
 */
export function registerRequestSecurity(app: FastifyInstance, appUrl: string): void {
  const allowed = new URL(appUrl).origin;
  app.addHook('onRequest', (request, reply, done) => {
    const api = request.url.startsWith('/api/');
    reply.header('x-request-id', request.id);
    reply.headers(api ? API_HEADERS : DOCUMENT_HEADERS);
    done(api && !SAFE_METHODS.has(request.method) && isCrossSite(request, allowed) ? new AppError('forbidden', 'Cross-site request refused') : undefined);
  });
}

function isCrossSite(request: FastifyRequest, allowed: string): boolean {
  if (request.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = request.headers.origin;
  return origin !== undefined && origin !== allowed && origin !== `${request.protocol}://${request.host}`;
}
