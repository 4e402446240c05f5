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
 * Helmet's defaults with our CSP, written out once: the same on every response, so nothing is
 * computed per request (@fastify/helmet rebuilt them, CSP parsing included, on every request: about
 * a tenth of a signed-in request's CPU). HSTS is left to the TLS-terminating proxy, which knows
 * whether HTTPS is in use.
 */
const SECURITY_HEADERS = {
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

export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(SECURITY_HEADERS);
  });
}

/**
 * Refuses state-changing API requests sent from another site. Browsers send Origin (and
 * Sec-Fetch-Site) on such requests; clients without them (scripts, API keys) are not browsers.
 */
export function registerOriginCheck(app: FastifyInstance, appUrl: string): void {
  const allowed = new URL(appUrl).origin;
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (SAFE_METHODS.has(request.method) || !request.url.startsWith('/api/')) return;
    const origin = request.headers.origin;
    const fetchSite = request.headers['sec-fetch-site'];
    if (fetchSite === 'cross-site') throw new AppError('forbidden', 'Cross-site request refused');
    if (!origin) return;
    const own = `${request.protocol}://${request.host}`;
    if (origin !== own && origin !== allowed) throw new AppError('forbidden', 'Cross-site request refused');
  });
}
