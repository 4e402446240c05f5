import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/*
 * IP addresses as the DNS checks use them, in one place: which text is an address, the one way to
 * write it, and the reverse-DNS names (in-addr.arpa / ip6.arpa and DNS blocklist queries).
 */

/**
 * The address `text` names, IPv4-mapped IPv6 unwrapped (a dual-stack listener sees IPv4 clients as
 * ::ffff:192.0.2.10); null when `text` is not an IP address. Only what node:net's isIP accepts
 * counts: dotted-quad IPv4, not inet_aton's "127.1" or "0x7f.0.0.1" that ipaddr.js would read.
 */
export function parseIp(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  return isIP(text) === 0 ? null : ipaddr.process(text);
}

/** `text` written the one way (IPv4 dotted quad, IPv6 in RFC 5952 form, IPv4-mapped unwrapped); null when it is not an IP address. */
export function normaliseIp(text: string): string | null {
  return parseIp(text)?.toString() ?? null;
}

/**
 * The address's labels in reverse-DNS order, as DNS blocklists and PTR names put them:
 * 192.0.2.10 -> 10.2.0.192; IPv6 -> its 32 nibbles, last first. Throws on what is not an IP address.
 */
export function reversedIp(ip: string): string {
  const address = parseIp(ip);
  if (!address) throw new TypeError(`"${ip}" is not an IP address`);
  if (address.kind() === 'ipv4') return address.toByteArray().reverse().join('.');
  return address
    .toByteArray()
    .flatMap((byte) => [byte >> 4, byte & 15])
    .reverse()
    .map((nibble) => nibble.toString(16))
    .join('.');
}

/** The address a PTR name is for (10.2.0.192.in-addr.arpa -> 192.0.2.10; nibble-form ip6.arpa -> IPv6), as normaliseIp writes it; null for any other name. */
export function ipFromPtrName(name: string): string | null {
  const lower = name.toLowerCase().replace(/\.$/, '');
  if (lower.endsWith('.in-addr.arpa')) {
    const octets = lower.slice(0, -'.in-addr.arpa'.length).split('.');
    return octets.length === 4 ? normaliseIp(octets.reverse().join('.')) : null;
  }
  if (lower.endsWith('.ip6.arpa')) {
    const nibbles = lower.slice(0, -'.ip6.arpa'.length).split('.').reverse();
    if (nibbles.length !== 32 || !nibbles.every((n) => /^[0-9a-f]$/.test(n))) return null;
    const bytes = [];
    for (let i = 0; i < 32; i += 2) bytes.push(Number.parseInt(nibbles[i] + nibbles[i + 1], 16));
    return normaliseIp(ipaddr.fromByteArray(bytes).toString());
  }
  return null;
}

/** Whether two texts name the same address (2001:db8::1 and 2001:0db8:0:0:0:0:0:1 do; so do ::ffff:192.0.2.1 and 192.0.2.1). */
export function sameIp(a: string, b: string): boolean {
  const x = normaliseIp(a);
  return x !== null && x === normaliseIp(b);
}

/**
 * The sending network an address belongs to, as limits on senders count them: its /24 (IPv4, IPv4-mapped unwrapped)
 * or its /64 (IPv6, the smallest network a site is given). One sender with many addresses in one network is one.
 * Throws on what is not an IP address.
 */
export function sendingNetwork(ip: string): string {
  const address = parseIp(ip);
  if (!address) throw new TypeError(`"${ip}" is not an IP address`);
  if (address.kind() === 'ipv4') return `${address.toByteArray().slice(0, 3).join('.')}.0/24`;
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}

/** 2000::/3, where IANA allocates global unicast IPv6; the rest is special or unallocated. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** RFC 6052's well-known NAT64 prefix (its 64:ff9b:1::/48 sibling is for local use only). */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * Whether `text` is a public unicast address: one a request to a user-given host may go to. False
 * for what is not an IP address (isIP's rule), and for every range ipaddr.js names (loopback,
 * private, link-local, CGNAT, unique-local, multicast, broadcast, unspecified, documentation,
 * benchmarking and other reserved blocks), IPv6 outside 2000::/3, and addresses with a zone. An
 * IPv6 address that carries an IPv4 one (mapped, translated, NAT64, 6to4, Teredo's server and
 * client) is public only when that IPv4 address is.
 */
export function isPublicUnicast(text: string): boolean {
  const family = isIP(text);
  if (family === 4) return ipaddr.IPv4.parse(text).range() === 'unicast';
  if (family !== 6 || text.includes('%')) return false;
  // ipaddr.js reads the deprecated "::a.b.c.d" as ::ffff:a.b.c.d: write a dotted tail as two hex groups first.
  const hex = text.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a: string, b: string, c: string, d: string) =>
    [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)].map((n) => n.toString(16)).join(':'),
  );
  const address = ipaddr.IPv6.parse(hex);
  const bytes = address.toByteArray();
  const embedded = (offset: number, xor = 0) =>
    new ipaddr.IPv4(bytes.slice(offset, offset + 4).map((byte) => byte ^ xor)).range() === 'unicast';
  switch (address.range()) {
    case 'unicast':
      return address.match(GLOBAL_UNICAST_V6);
    case 'ipv4Mapped':
    case 'rfc6145':
      return embedded(12);
    case 'rfc6052':
      return address.match(NAT64_WELL_KNOWN) && embedded(12);
    case '6to4':
      return embedded(2);
    case 'teredo':
      // 2001:0:<server v4>:<flags>:<port>:<client v4 inverted>
      return embedded(4) && embedded(12, 0xff);
    default:
      return false;
  }
}
