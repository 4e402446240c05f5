import type { DnsResolver } from '../../platform/dns/resolver';
import {
  createOutboundGuard,
  OutboundRequestError,
  type OutboundGuard,
} from '../../platform/security/outbound-address';

/** How the checks fetch what a record names; tests point them at a loopback HTTPS server with its own CA. */
export interface FetchOptions {
  /** The guard every fetch goes through; tests inject one that lets their loopback server through. */
  outbound?: OutboundGuard;
  port?: number;
  ca?: string | Buffer;
  timeoutMs?: number;
}

export type Fetched =
  | { body: Buffer; mediaType: string | null }
  /** `problem` completes "The <thing> ...": e.g. "could not be fetched: HTTP 404". */
  | { problem: string; tooLarge: boolean };

/**
 * GET an https: URL a DNS record names (an MTA-STS policy, a BIMI logo or certificate) through the
 * outbound guard: the host is resolved with the product's resolver and refused unless every address
 * is public, the certificate is checked against the name, redirects are not followed, the body is
 * capped at `maxBytes`, and the whole exchange has a time limit.
 */
export async function fetchUrl(
  dns: DnsResolver,
  url: string,
  maxBytes: number,
  userAgent: string,
  options: FetchOptions = {},
): Promise<Fetched> {
  const outbound = options.outbound ?? createOutboundGuard(dns);
  let res;
  try {
    res = await outbound.fetch(url, {
      headers: { 'user-agent': userAgent },
      timeoutMs: options.timeoutMs ?? 5000,
      maxBytes,
      ca: options.ca,
      port: options.port,
    });
  } catch (err) {
    if (!(err instanceof OutboundRequestError)) throw err;
    // A connection that failed (refused, reset, timeout, TLS, an address that is not public) gets one
    // text whatever the cause: telling them apart would make this check a port scanner.
    return { problem: `could not be fetched from ${new URL(url).hostname}`, tooLarge: false };
  }
  // The host is public and answered, so what it answered tells nothing about our network: said as it is.
  const location = res.headers.location;
  if (res.status >= 300 && res.status < 400 && location)
    return {
      problem: `could not be fetched: HTTP ${res.status}, a redirect to ${location}, which is not followed`,
      tooLarge: false,
    };
  if (res.status !== 200) return { problem: `could not be fetched: HTTP ${res.status}`, tooLarge: false };
  if (res.truncated)
    return { problem: `could not be fetched: it is larger than ${maxBytes / 1024} KB`, tooLarge: true };
  const mediaType = res.headers['content-type']?.split(';')[0].trim().toLowerCase() || null;
  return { body: res.body, mediaType };
}
