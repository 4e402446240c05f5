import ipaddr from 'ipaddr.js';
import { BULK_IMPORT_MAX_ADDRESSES } from '@contracts/reputation';
import { AppError } from '../platform/errors';
import { parseIp } from '../platform/dns/ip-address';

/*
 * Which addresses can be monitored, and CIDR blocks as bulk import expands them. DNS blocklists list
 * only addresses that send on the public internet: asking them about 10.1.2.3 or 2001:db8::1 tells
 * the user nothing, so those are refused with the range that makes them so.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;

interface ReservedRange {
  /** What the addresses are, e.g. "private", "documentation". */
  kind: string;
  network: Address;
  prefix: number;
}

const range = (kind: string, cidr: string): ReservedRange => {
  const [network, prefix] = ipaddr.parseCIDR(cidr);
  return { kind, network, prefix };
};

// Named first, so the message says "documentation" rather than ipaddr.js' umbrella "reserved".
const NAMED: ReservedRange[] = [
  range('unspecified', '0.0.0.0/8'),
  range('private', '10.0.0.0/8'),
  range('carrier-grade NAT', '100.64.0.0/10'),
  range('loopback', '127.0.0.0/8'),
  range('link-local', '169.254.0.0/16'),
  range('private', '172.16.0.0/12'),
  range('IETF protocol', '192.0.0.0/24'),
  range('documentation', '192.0.2.0/24'),
  range('6to4 relay', '192.88.99.0/24'),
  range('private', '192.168.0.0/16'),
  range('benchmarking', '198.18.0.0/15'),
  range('documentation', '198.51.100.0/24'),
  range('documentation', '203.0.113.0/24'),
  range('multicast', '224.0.0.0/4'),
  range('broadcast', '255.255.255.255/32'),
  range('reserved', '240.0.0.0/4'),
  range('unspecified', '::/128'),
  range('loopback', '::1/128'),
  range('NAT64', '64:ff9b::/96'),
  range('documentation', '2001:db8::/32'),
  range('documentation', '3fff::/20'),
  range('benchmarking', '2001:2::/48'),
  range('Teredo', '2001::/32'),
  range('6to4', '2002::/16'),
  range('unique-local', 'fc00::/7'),
  range('link-local', 'fe80::/10'),
  range('multicast', 'ff00::/8'),
];

type RangeList = [Address, number] | [Address, number][];
type SpecialRanges = { SpecialRanges: Record<string, RangeList> };

/** Every other range ipaddr.js' range() names (AS112, AMT, ORCHID...), under its own name. */
function ipaddrRanges(kind: 'IPv4' | 'IPv6'): ReservedRange[] {
  const special = (ipaddr[kind].prototype as unknown as SpecialRanges).SpecialRanges;
  return Object.entries(special).flatMap(([name, list]) =>
    // A name with one range holds [address, prefix]; with several, a list of them.
    (Array.isArray(list[0]) ? (list as [Address, number][]) : [list as [Address, number]]).map(([network, prefix]) => ({
      kind: name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase(),
      network,
      prefix,
    })),
  );
}

const RESERVED: ReservedRange[] = [...NAMED, ...ipaddrRanges('IPv4'), ...ipaddrRanges('IPv6')];
/** IANA allocates global unicast IPv6 from 2000::/3 only. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

const TAIL = 'blocklists only list public addresses';
const article = (word: string) => (/^(?:[aeio]|u(?!ni))/i.test(word) ? 'an' : 'a');
const cidrText = (r: { network: Address; prefix: number }) => `${r.network.toString()}/${r.prefix}`;

/** Whether the blocks a/m and b/n share an address: the longer prefix's network lies inside the shorter block. */
function overlaps(a: Address, m: number, b: Address, n: number): boolean {
  if (a.kind() !== b.kind()) return false;
  return m >= n ? a.match(b, n) : b.match(a, m);
}

function reservedRangeTouching(network: Address, prefix: number): ReservedRange | undefined {
  return RESERVED.find((r) => overlaps(network, prefix, r.network, r.prefix));
}

/**
 * Why `address` cannot be monitored, or null when it is a public address. One rule for single
 * addresses and for blocks (a block is refused when any of its addresses would be).
 */
