import { describe, expect, it } from 'vitest';
import { isDmarcRecord, parseDmarcRecord, policyTagsValid, whyNotDmarcRecord } from './dmarc-record';

describe('which TXT records are DMARC Policy Records (RFC 9989 4.7 "v", 4.8 dmarc-version)', () => {
  it.each([
    ['4.7 v: v=DMARC1 first', 'v=DMARC1; p=reject', true, null],
    ['4.8 equals: white space around "=" and ";"', 'v = DMARC1 ;p=none', true, null],
    ['4.8 dmarc-version: the tag name "v" is case-insensitive ABNF', 'V=DMARC1; p=none', true, null],
    ['4.8 dmarc-version: %s"DMARC1" is case-sensitive', 'v=dmarc1; p=reject', false, 'version-case'],
    ['4.7 v: v must be the first tag', 'p=reject; v=DMARC1', false, null],
    ['4.7 v: a value that runs on is not DMARC1', 'v=DMARC1 p=reject', false, 'no-separator'],
    ['4.7 v: another version is not DMARC', 'v=DMARC2; p=reject', false, null],
    ['4.10 step 2: other TXT records at _dmarc are discarded', 'google-site-verification=abc', false, null],
    ['4.8 dmarc-record: a record of the version alone', 'v=DMARC1', true, null],
  ])('%s', (_clause, txt, accepted, why) => {
    expect(isDmarcRecord(txt)).toBe(accepted);
    expect(whyNotDmarcRecord(txt)).toBe(why);
  });
});

describe('reading the tags (RFC 9989 4.7 and 4.8; RFC 7489 6.3 for the removed ones)', () => {
  it.each([
    [
      '4.7 p/sp/np: dmarc-request values, any case',
      'v=DMARC1; p=Reject; sp=quarantine; np=NONE',
      { p: 'reject', sp: 'quarantine', np: 'none', invalid: [] },
    ],
    [
      '4.8: a p outside dmarc-request is discarded',
      'v=DMARC1; p=maybe',
      { p: null, invalid: [{ tag: 'p', value: 'maybe' }] },
    ],
    ['4.8: an empty value is not 1*dmarc-value', 'v=DMARC1; p=; rua=', { p: null, malformed: ['p=', 'rua='], rua: [] }],
    ['4.7 adkim/aspf: default r', 'v=DMARC1; p=none', { adkim: 'r', aspf: 'r', psd: 'u', t: 'n' }],
    ['4.7 adkim/aspf: s is strict', 'v=DMARC1; p=none; adkim=s; aspf=S', { adkim: 's', aspf: 's' }],
    [
      '4.8 dmarc-rors: another value is discarded for the default',
      'v=DMARC1; p=none; adkim=strict',
      { adkim: 'r', invalid: [{ tag: 'adkim', value: 'strict' }] },
    ],
    ['4.7 psd: y, n or u', 'v=DMARC1; p=reject; psd=n', { psd: 'n' }],
    [
      '4.8 dmarc-psd: another value is discarded for u',
      'v=DMARC1; p=reject; psd=yes',
      { psd: 'u', invalid: [{ tag: 'psd', value: 'yes' }] },
    ],
    ['4.7 t: y asks receivers not to apply the policy', 'v=DMARC1; p=reject; t=y', { t: 'y' }],
    [
      '4.8 dmarc-yorn: another value is discarded for n',
      'v=DMARC1; p=reject; t=1',
      { t: 'n', invalid: [{ tag: 't', value: '1' }] },
    ],
    ['4.8 dmarc-fo: 1:d:s', 'v=DMARC1; p=none; fo=1:d:s', { invalid: [] }],
    [
      '4.8 dmarc-fo: 0 and 1 are mutually exclusive',
      'v=DMARC1; p=none; fo=0:1',
      { invalid: [{ tag: 'fo', value: '0:1' }] },
    ],
    ['4.8 dmarc-fo: only 0, 1, d and s', 'v=DMARC1; p=none; fo=2', { invalid: [{ tag: 'fo', value: '2' }] }],
    [
      '4.7: unknown tags are ignored',
      'v=DMARC1; p=none; rau=mailto:d@example.test; x=1',
      { unknown: ['rau', 'x'], rua: [] },
    ],
    ['4.8: a part that is not tag=value is ignored', 'v=DMARC1; p=none; reject', { malformed: ['reject'], p: 'none' }],
    [
      'RFC 6376 3.2 via 4.7: a repeated tag is named, the first one read',
      'v=DMARC1; p=reject; p=none',
      { p: 'reject', repeated: ['p'] },
    ],
    [
      'C.5.2: pct, rf and ri are not unknown tags (RFC 7489 defined them)',
      'v=DMARC1; p=none; pct=50; rf=afrf; ri=3600',
      { unknown: [], pct: 50 },
    ],
    [
      'RFC 7489 6.3 pct: 0 to 100 only, otherwise discarded (7489 receivers apply 100)',
      'v=DMARC1; p=none; pct=150',
      { pct: null, invalid: [{ tag: 'pct', value: '150' }] },
    ],
    [
      'RFC 7489 6.3 pct: a whole number',
      'v=DMARC1; p=none; pct=12.5',
      { pct: null, invalid: [{ tag: 'pct', value: '12.5' }] },
    ],
  ])('%s', (_clause, txt, expected) => {
    expect(parseDmarcRecord(txt)).toMatchObject(expected);
  });

  it('keeps every tag as published, for display (4.7: tags are shown even when unknown)', () => {
    expect(parseDmarcRecord('v=DMARC1; p=reject; pct=100; x=y').tags).toEqual({
      v: 'DMARC1',
      p: 'reject',
      pct: '100',
      x: 'y',
    });
  });
});

