import { describe, expect, it } from 'vitest';
import { boundResponse, cleanIp, parseAddress, parseSmtpResponse, parseTime } from './delivery-event';

describe('reading what MTAs write', () => {
  it('finds the reply code and the enhanced status code, not pieces of addresses or Yahoo’s own codes', () => {
    expect(
      parseSmtpResponse(
        'host mx.example.org[192.0.2.25] said: 550 5.1.1 <bob@example.org>: User unknown (in reply to RCPT TO command)',
      ),
    ).toEqual({
      code: 550,
      enhanced: '5.1.1',
    });
    expect(
      parseSmtpResponse('421-4.7.0 [203.0.113.10 15] Our system has detected an unusual rate of unsolicited mail'),
    ).toEqual({
      code: 421,
      enhanced: '4.7.0',
    });
    expect(
      parseSmtpResponse(
        'smtp;550 5.7.1 Service unavailable; Client host [203.0.113.10] blocked using zen.spamhaus.org',
      ),
    ).toEqual({
      code: 550,
      enhanced: '5.7.1',
    });
    expect(parseSmtpResponse('Messages from 203.0.113.10 temporarily deferred - 4.16.55.1')).toEqual({
      code: null,
      enhanced: null,
    });
    expect(parseSmtpResponse('connect to mx.example.net[198.51.100.7]:25: Connection timed out')).toEqual({
      code: null,
      enhanced: null,
    });
    expect(parseSmtpResponse('554 rejected')).toEqual({ code: 554, enhanced: null });
    expect(parseSmtpResponse(null)).toEqual({ code: null, enhanced: null });
  });

  it('reads addresses as logs write them, lower case, and refuses what is not one', () => {
    expect(parseAddress('<Ann@Gmail.COM>')).toEqual({ address: 'ann@gmail.com', domain: 'gmail.com' });
    expect(parseAddress('rfc822;bob+list@example.org')).toEqual({
      address: 'bob+list@example.org',
      domain: 'example.org',
    });
    expect(parseAddress('root')).toBeNull();
    expect(parseAddress('a@localhost')).toBeNull();
    expect(parseAddress('<>')).toBeNull();
    expect(parseAddress(`${'a'.repeat(65)}@example.com`)).toBeNull();
    expect(parseAddress('a b@example.com')).toBeNull();
    expect(parseAddress('a\u0000b@example.com')).toBeNull();
  });

  it('takes every local part RFC 5322 allows (dot-atom of atext, or a quoted string) and nothing else', () => {
    for (const valid of [
      "o'brien@example.com",
      '${user}+{tag}@example.com',
      "!#$%&'*+-/=?^_`{|}~@example.com",
      'first.last@example.com',
      '"john doe"@example.com',
      '"a\\"b"@example.com',
      'josé@example.com',
    ])
      expect(parseAddress(valid), valid).toEqual({ address: valid.toLowerCase(), domain: 'example.com' });
    for (const invalid of [
      '.ann@example.com',
      'ann.@example.com',
      'ann..lee@example.com',
      'ann,lee@example.com',
      'ann(lee)@example.com',
      'ann[lee]@example.com',
      'ann;lee@example.com',
      'ann:lee@example.com',
      'ann\\lee@example.com',
      '"ann"lee"@example.com',
    ])
      expect(parseAddress(invalid), invalid).toBeNull();
  });

  it('reads the MTAs’ times and refuses the impossible', () => {
    const now = Date.UTC(2024, 0, 20);
    expect(parseTime(1705314225, now)).toEqual(new Date(1705314225000));
    expect(parseTime(1705314225123, now)).toEqual(new Date(1705314225123));
    expect(parseTime('1705314225.5', now)).toEqual(new Date(1705314225500));
    expect(parseTime('2024-01-15 10:23:45-0500', now)).toEqual(new Date('2024-01-15T15:23:45Z'));
    expect(parseTime('2024-01-15 10:23:45', now)).toEqual(new Date('2024-01-15T10:23:45Z'));
    expect(parseTime('Mon, 15 Jan 2024 10:23:45 +0000', now)).toEqual(new Date('2024-01-15T10:23:45Z'));
    expect(parseTime('1999-12-31T23:59:59Z', now)).toBeNull();
    expect(parseTime('2024-01-22T00:00:00Z', now)).toBeNull();
    expect(parseTime({}, now)).toBeNull();
  });

  it('writes IPs one way without their port, and bounds answers', () => {
    expect(cleanIp('203.0.113.10:53210')).toBe('203.0.113.10');
    expect(cleanIp('[2001:DB8::10]:25')).toBe('2001:db8::10');
    expect(cleanIp('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(cleanIp('mta1.example.com')).toBe('');
    expect(boundResponse(`250 ${'x'.repeat(5000)}`)).toHaveLength(1000);
    expect(boundResponse('  250\n  ok  ')).toBe('250 ok');
    expect(boundResponse('550\u0000 no\u0007')).toBe('550 no');
  });
});
