import { getDomain } from 'tldts';
import type { Executor } from '../platform/db/client';
import type { DnsResolver } from '../platform/dns/resolver';
import { servicesByNetwork } from './sending-service-networks.repo';

export interface SourceName {
  reverseDns: string | null;
  organisation: string | null;
  /** The sending service whose published networks hold the IP (refresh-sending-service-networks). */
  publishedBy?: string;
}

const NO_NAME: SourceName = { reverseDns: null, organisation: null };

export interface NameOptions {
  /** Lookups in flight at once: a report can name thousands of IPs. */
  concurrency?: number;
  /** The analytics answer waits this long at most; IPs not resolved by then stay unnamed. */
  deadlineMs?: number;
}

/**
 * PTR names of source IPs, and the organisation each belongs to (registrable domain of the
 * name: mail-wr1-f54.google.com -> google.com). A failed or slow lookup is just no name.
 */
export async function nameSources(
  dns: DnsResolver,
  ips: string[],
  options: NameOptions = {},
): Promise<Map<string, SourceName>> {
  const names = new Map<string, SourceName>();
  const queue = [...new Set(ips)];
  const deadline = Date.now() + (options.deadlineMs ?? 2500);
  const worker = async () => {
    for (let ip = queue.shift(); ip !== undefined; ip = queue.shift()) {
      if (Date.now() >= deadline) return;
      const ptr = await withDeadline(
        dns.reverse(ip).then((r) => r[0] ?? null),
        deadline,
      ).catch(() => null);
      names.set(ip, ptr ? { reverseDns: ptr.replace(/\.$/, '').toLowerCase(), organisation: getDomain(ptr) } : NO_NAME);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 16, queue.length) }, worker));
  return names;
}

function withDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Marks each IP inside a network a sending service publishes with that service: one query for all of a report's
 * IPs, PTR name or not, so thousands of bare IPs are named without a lookup each.
 */
export async function addPublishedNetworks(db: Executor, names: Map<string, SourceName>, ips: string[]): Promise<void> {
  for (const [ip, service] of await servicesByNetwork(db, ips))
    names.set(ip, { ...(names.get(ip) ?? NO_NAME), publishedBy: service });
}
