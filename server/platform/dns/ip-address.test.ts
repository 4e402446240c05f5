import { describe, expect, it } from 'vitest';
import { ipFromPtrName, normaliseIp, parseIp, reversedIp, sameIp, sendingNetwork } from './ip-address';

describe('normaliseIp', () => {
  it('writes each address one way: IPv4-mapped IPv6 unwrapped, IPv6 in RFC 5952 form', () => {
    expect(normaliseIp('192.0.2.10')).toBe('192.0.2.10');
    expect(normaliseIp('::ffff:192.0.2.10')).toBe('192.0.2.10');
    expect(normaliseIp('::FFFF:c000:20a')).toBe('192.0.2.10');
    expect(normaliseIp('2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(normaliseIp('::1')).toBe('::1');
    // Not mapped: an IPv4-compatible or NAT64 address stays IPv6.
    expect(normaliseIp('64:ff9b::192.0.2.10')).toBe('64:ff9b::c000:20a');
  });

  it('accepts only what node:net calls an IP address', () => {
    for (const text of [
      '',
      'localhost',
      '127.1',
      '0x7f.0.0.1',
      '0177.0.0.1',
      '192.0.2.256',
      '192.0.2.10 ',
      '2001:db8::1::2',
      '::ffff:1.2.3',
    ]) {
      expect([text, normaliseIp(text)]).toEqual([text, null]);
      expect(parseIp(text)).toBeNull();
    }
  });
});

describe('reverse-DNS names', () => {
  it('reverses IPv4 octets and IPv6 nibbles, mapped addresses as IPv4', () => {
    expect(reversedIp('192.0.2.10')).toBe('10.2.0.192');
    expect(reversedIp('::ffff:192.0.2.10')).toBe('10.2.0.192');
    expect(reversedIp('2001:db8::1')).toBe('1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2');
    expect(reversedIp('2001:DB8:ABCD::F')).toBe('f.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.d.c.b.a.8.b.d.0.1.0.0.2');
    expect(() => reversedIp('mail.example')).toThrow(/not an IP address/);
  });

  it('reads a PTR name back to its address', () => {
    expect(ipFromPtrName('10.2.0.192.in-addr.arpa')).toBe('192.0.2.10');
    expect(ipFromPtrName('10.2.0.192.IN-ADDR.ARPA.')).toBe('192.0.2.10');
    expect(ipFromPtrName('1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa.')).toBe(
      '2001:db8::1',
    );
    expect(ipFromPtrName(`a.0.2.0.0.0.0.c.f.f.f.f.${'0.'.repeat(20)}ip6.arpa`)).toBe('192.0.2.10');
    for (const name of [
      'example.com',
      '2.0.192.in-addr.arpa',
      '10.2.0.300.in-addr.arpa',
      '1.0.0.2.ip6.arpa',
      `g.${'0.'.repeat(31)}ip6.arpa`,
    ]) {
      expect([name, ipFromPtrName(name)]).toEqual([name, null]);
    }
  });

  it('round-trips every address through its PTR name', () => {
    for (const ip of ['192.0.2.10', '0.0.0.0', '255.255.255.255', '2001:db8::1', 'fe80::1:2:3:4', '::']) {
      const arpa = ip.includes(':') ? 'ip6.arpa' : 'in-addr.arpa';
      expect(ipFromPtrName(`${reversedIp(ip)}.${arpa}`)).toBe(ip);
    }
  });
});

describe('sameIp', () => {
  it('compares addresses, not spellings', () => {
    expect(sameIp('2001:db8::1', '2001:0db8:0:0:0:0:0:1')).toBe(true);
    expect(sameIp('::ffff:192.0.2.10', '192.0.2.10')).toBe(true);
    expect(sameIp('192.0.2.10', '192.0.2.11')).toBe(false);
    expect(sameIp('not an ip', 'not an ip')).toBe(false);
  });
});

describe('sendingNetwork', () => {
  it('is the /24 of an IPv4 address (mapped ones unwrapped) and the /64 of an IPv6 one', () => {
    expect(sendingNetwork('192.0.2.10')).toBe('192.0.2.0/24');
    expect(sendingNetwork('192.0.2.250')).toBe(sendingNetwork('192.0.2.10'));
    expect(sendingNetwork('192.0.3.10')).not.toBe(sendingNetwork('192.0.2.10'));
    expect(sendingNetwork('::ffff:192.0.2.10')).toBe('192.0.2.0/24');
    expect(sendingNetwork('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(sendingNetwork('2001:db8:1:2::ffff')).toBe(sendingNetwork('2001:db8:1:2:3:4:5:6'));
    expect(sendingNetwork('2001:db8:1:3::1')).not.toBe(sendingNetwork('2001:db8:1:2::1'));
    expect(() => sendingNetwork('not an address')).toThrow(TypeError);
  });
});