describe('report URIs (RFC 9989 4.6, 4.7 rua/ruf, 4.8 dmarc-urilist)', () => {
  it.each([
    [
      '4.8 dmarc-urilist: comma-separated, white space allowed',
      'mailto:a@example.test , mailto:b@reports.example.net',
      ['a@example.test', 'b@reports.example.net'],
      [],
    ],
    ['4.7 rua: any valid URI can be specified (https is a URI)', 'https://reports.example.test/dmarc', [null], []],
    ['4.8 dmarc-uri: a bare address has no scheme, so it is no URI', 'dmarc@example.test', [], ['dmarc@example.test']],
    ['4.8 dmarc-uri: mailto without an address', 'mailto:', [], ['mailto:']],
    [
      '4.8 obs-dmarc-uri: the "!size" suffix is read and set aside',
      'mailto:a@example.test!10m',
      ['a@example.test'],
      [],
    ],
  ])('%s', (_clause, value, addresses, invalid) => {
    const record = parseDmarcRecord(`v=DMARC1; p=none; rua=${value}`);
    expect(record.rua.map((u) => u.address)).toEqual(addresses);
    expect(record.invalid).toEqual(invalid.map((v) => ({ tag: 'rua', value: v })));
  });

  it('reads the host of a mailto address and the obsolete size apart from the URI', () => {
    expect(parseDmarcRecord('v=DMARC1; p=none; ruf=mailto:F@Reports.Example.NET!2m').ruf).toEqual([
      {
        uri: 'mailto:F@Reports.Example.NET',
        scheme: 'mailto',
        address: 'F@Reports.Example.NET',
        host: 'reports.example.net',
        obsoleteSize: '2m',
      },
    ]);
  });
});

describe('when the policy tags make receivers fall back (RFC 9989 4.10.1, RFC 7489 6.6.3 step 6)', () => {
  it.each([
    ['a valid p', 'v=DMARC1; p=quarantine', true],
    ['no p at all', 'v=DMARC1; rua=mailto:d@example.test', false],
    ['an invalid p', 'v=DMARC1; p=maybe', false],
    ['an invalid sp beside a valid p', 'v=DMARC1; p=reject; sp=everything', false],
    ['an invalid np beside a valid p', 'v=DMARC1; p=reject; np=0', false],
  ])('%s', (_case, txt, valid) => {
    expect(policyTagsValid(parseDmarcRecord(txt))).toBe(valid);
  });
});
