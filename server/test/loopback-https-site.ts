import { readFileSync, rmSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { DnsResolver } from '../platform/dns/resolver';
import { createOutboundGuard, type OutboundGuard } from '../platform/security/outbound-address';
import { loopbackResolver, startDnsServer, type TestDnsServer, type ZoneEntry } from './dns-server';
import { makeSelfSignedCert } from './self-signed-cert';

/**
 * A customer's HTTPS site as the product fetches it (a BIMI logo, an MTA-STS policy): a server on loopback with a
 * self-signed certificate for its name, a loopback DNS server that alone knows that name, the product's resolver on
 * it, and the outbound guard that lets 127.0.0.1 through as if it were public (the one test seam).
 */
export interface LoopbackHttpsSite {
  server: Server;
  port: number;
  /** The certificate, for the fetch to trust. */
  ca: Buffer;
  dns: TestDnsServer;
  resolver: DnsResolver;
  outbound: OutboundGuard;
  close(): Promise<void>;
}

/** Needs openssl (hasOpenssl) for the certificate. `listenOn` '::' takes every loopback address. */
export async function startLoopbackHttpsSite(
  name: string,
  handler: RequestListener,
  zone: Record<string, ZoneEntry>,
  listenOn = '127.0.0.1',
): Promise<LoopbackHttpsSite> {
  const made = makeSelfSignedCert(name);
  const ca = readFileSync(made.cert);
  const server = createServer({ key: readFileSync(made.key), cert: ca }, handler);
  await new Promise<void>((resolve) => server.listen(0, listenOn, resolve));
  const dns = await startDnsServer(zone);
  const resolver = loopbackResolver(dns);
  return {
    server,
    port: (server.address() as AddressInfo).port,
    ca,
    dns,
    resolver,
    outbound: createOutboundGuard(resolver, { allowNonPublic: (address) => address === '127.0.0.1' }),
    async close() {
      await dns.close();
      server.close();
      rmSync(made.dir, { recursive: true, force: true });
    },
  };
}
