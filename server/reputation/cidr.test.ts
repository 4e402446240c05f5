import { describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors';
import { expandBlock, monitorableAddress, parseCidrBlock } from './cidr';

const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    return (error as AppError).message;
  }
  throw new Error('expected a refusal');
};

describe('which addresses can be monitored', () => {
  it('accepts public IPv4 and IPv6, written the one way', () => {
    expect(monitorableAddress('8.8.8.8').toString()).toBe('8.8.8.8');
    expect(monitorableAddress('2A00:1450:4001:0:0:0:0:1B').toString()).toBe('2a00:1450:4001::1b');
    expect(monitorableAddress('::ffff:209.85.220.41').toString()).toBe('209.85.220.41');
  });

  it('refuses each reserved range naming the range', () => {
    const cases: [string, string][] = [
      ['10.1.2.3', '10.1.2.3 is a private address (10.0.0.0/8): blocklists only list public addresses'],
      ['172.20.0.1', '172.20.0.1 is a private address (172.16.0.0/12): blocklists only list public addresses'],
      ['192.168.1.1', '192.168.1.1 is a private address (192.168.0.0/16): blocklists only list public addresses'],
      ['127.0.0.1', '127.0.0.1 is a loopback address (127.0.0.0/8): blocklists only list public addresses'],
      ['169.254.10.1', '169.254.10.1 is a link-local address (169.254.0.0/16): blocklists only list public addresses'],
      ['224.0.0.5', '224.0.0.5 is a multicast address (224.0.0.0/4): blocklists only list public addresses'],
      ['0.0.0.0', '0.0.0.0 is an unspecified address (0.0.0.0/8): blocklists only list public addresses'],
      [
        '255.255.255.255',
        '255.255.255.255 is a broadcast address (255.255.255.255/32): blocklists only list public addresses',
      ],
      [
        '100.64.1.1',
        '100.64.1.1 is a carrier-grade NAT address (100.64.0.0/10): blocklists only list public addresses',
      ],
      ['192.0.2.10', '192.0.2.10 is a documentation address (192.0.2.0/24): blocklists only list public addresses'],
      [
        '198.51.100.7',
        '198.51.100.7 is a documentation address (198.51.100.0/24): blocklists only list public addresses',
      ],
      [
        '203.0.113.99',
        '203.0.113.99 is a documentation address (203.0.113.0/24): blocklists only list public addresses',
      ],
      ['198.18.0.1', '198.18.0.1 is a benchmarking address (198.18.0.0/15): blocklists only list public addresses'],
      ['240.0.0.1', '240.0.0.1 is a reserved address (240.0.0.0/4): blocklists only list public addresses'],
      ['192.31.196.1', '192.31.196.1 is an as112 address (192.31.196.0/24): blocklists only list public addresses'],
      ['::1', '::1 is a loopback address (::1/128): blocklists only list public addresses'],
      ['::', ':: is an unspecified address (::/128): blocklists only list public addresses'],
      ['2001:db8::1', '2001:db8::1 is a documentation address (2001:db8::/32): blocklists only list public addresses'],
      ['fd00::1', 'fd00::1 is a unique-local address (fc00::/7): blocklists only list public addresses'],
      ['fe80::1', 'fe80::1 is a link-local address (fe80::/10): blocklists only list public addresses'],
      ['ff02::1', 'ff02::1 is a multicast address (ff00::/8): blocklists only list public addresses'],
      ['2001:2::1', '2001:2::1 is a benchmarking address (2001:2::/48): blocklists only list public addresses'],
      ['4000::1', '4000::1 is outside the global unicast range (2000::/3): blocklists only list public addresses'],
      ['::ffff:10.0.0.1', '10.0.0.1 is a private address (10.0.0.0/8): blocklists only list public addresses'],
    ];
    for (const [ip, message] of cases)
      expect(
        refusal(() => monitorableAddress(ip)),
        ip,
      ).toBe(message);
  });

  it('refuses what is not an address, including inet_aton shorthands', () => {
    for (const text of ['mail.example.com', '1.2.3', '127.1', '0x7f.0.0.1', '1.2.3.4/24', '2001:db8:::1']) {
      expect(refusal(() => monitorableAddress(text))).toBe(`${text} is not an IP address`);
    }
  });
});

