import { Resolver } from 'node:dns/promises';
import { parseIp, reversedIp } from './ip-address';

/** A lookup that could not be answered (timeout, SERVFAIL, refused): unknown, not absent. */
export class DnsLookupError extends Error {
  constructor(
    /** The name asked for (not `name`: that is the error's class name, which Error keeps there). */
    readonly query: string,
    readonly rrtype: string,
    readonly code: string,
  ) {
    super(`DNS lookup of ${rrtype} ${query} failed (${code})`);
    this.name = 'DnsLookupError';
  }
}

export interface MxRecord {
  exchange: string;
  priority: number;
}

/**
 * The one DNS resolver every lookup in the product goes through. Absent answers (NXDOMAIN,
 * NODATA) come back as empty lists; anything else that fails throws DnsLookupError.
 */
export interface DnsResolver {
  /** TXT records, each record's strings joined (DKIM keys longer than 255 are split). */
  txt(name: string): Promise<string[]>;
  mx(name: string): Promise<MxRecord[]>;
  a(name: string): Promise<string[]>;
  aaaa(name: string): Promise<string[]>;
  reverse(ip: string): Promise<string[]>;
  /**
   * Whether a name exists in the DNS (RFC 8020, as DMARC's np= tag needs it: RFC 9989 3.2.13 and
   * A.4): false only for NXDOMAIN; a name that has records of some other type answers NODATA and exists.
   */
  exists(name: string): Promise<boolean>;
  clearCache(): void;
  /**
   * The same servers without this cache, for a lookup a user asked for now (Verify DNS): a record
   * published a minute after a check found none must not read as missing for another 30 seconds.
   */
  uncached(): DnsResolver;
}

export interface ResolverOptions {
  /** `host[:port]` entries (DNS_SERVERS); the system's resolvers when empty. */
  servers?: string[];
  timeoutMs?: number;
  tries?: number;
  /** Upper bound on caching; node:dns reports TTLs only for A/AAAA, the rest use this bound. */
  maxCacheSeconds?: number;
}

const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'NODATA']);
const NEGATIVE_CACHE_SECONDS = 30;

/** DNS_SERVERS: comma-separated `host`, `host:port` or `[v6]:port`, as node:dns setServers takes them. */
export function parseDnsServers(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The PTR name of an address: 10.2.0.192.in-addr.arpa, or the 32 nibbles of an IPv6 address, last first, under ip6.arpa. */
function ptrName(ip: string): string | null {
  const address = parseIp(ip);
  if (!address) return null;
  return `${reversedIp(ip)}.${address.kind() === 'ipv4' ? 'in-addr' : 'ip6'}.arpa`;
}

export function createResolver(options: ResolverOptions = {}): DnsResolver {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 3000, tries: options.tries ?? 2 });
  if (options.servers?.length) resolver.setServers(options.servers);
  const maxCache = options.maxCacheSeconds ?? 300;
  const cache = new Map<string, { expires: number; value: Promise<unknown> }>();

  async function lookup<T>(
    rrtype: string,
    name: string,
    query: () => Promise<T[]>,
    ttlOf?: (records: T[]) => number,
  ): Promise<T[]> {
    const key = `${rrtype} ${name.toLowerCase()}`;
    const hit = cache.get(key);
    if (hit && hit.expires > Date.now()) return hit.value as Promise<T[]>;
    const value = query().then(
      (records) => {
        const ttl = Math.min(maxCache, ttlOf ? ttlOf(records) : maxCache);
        cache.set(key, { expires: Date.now() + ttl * 1000, value });
        return records;
      },
      (err: NodeJS.ErrnoException) => {
        if (ABSENT.has(err.code ?? '')) {
          cache.set(key, {
            expires: Date.now() + Math.min(maxCache, NEGATIVE_CACHE_SECONDS) * 1000,
            value: Promise.resolve([]),
          });
          return [] as T[];
        }
        cache.delete(key);
        throw new DnsLookupError(name, rrtype, err.code ?? 'EUNKNOWN');
      },
    );
    // In flight: concurrent lookups of the same name share one query.
    cache.set(key, { expires: Date.now() + 10_000, value });
    return value;
  }

  const minTtl = (records: { ttl: number }[]) => (records.length ? Math.min(...records.map((r) => r.ttl)) : maxCache);

  let uncachedView: DnsResolver | undefined;
  const self: DnsResolver = {
    txt: (name) =>
      lookup('TXT', name, () => resolver.resolveTxt(name)).then((records) => records.map((parts) => parts.join(''))),
    // Exchange and priority only: newer Node versions add a `type` field to each record, and callers (and the API
    // answers built from them) must not change shape with the runtime.
    mx: (name) =>
      lookup('MX', name, () => resolver.resolveMx(name)).then((records) =>
        records.map(({ exchange, priority }) => ({ exchange, priority })),
      ),
    a: (name) =>
      lookup('A', name, () => resolver.resolve4(name, { ttl: true }), minTtl).then((r) => r.map((x) => x.address)),
    aaaa: (name) =>
      lookup('AAAA', name, () => resolver.resolve6(name, { ttl: true }), minTtl).then((r) => r.map((x) => x.address)),
    // A PTR query, not Resolver.reverse: that is c-ares' gethostbyaddr, which answers from /etc/hosts
    // before asking the servers (127.0.0.1 -> "localhost" while DNS_SERVERS say NXDOMAIN).
    reverse: (ip) =>
      lookup('PTR', ip, () => {
        const name = ptrName(ip);
        // EINVAL, as Resolver.reverse rejects what is not an address: a DnsLookupError, not an empty answer.
        return name
          ? resolver.resolvePtr(name)
          : Promise.reject(Object.assign(new Error(`"${ip}" is not an IP address`), { code: 'EINVAL' }));
      }),
    // Any type tells NXDOMAIN from NODATA; an A query's NODATA (ENODATA) still means the name exists.
    exists: (name) =>
      lookup('EXISTS', name, () =>
        resolver.resolve4(name).then(
          () => [true],
          (err: NodeJS.ErrnoException) => (err.code === 'ENODATA' ? [true] : Promise.reject(err)),
        ),
      ).then((answer) => answer.length > 0),
    clearCache: () => cache.clear(),
    uncached: () => (uncachedView ??= maxCache === 0 ? self : createResolver({ ...options, maxCacheSeconds: 0 })),
  };
  return self;
}
