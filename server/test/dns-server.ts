import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server, type Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import { createResolver, type DnsResolver } from '../platform/dns/resolver';

export interface ZoneEntry {
  TXT?: (string | string[])[];
  MX?: { exchange: string; priority: number }[];
  A?: string[];
  AAAA?: string[];
  PTR?: string[];
}

/**
 * A real DNS server on 127.0.0.1 (UDP, and TCP on the same port for answers too large for UDP: RFC 1035
 * wire format) answering from `zone`, which tests may change at any time.
 * A name not in the zone is NXDOMAIN; a name without the asked type is NODATA; names in
 * `servfail` answer SERVFAIL; names under `silent` get no reply at all. Every field may be changed
 * while the server runs.
 */
export interface TestDnsServer {
  zone: Record<string, ZoneEntry>;
  servfail: Set<string>;
  /**
   * Names or zone suffixes that never answer, as a dead or firewalled DNS blocklist: a query for
   * any name equal to or ending in `.<entry>` is dropped (lower case, no trailing dot).
   */
  silent: Set<string>;
  /** Milliseconds added before every answer (SERVFAIL and NXDOMAIN too), as a distant server's round trip. 0 by default. */
  latencyMs: number;
  /** Queries received and not yet answered (silent ones are never answered, so they are not counted). */
  readonly inFlight: number;
  /** The most queries that were waiting for their answer at once since start (or since the test set it to 0). */
  maxInFlight: number;
  /** For DNS_SERVERS. */
  address: string;
  close(): Promise<void>;
}

const TYPE = { A: 1, PTR: 12, MX: 15, TXT: 16, AAAA: 28, OPT: 41 } as const;
const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 } as const;
/** RFC 1035 4.2.1: a UDP answer holds 512 bytes unless the query's EDNS OPT record offers more. */
const UDP_LIMIT = 512;

/*
 * The wire format is written here rather than by a DNS library: dns2's bit-by-bit encoder cost
 * ~0.5 ms a query, which made this server, not the code under test, the bottleneck of
 * bench:dnsbl's ten thousand queries.
 */

interface Question {
  name: string;
  type: number;
  /** Where the question section ends: it is copied into the answer as it came. */
  end: number;
  /** The largest answer the client accepts: over UDP 512 bytes or its EDNS payload size; over TCP 65535. */
  sizeLimit: number;
}

/** The first question of a query and its EDNS payload size; null for what is not a query this server can read. */
function readQuery(packet: Buffer): Question | null {
  if (packet.length < 12 || packet[2] & 0x80) return null;
  const questions = packet.readUInt16BE(4);
  if (questions < 1) return null;
  let offset = 12;
  let name = '';
  let type = 0;
  for (let q = 0; q < questions; q++) {
    const labels: string[] = [];
    for (;;) {
      if (offset >= packet.length) return null;
      const length = packet[offset];
      offset += 1;
      if (length === 0) break;
      if (length > 63 || offset + length > packet.length) return null;
      labels.push(packet.toString('latin1', offset, offset + length));
      offset += length;
    }
    if (offset + 4 > packet.length) return null;
    if (q === 0) {
      name = labels.join('.');
      type = packet.readUInt16BE(offset);
    }
    offset += 4;
  }
  const end = offset;
  let sizeLimit = UDP_LIMIT;
  // EDNS: an OPT record (root name, type 41) in the additional section carries the payload size in its class.
  if (
    packet.readUInt16BE(10) > 0 &&
    packet[offset] === 0 &&
    offset + 5 <= packet.length &&
    packet.readUInt16BE(offset + 1) === TYPE.OPT
  ) {
    sizeLimit = Math.max(UDP_LIMIT, packet.readUInt16BE(offset + 3));
  }
  return { name, type, end, sizeLimit };
}

function encodeName(name: string): Buffer {
  const labels = name.replace(/\.$/, '').split('.').filter(Boolean);
  return Buffer.concat([
    ...labels.map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, 'latin1')])),
    Buffer.from([0]),
  ]);
}

/** A TXT record's character-strings: each holds at most 255 bytes, so longer ones are split as zone tools do. */
function encodeTxt(data: string | string[]): Buffer {
  const parts = [data].flat().flatMap((text) => {
    const bytes = Buffer.from(text, 'utf8');
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 255) chunks.push(bytes.subarray(i, i + 255));
    return chunks.length > 0 ? chunks : [Buffer.alloc(0)];
  });
  return Buffer.concat(parts.flatMap((chunk) => [Buffer.from([chunk.length]), chunk]));
}

/** The record data of `type` for `entry`, one Buffer per record. */
function recordData(entry: ZoneEntry, type: number): Buffer[] {
  switch (type) {
    case TYPE.TXT:
      return (entry.TXT ?? []).map(encodeTxt);
    case TYPE.MX:
      return (entry.MX ?? []).map((mx) => {
        const priority = Buffer.alloc(2);
        priority.writeUInt16BE(mx.priority);
        return Buffer.concat([priority, encodeName(mx.exchange)]);
      });
    case TYPE.A:
      return (entry.A ?? []).map((address) => Buffer.from(ipaddr.IPv4.parse(address).toByteArray()));
    case TYPE.AAAA:
      return (entry.AAAA ?? []).map((address) => Buffer.from(ipaddr.IPv6.parse(address).toByteArray()));
    case TYPE.PTR:
      return (entry.PTR ?? []).map(encodeName);
    default:
      return [];
  }
}