describe('CIDR blocks', () => {
  it('expands a /24 to 256 addresses and a /25 to 128, from the network address in address order', () => {
    const block = parseCidrBlock('8.8.4.77/24');
    expect(block.network.toString()).toBe('8.8.4.0');
    const addresses = expandBlock(block);
    expect(addresses).toHaveLength(256);
    expect(addresses[0]).toBe('8.8.4.0');
    expect(addresses[255]).toBe('8.8.4.255');
    expect(expandBlock(parseCidrBlock('8.8.4.128/25'))).toHaveLength(128);
    expect(expandBlock(parseCidrBlock('8.8.4.4'))).toEqual(['8.8.4.4']);
    expect(expandBlock(parseCidrBlock('2a00:1450:4001::ff/126'))).toEqual([
      '2a00:1450:4001::fc',
      '2a00:1450:4001::fd',
      '2a00:1450:4001::fe',
      '2a00:1450:4001::ff',
    ]);
    expect(expandBlock(parseCidrBlock('::ffff:8.8.4.0/126'))).toEqual(['8.8.4.0', '8.8.4.1', '8.8.4.2', '8.8.4.3']);
  });

  it('carries across octets and IPv6 groups', () => {
    const v4 = expandBlock(parseCidrBlock('8.8.6.0/23'));
    expect(v4[255]).toBe('8.8.6.255');
    expect(v4[256]).toBe('8.8.7.0');
    const v6 = expandBlock(parseCidrBlock('2a00:1450:4001:0:0:0:1:0/118'));
    expect(v6).toHaveLength(1024);
    expect(v6[1023]).toBe('2a00:1450:4001::1:3ff');
  });

  it('refuses blocks over 1,024 addresses before listing them, even an IPv6 /64 or /0', () => {
    expect(refusal(() => parseCidrBlock('8.8.0.0/21'))).toBe(
      '8.8.0.0/21 holds 2,048 addresses: one import may add at most 1,024',
    );
    const started = performance.now();
    expect(refusal(() => parseCidrBlock('2a00:1450:4001::/64'))).toBe(
      '2a00:1450:4001::/64 holds 2^64 addresses: one import may add at most 1,024',
    );
    expect(refusal(() => parseCidrBlock('::/0'))).toBe(
      ':: /0 holds 2^128 addresses: one import may add at most 1,024'.replace(' /', '/'),
    );
    expect(refusal(() => parseCidrBlock('11.0.0.0/8'))).toBe(
      '11.0.0.0/8 holds 16,777,216 addresses: one import may add at most 1,024',
    );
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('refuses a block that touches a reserved range, wholly or in part', () => {
    expect(refusal(() => parseCidrBlock('10.0.0.0/24'))).toBe(
      '10.0.0.0/24 includes private addresses (10.0.0.0/8): blocklists only list public addresses',
    );
    expect(refusal(() => parseCidrBlock('192.0.2.0/25'))).toBe(
      '192.0.2.0/25 includes documentation addresses (192.0.2.0/24): blocklists only list public addresses',
    );
    // 255.255.252.0/22 is mostly the reserved 240/4; its last address is also the broadcast one.
    expect(refusal(() => parseCidrBlock('255.255.252.0/22'))).toMatch(
      /^255\.255\.252\.0\/22 includes (broadcast|reserved) addresses/,
    );
    expect(refusal(() => parseCidrBlock('2001:db8::/120'))).toBe(
      '2001:db8::/120 includes documentation addresses (2001:db8::/32): blocklists only list public addresses',
    );
    expect(refusal(() => parseCidrBlock('::ffff:10.0.0.0/120'))).toBe(
      '10.0.0.0/24 includes private addresses (10.0.0.0/8): blocklists only list public addresses',
    );
  });

  it('refuses what is not a block', () => {
    for (const text of ['8.8.8.0/', '8.8.8.0/33', '8.8.8.0/24/1', 'example.com/24', '8.8.8.0/-1', '8.8.8.0/2x']) {
      expect(
        refusal(() => parseCidrBlock(text)),
        text,
      ).toMatch(new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not a CIDR block`));
    }
  });
});
