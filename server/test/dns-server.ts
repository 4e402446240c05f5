import dns2 from 'dns2';
import type { AddressInfo } from 'node:net';

// dns2's bundled types lack RCODE and plain-object answers, which its runtime accepts.
const { Packet } = dns2 as any;

export interface ZoneEntry {
  TXT?: (string | string[])[];
  MX?: { exchange: string; priority: number }[];
  A?: string[];
  AAAA?: string[];
  PTR?: string[];
}

/**
 * A real DNS server on 127.0.0.1 (UDP) answering from `zone`, which tests may change at any time.
 * A name not in the zone is NXDOMAIN; a name without the asked type is NODATA; names in
 * `servfail` answer SERVFAIL.
 */
export interface TestDnsServer {
  zone: Record<string, ZoneEntry>;
  servfail: Set<string>;
  /** For DNS_SERVERS. */
  address: string;
  close(): Promise<void>;
}

const splitTxt = (s: string) => s.match(/[\s\S]{1,255}/g) ?? [''];

export async function startDnsServer(zone: Record<string, ZoneEntry> = {}): Promise<TestDnsServer> {
  const state: TestDnsServer = { zone, servfail: new Set(), address: '', close: async () => {} };
  const server = dns2.createUDPServer((request: any, send: (r: any) => void) => {
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    const name = String(question.name).toLowerCase().replace(/\.$/, '');
    if (state.servfail.has(name)) {
      response.header.rcode = Packet.RCODE.SERVFAIL;
      return send(response);
    }
    const entry = state.zone[name];
    if (!entry) {
      response.header.rcode = Packet.RCODE.NXDOMAIN;
      return send(response);
    }
    const base = { name: question.name, class: Packet.CLASS.IN, ttl: 60 };
    switch (question.type) {
      case Packet.TYPE.TXT:
        // A TXT character-string holds at most 255 bytes; split longer ones as zone tools do.
        for (const data of entry.TXT ?? []) response.answers.push({ ...base, type: Packet.TYPE.TXT, data: [data].flat().flatMap(splitTxt) });
        break;
      case Packet.TYPE.MX:
        for (const mx of entry.MX ?? []) response.answers.push({ ...base, type: Packet.TYPE.MX, exchange: mx.exchange, priority: mx.priority });
        break;
      case Packet.TYPE.A:
        for (const address of entry.A ?? []) response.answers.push({ ...base, type: Packet.TYPE.A, address });
        break;
      case Packet.TYPE.AAAA:
        for (const address of entry.AAAA ?? []) response.answers.push({ ...base, type: Packet.TYPE.AAAA, address });
        break;
      case Packet.TYPE.PTR:
        for (const domain of entry.PTR ?? []) response.answers.push({ ...base, type: Packet.TYPE.PTR, domain });
        break;
    }
    send(response);
  });
  await new Promise<void>((resolve) => {
    server.once('listening', () => resolve());
    server.listen(0, '127.0.0.1');
  });
  state.address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
