import ipaddr from 'ipaddr.js';

/**
 * How many addresses a CIDR block holds (a /24 of IPv4 gives 256, a /25 128: part 2, section 5), so
 * the dialog can say what an import will add while the user types; null while the text is not a
 * block yet. A bigint: an IPv6 /64 holds 2^64. The server decides what it accepts.
 */
export function cidrBlockSize(text: string): bigint | null {
  const value = text.trim();
  // Only dotted quads and IPv6 literals: ipaddr.js would also read inet_aton forms such as "10.1/8".
  if (!/^([0-9]{1,3}(\.[0-9]{1,3}){3}|[0-9a-f:.]*:[0-9a-f:.]*)\/[0-9]{1,3}$/i.test(value)) return null;
  try {
    const [address, prefix] = ipaddr.parseCIDR(value);
    const bits = address.kind() === 'ipv4' ? 32 : 128;
    return 2n ** BigInt(bits - prefix);
  } catch {
    return null;
  }
}
