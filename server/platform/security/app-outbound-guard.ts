import { readFileSync } from 'node:fs';
import type { DnsResolver } from '../dns/resolver';
import type { Env } from '../env';
import { createOutboundGuard, OutboundRequestError, type OutboundGuard } from './outbound-address';

/**
 * The guard for requests to URLs users give (webhooks, Slack). Production: public addresses only,
 * the system's CAs. Tests (env.ts allows the two variables only there) let their loopback receivers
 * through and trust the CA of their self-signed certificates.
 */
export function appOutboundGuard(
  env: Pick<Env, 'OUTBOUND_ALLOW_ADDRESSES' | 'OUTBOUND_CA_FILE'>,
  dns: Pick<DnsResolver, 'a' | 'aaaa'>,
): OutboundGuard {
  const allowed = new Set(env.OUTBOUND_ALLOW_ADDRESSES);
  const guard = createOutboundGuard(dns, allowed.size > 0 ? { allowNonPublic: (address) => allowed.has(address) } : {});
  if (!env.OUTBOUND_CA_FILE) return guard;
  const ca = readFileSync(env.OUTBOUND_CA_FILE);
  return { resolve: guard.resolve, fetch: (url, options) => guard.fetch(url, { ca, ...options }) };
}

/**
 * Checks on save that a user-given URL's host resolves to allowed addresses only, as the senders check again before
 * every request: the guard's refusal (why, and which address; for logs, not for the caller), or null when it may be
 * saved.
 */
export async function refusedHost(
  env: Pick<Env, 'OUTBOUND_ALLOW_ADDRESSES' | 'OUTBOUND_CA_FILE'>,
  dns: Pick<DnsResolver, 'a' | 'aaaa'>,
  url: URL,
): Promise<OutboundRequestError | null> {
  try {
    await appOutboundGuard(env, dns).resolve(url.hostname.replace(/^\[(.*)\]$/, '$1'));
    return null;
  } catch (err) {
    if (err instanceof OutboundRequestError) return err;
    throw err;
  }
}
