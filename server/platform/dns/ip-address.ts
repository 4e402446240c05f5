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