/** The answer to `query`: its header and question section, then each record named by a pointer to the question's name. */
function buildResponse(query: Buffer, question: Question, rcode: number, records: Buffer[], type: number): Buffer {
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2); // id
  // QR, the query's opcode and RD, the rcode; no AA, RA or TC.
  header.writeUInt16BE(0x8000 | (query.readUInt16BE(2) & 0x7900) | rcode, 2);
  header.writeUInt16BE(query.readUInt16BE(4), 4);
  header.writeUInt16BE(records.length, 6);
  const answers = records.map((data) => {
    const fixed = Buffer.alloc(12);
    fixed.writeUInt16BE(0xc00c, 0);
    fixed.writeUInt16BE(type, 2);
    fixed.writeUInt16BE(1, 4); // IN
    fixed.writeUInt32BE(60, 6); // TTL
    fixed.writeUInt16BE(data.length, 10);
    return Buffer.concat([fixed, data]);
  });
  const response = Buffer.concat([header, query.subarray(12, question.end), ...answers]);
  if (response.length <= question.sizeLimit) return response;
  // Too large for UDP: the header and question only, with TC set, so the client retries over TCP.
  header.writeUInt16BE(0, 6);
  header[2] |= 0x02;
  return Buffer.concat([header, query.subarray(12, question.end)]);
}

function isSilent(silent: Set<string>, name: string): boolean {
  if (silent.size === 0) return false;
  for (let at = 0; at !== -1; at = name.indexOf('.', at + 1)) {
    if (silent.has(at === 0 ? name : name.slice(at + 1))) return true;
  }
  return false;
}

/** A UDP socket and a TCP server on one free port of 127.0.0.1 (a port free for one may be taken for the other: try another). */
async function bindBoth(): Promise<{ socket: UdpSocket; tcp: Server }> {
  for (;;) {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, '127.0.0.1', () => resolve());
    });
    const tcp = createServer();
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(socket.address().port, '127.0.0.1', () => resolve());
      });
      return { socket, tcp };
    } catch (err) {
      socket.close();
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    }
  }
}

export async function startDnsServer(zone: Record<string, ZoneEntry> = {}): Promise<TestDnsServer> {
  let inFlight = 0;
  let closed = false;
  const { socket, tcp } = await bindBoth();
  const connections = new Set<Socket>();
  const state: TestDnsServer = {
    zone,
    servfail: new Set(),
    silent: new Set(),
    latencyMs: 0,
    get inFlight() {
      return inFlight;
    },
    maxInFlight: 0,
    address: '',
    close: async () => {},
  };
  /** Decides the answer to `query` now and hands it to `send` after the latency, as from a server far away. */
  const respond = (query: Buffer, overTcp: boolean, send: (response: Buffer) => void) => {
    const question = readQuery(query);
    if (!question) return;
    if (overTcp) question.sizeLimit = 0xffff;
    const name = question.name.toLowerCase().replace(/\.$/, '');
    if (isSilent(state.silent, name)) return;
    inFlight += 1;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    let response: Buffer;
    if (state.servfail.has(name)) response = buildResponse(query, question, RCODE.SERVFAIL, [], question.type);
    else {
      const entry = state.zone[name];
      response = entry
        ? buildResponse(query, question, RCODE.NOERROR, recordData(entry, question.type), question.type)
        : buildResponse(query, question, RCODE.NXDOMAIN, [], question.type);
    }
    const answer = () => {
      inFlight -= 1;
      if (!closed) send(response);
    };
    if (state.latencyMs > 0) setTimeout(answer, state.latencyMs);
    else answer();
  };
  socket.on('message', (query, from) =>
    respond(query, false, (response) => socket.send(response, from.port, from.address)),
  );
  // Over TCP (a client retrying an answer truncated over UDP) each message is preceded by its length in two bytes (RFC
  // 1035 4.2.2).
  tcp.on('connection', (connection) => {
    connections.add(connection);
    connection.on('close', () => connections.delete(connection));
    connection.on('error', () => {});
    let pending = Buffer.alloc(0);
    connection.on('data', (data) => {
      pending = Buffer.concat([pending, data]);
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        const query = pending.subarray(2, 2 + pending.readUInt16BE(0));
        pending = pending.subarray(2 + query.length);
        respond(query, true, (response) => {
          const length = Buffer.alloc(2);
          length.writeUInt16BE(response.length);
          connection.write(Buffer.concat([length, response]));
        });
      }
    });
  });
  state.address = `127.0.0.1:${socket.address().port}`;
  // A send to a client that went away is that client's problem, not a reason to crash the test run.
  socket.on('error', () => {});
  state.close = async () => {
    closed = true;
    for (const connection of connections) connection.destroy();
    await Promise.all([
      new Promise<void>((resolve) => socket.close(() => resolve())),
      new Promise<void>((resolve) => tcp.close(() => resolve())),
    ]);
  };
  return state;
}

/** The product's resolver asking only the loopback server, without retries or cache: each test sees the zone as it is now. */
export const loopbackResolver = (dns: TestDnsServer): DnsResolver =>
  createResolver({ servers: [dns.address], timeoutMs: 1000, tries: 1, maxCacheSeconds: 0 });

/** A loopback DNS server for a test file, with the resolver that asks it. */
export async function startLoopbackDns(
  zone: Record<string, ZoneEntry> = {},
): Promise<{ dns: TestDnsServer; resolver: DnsResolver }> {
  const dns = await startDnsServer(zone);
  return { dns, resolver: loopbackResolver(dns) };
}