export function unmonitorableReason(address: Address, prefix = address.kind() === 'ipv4' ? 32 : 128): string | null {
  const single = prefix === (address.kind() === 'ipv4' ? 32 : 128);
  const shown = single ? address.toString() : `${address.toString()}/${prefix}`;
  const reserved = reservedRangeTouching(address, prefix);
  if (reserved) {
    return single
      ? `${shown} is ${article(reserved.kind)} ${reserved.kind} address (${cidrText(reserved)}): ${TAIL}`
      : `${shown} includes ${reserved.kind} addresses (${cidrText(reserved)}): ${TAIL}`;
  }
  if (address.kind() === 'ipv6' && !(prefix >= 3 && address.match(GLOBAL_UNICAST_V6))) {
    return `${shown} is outside the global unicast range (2000::/3): ${TAIL}`;
  }
  return null;
}

/** The address in `text` (IPv4-mapped IPv6 unwrapped), or a 400 naming what is wrong with it. */
export function monitorableAddress(text: string): Address {
  const address = parseIp(text);
  if (!address) throw new AppError('validation_error', `${text} is not an IP address`);
  const reason = unmonitorableReason(address);
  if (reason) throw new AppError('validation_error', reason);
  return address;
}

export interface CidrBlock {
  /** The block's first address, whatever host address inside it the user typed. */
  network: Address;
  prefix: number;
  size: bigint;
}

const EXAMPLE = 'such as 203.0.113.0/24 or 2001:db8::/120';

/**
 * A block the user may import: `a.b.c.d/n`, `x::/n` or a bare address (/32, /128); refused with a 400
 * when it is not one, holds more than BULK_IMPORT_MAX_ADDRESSES, or touches a reserved range. The
 * size is computed from the prefix, so a /8 or an IPv6 /64 is refused without listing its addresses.
 */
export function parseCidrBlock(text: string): CidrBlock {
  const [addressText, prefixText, ...rest] = text.split('/');
  const typed = parseIp(addressText);
  if (!typed || rest.length > 0 || (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText))) {
    throw new AppError('validation_error', `${text} is not a CIDR block ${EXAMPLE}`);
  }
  // An IPv4-mapped block (::ffff:192.0.2.0/120) is the IPv4 block it maps, as a single mapped address is.
  const mapped = typed.kind() === 'ipv4' && addressText.includes(':');
  const bits = typed.kind() === 'ipv4' ? 32 : 128;
  const prefix = prefixText === undefined ? bits : Number(prefixText) - (mapped ? 96 : 0);
  if (prefix > bits)
    throw new AppError(
      'validation_error',
      `${text} is not a CIDR block ${EXAMPLE}: the prefix length is at most ${bits + (mapped ? 96 : 0)}`,
    );
  if (prefix < 0) {
    // A mapped block wider than ::ffff:0:0/96 is IPv6 space around it.
    const wide = ipaddr.IPv6.networkAddressFromCIDR(`${ipaddr.IPv6.parse(addressText).toString()}/${prefix + 96}`);
    throw new AppError(
      'validation_error',
      unmonitorableReason(wide, prefix + 96) ?? `${text} is not a CIDR block ${EXAMPLE}`,
    );
  }
  const network =
    typed.kind() === 'ipv4'
      ? ipaddr.IPv4.networkAddressFromCIDR(`${typed.toString()}/${prefix}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${typed.toString()}/${prefix}`);
  const size = 1n << BigInt(bits - prefix);
  if (size > BigInt(BULK_IMPORT_MAX_ADDRESSES)) {
    throw new AppError(
      'validation_error',
      `${network.toString()}/${prefix} holds ${count(size, bits - prefix)} addresses: one import may add at most ${BULK_IMPORT_MAX_ADDRESSES.toLocaleString('en-US')}`,
    );
  }
  const reason = unmonitorableReason(network, prefix);
  if (reason) throw new AppError('validation_error', reason);
  return { network, prefix, size };
}

function count(size: bigint, hostBits: number): string {
  return hostBits > 48 ? `2^${hostBits}` : size.toLocaleString('en-US');
}

/** Every address of the block, in address order, written as normaliseIp writes them. */
export function expandBlock({ network, size }: CidrBlock): string[] {
  const bytes = network.toByteArray();
  const first = bytes.reduce((value, byte) => (value << 8n) | BigInt(byte), 0n);
  const addresses: string[] = [];
  for (let i = 0n; i < size; i++) {
    let value = first + i;
    const out = new Array<number>(bytes.length);
    for (let b = bytes.length - 1; b >= 0; b--) {
      out[b] = Number(value & 0xffn);
      value >>= 8n;
    }
    addresses.push(ipaddr.fromByteArray(out).toString());
  }
  return addresses;
}
