// `npm run bench:dnsbl`: how close the blocklist engine gets to its concurrency limit's ideal.
//
// What runs: the test DNS server (server/test/dns-server.ts, UDP on 127.0.0.1) with a fixed latency
// added before every answer, in a child process (a real blocklist's server is not in our process,
// and sharing the event loop would add its CPU time to every query), and the product resolver
// (createResolver, c-ares, caching off) in this process pointed at it. N distinct public-looking
// IPv4 addresses (from 23.0.0.1 on, so no name is asked twice and no cache can help) are looked up
// at once against every IPv4 list of the catalogue with lookUpBlocklists; its process-wide limit
// (DNSBL_CONCURRENCY) bounds the queries on the wire. Every 8th address is listed on a few lists, so the listed path
// (A, then TXT) runs too.
//
// What is printed: lists, queries (A, plus TXT for listings), wall time, queries/s, the ideal time
// = queries x latency / DNSBL_CONCURRENCY (the limit always full, nothing else costing time), and the
// ratio wall / ideal (goal <= 1.5). Statuses are counted to show that nothing timed out.
//
// Env: BENCH_IPS (default 256), BENCH_LATENCY_MS (default 20), BENCH_TIMEOUT_MS (per-list timeout,
// default the engine's 2,000), BENCH_DNS_IN_PROCESS=1 (the DNS server in this process, to compare).
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { blocklistsFor, DNSBL_CONCURRENCY, lookUpBlocklists } from '../../server/engine/blocklists/dnsbl';
import { createResolver } from '../../server/platform/dns/resolver';
import { startDnsServer, type ZoneEntry } from '../../server/test/dns-server';

interface DnsHandle {
  address: string;
  /** The most queries the server held at once. */
  maxInFlight(): Promise<number>;
  close(): Promise<void>;
}

type FromServer = { address: string } | { maxInFlight: number };
type ToServer = { zone: Record<string, ZoneEntry>; latencyMs: number } | 'stop';

if (process.env.BENCH_DNS_SERVER === '1') {
  // The child: serve the zone it is sent until told to stop, then report the peak of queries in flight.
  process.once('message', async (message: ToServer) => {
    if (message === 'stop') return;
    const dns = await startDnsServer(message.zone);
    dns.latencyMs = message.latencyMs;
    process.send?.({ address: dns.address } satisfies FromServer);
    process.once('message', () => {
      process.send?.(
        { maxInFlight: dns.maxInFlight } satisfies FromServer,
        () => void dns.close().then(() => process.exit(0)),
      );
    });
  });
} else {
  await main();
}

async function startDns(zone: Record<string, ZoneEntry>, latencyMs: number): Promise<DnsHandle> {
  if (process.env.BENCH_DNS_IN_PROCESS === '1') {
    const dns = await startDnsServer(zone);
    dns.latencyMs = latencyMs;
    return { address: dns.address, maxInFlight: async () => dns.maxInFlight, close: () => dns.close() };
  }
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_DNS_SERVER: '1' },
  });
  const next = () =>
    new Promise<FromServer>((resolve, reject) => {
      child.once('message', (message) => resolve(message as FromServer));
      child.once('error', reject);
    });
  const send = (message: ToServer) => child.send(message);
  send({ zone, latencyMs });
  const { address } = (await next()) as { address: string };
  let peak: number | undefined;
  return {
    address,
    maxInFlight: async () => {
      if (peak === undefined) {
        send('stop');
        peak = ((await next()) as { maxInFlight: number }).maxInFlight;
      }
      return peak;
    },
    close: async () => {
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

async function main() {
  const ipCount = Number(process.env.BENCH_IPS ?? 256);
  const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 20);
  const timeoutMs = process.env.BENCH_TIMEOUT_MS ? Number(process.env.BENCH_TIMEOUT_MS) : undefined;

  const lists = blocklistsFor('ipv4');
  // 254 hosts (.1-.254) a /24, then the next /24.
  const ips = Array.from(
    { length: ipCount },
    (_, i) => `23.${Math.floor(i / 254 / 256) % 256}.${Math.floor(i / 254) % 256}.${(i % 254) + 1}`,
  );
  if (new Set(ips).size !== ips.length) throw new Error('BENCH_IPS is too large for distinct addresses');

  // Every 8th address is listed on the first three lists that have a 127.0.0.2 code.
  const listing = lists
    .filter((list) => list.answers.read === 'exact' && '127.0.0.2' in list.answers.listed)
    .slice(0, 3);
  const zone: Record<string, ZoneEntry> = {};
  ips.forEach((ip, i) => {
    if (i % 8 !== 0) return;
    const reversed = ip.split('.').reverse().join('.');
    for (const list of listing)
      zone[`${reversed}.${list.zone}`] = { A: ['127.0.0.2'], TXT: [`${ip} is listed on ${list.name}`] };
  });

  const dns = await startDns(zone, latencyMs);
  const resolver = createResolver({ servers: [dns.address], timeoutMs: 5_000, tries: 1, maxCacheSeconds: 0 });

  const started = performance.now();
  const results = await Promise.all(ips.map((ip) => lookUpBlocklists(resolver, { ip }, { timeoutMs })));
  const wallMs = performance.now() - started;
  const maxInFlight = await dns.maxInFlight();
  await dns.close();

  const answers = results.flat();
  const byStatus = { listed: 0, clear: 0, unknown: 0 };
  for (const answer of answers) byStatus[answer.status] += 1;
  const queries = answers.length + byStatus.listed;
  const idealMs = (queries * latencyMs) / DNSBL_CONCURRENCY;

  console.log(`lists (IPv4):        ${lists.length}`);
  console.log(`addresses:           ${ipCount}`);
  console.log(`queries:             ${queries} (${answers.length} A + ${byStatus.listed} TXT)`);
  console.log(`answers:             ${byStatus.listed} listed, ${byStatus.clear} clear, ${byStatus.unknown} unknown`);
  console.log(
    `latency per answer:  ${latencyMs} ms, concurrency ${DNSBL_CONCURRENCY}, max in flight at the server ${maxInFlight}`,
  );
  console.log(`wall time:           ${(wallMs / 1000).toFixed(2)} s`);
  console.log(`queries/s:           ${Math.round(queries / (wallMs / 1000))}`);
  console.log(
    `ideal time:          ${(idealMs / 1000).toFixed(2)} s (queries x ${latencyMs} ms / ${DNSBL_CONCURRENCY})`,
  );
  console.log(`wall / ideal:        ${(wallMs / idealMs).toFixed(2)} (goal <= 1.5)`);
  if (byStatus.unknown > 0) process.exitCode = 1;
}
