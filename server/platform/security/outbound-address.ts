import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { isPublicUnicast } from '../dns/ip-address';
import type { DnsResolver } from '../dns/resolver';

/*
 * Every outbound request to a host a user gave us (the MTA-STS check now; reputation lookups,
 * integrations and webhooks next) goes through one guard: the name is resolved with the product's
 * resolver, refused unless EVERY address is public unicast, and the connection goes to the checked
 * address itself, so nothing resolves the name again in between (no DNS rebinding). TLS keeps the
 * name for SNI and the certificate check.
 */

/**
 * Why a request got no HTTP answer. The message says exactly what happened, for logs only: shown to
 * a user it would tell which ports of which hosts are open. Callers show one neutral text instead.
 */
export class OutboundRequestError extends Error {
  constructor(
    readonly reason: 'dns' | 'no_address' | 'not_public' | 'connection' | 'timeout',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'OutboundRequestError';
  }
}

export interface OutboundGuardOptions {
  /** Tests only: addresses to accept although they are not public (a loopback test server). Production passes nothing. */
  allowNonPublic?: (address: string) => boolean;
}

export interface OutboundFetchOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The whole exchange, connection to last byte; past it the request is abandoned (reason 'timeout'). */
  timeoutMs: number;
  /** The body is read up to this many bytes; a longer one is cut there (`truncated`) and the connection closed. */
  maxBytes: number;
  /** Trusted CAs instead of the system's (tests). */
  ca?: string | Buffer;
  /** A port other than the URL's (tests): the Host header still names the URL's. */
  port?: number;
}

/** An HTTP answer: the host is public and answered, whatever the status. */
export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
}

export interface OutboundGuard {
  /** The address to connect to for `host` (an IP literal is checked as it is); throws OutboundRequestError unless every address is public. */
  resolve(host: string): Promise<{ address: string; family: 4 | 6 }>;
  /** One http(s) request to a checked address, bounded in time and size. No redirects are followed. */
  fetch(url: string | URL, options: OutboundFetchOptions): Promise<OutboundResponse>;
}

export function createOutboundGuard(
  dns: Pick<DnsResolver, 'a' | 'aaaa'>,
  options: OutboundGuardOptions = {},
): OutboundGuard {
  const allowed = (address: string) => isPublicUnicast(address) || (options.allowNonPublic?.(address) ?? false);

  async function resolve(host: string) {
    let addresses = [host];
    if (!isIP(host)) {
      try {
        addresses = (await Promise.all([dns.a(host), dns.aaaa(host)])).flat();
      } catch (err) {
        throw new OutboundRequestError('dns', `${host}: ${(err as Error).message}`, { cause: err });
      }
    }
    if (addresses.length === 0) throw new OutboundRequestError('no_address', `${host} has no address`);
    const refused = addresses.find((address) => !allowed(address));
    if (refused !== undefined)
      throw new OutboundRequestError('not_public', `${host} resolves to ${refused}, which is not a public address`);
    return { address: addresses[0], family: isIP(addresses[0]) as 4 | 6 };
  }

  async function fetch(url: string | URL, options: OutboundFetchOptions): Promise<OutboundResponse> {
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    if (!secure && target.protocol !== 'http:')
      throw new TypeError(`Only http and https URLs can be fetched, not ${target.protocol}`);
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    const { address, family } = await resolve(host);
    return new Promise((resolvePromise, reject) => {
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outcome();
      };
      const fail = (reason: 'connection' | 'timeout', err: Error) =>
        settle(() => {
          req.destroy();
          reject(new OutboundRequestError(reason, `${target.origin} (${address}): ${err.message}`, { cause: err }));
        });
      const req = (secure ? httpsRequest : httpRequest)(
        {
          method: options.method ?? 'GET',
          // The checked address, never the name: nothing resolves it again.
          host: address,
          family,
          port: options.port ?? (target.port || (secure ? 443 : 80)),
          path: `${target.pathname}${target.search}`,
          // The name for SNI and the certificate check ('' for an IP literal: the certificate is checked against the
          // address).
          servername: isIP(host) ? '' : host,
          headers: { host: target.host, ...options.headers },
          ca: options.ca,
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const answer = (truncated: boolean) =>
            settle(() => {
              if (truncated) req.destroy();
              resolvePromise({
                status: res.statusCode ?? 0,
                headers: res.headers,
                body: Buffer.concat(chunks),
                truncated,
              });
            });
          res.on('data', (chunk: Buffer) => {
            if (settled) return;
            chunks.push(chunk.subarray(0, options.maxBytes - size));
            size += chunk.length;
            if (size > options.maxBytes) answer(true);
          });
          res.on('end', () => answer(false));
          res.on('error', (err) => fail('connection', err));
        },
      );
      const timer = setTimeout(
        () => fail('timeout', new Error(`no answer within ${options.timeoutMs} ms`)),
        options.timeoutMs,
      );
      req.on('error', (err) => fail('connection', err));
      req.end(options.body);
    });
  }

  return { resolve, fetch };
}
