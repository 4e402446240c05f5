import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpfNode } from '@contracts/domains';
import { loopbackResolver, startDnsServer, type TestDnsServer } from '../../test/dns-server';
import { createResolver, type DnsResolver } from '../../platform/dns/resolver';
import { checkSpf } from './spf';
import { evaluateForSenders } from './spf-senders';

/*
 * The SPF check as a receiver evaluates the record (RFC 7208), against records shaped as providers
 * publish them, on the loopback DNS zone. Each case names the clause it enforces.
 */

let dns: TestDnsServer;
let resolver: DnsResolver;
beforeAll(async () => {
  dns = await startDnsServer();
  resolver = loopbackResolver(dns);
  // A bulk-mail provider's include, as ESPs publish them: a nested include and ranges.
  dns.zone['_spf.mailer-one.net'] = { TXT: ['v=spf1 include:_netblocks.mailer-one.net ip4:203.0.113.0/24 ~all'] };
  dns.zone['_netblocks.mailer-one.net'] = { TXT: ['v=spf1 ip4:198.51.100.0/24 ip6:2001:db8:100::/48 ~all'] };
});
afterAll(() => dns.close());

type Check = Awaited<ReturnType<typeof checkSpf>>;
const messages = (spf: Check, severity: 'error' | 'warning' | 'info') =>
  spf.findings.filter((f) => f.severity === severity).map((f) => f.message);
const terms = (node: SpfNode | null) =>
  node?.terms?.map(({ term, lookups, voids, voidsIpv6, note }) => ({ term, lookups, voids, voidsIpv6, note }));

describe('RFC 7208 4.6 and 5.1, 6.1: where evaluation stops', () => {
  it('5.1: mechanisms after "all" are never evaluated, count nothing and cannot break the record', async () => {
    dns.zone['after-all.test'] = {
      TXT: [
        'v=spf1 include:_spf.mailer-one.net -all include:_spf.retired-esp.test a:gone1.after-all.test a:gone2.after-all.test mx:gone3.after-all.test',
      ],
    };
    const spf = await checkSpf(resolver, 'after-all.test');
    expect(spf).toMatchObject({ status: 'valid', lookupCount: 2, voidLookupCount: 0, voidLookupCountIpv6: 0 });
    expect(messages(spf, 'warning')).toEqual([
      '"include:_spf.retired-esp.test", "a:gone1.after-all.test", "a:gone2.after-all.test", "mx:gone3.after-all.test" in the SPF record of after-all.test come after "all", so receivers never evaluate them (RFC 7208 section 5.1).',
    ]);
    const never = 'Never evaluated: it comes after "all" (RFC 7208 section 5.1).';
    expect(terms(spf.tree)).toEqual([
      { term: 'include:_spf.mailer-one.net', lookups: 2, voids: 0, voidsIpv6: 0, note: null },
      { term: '-all', lookups: 0, voids: 0, voidsIpv6: 0, note: null },
      { term: 'include:_spf.retired-esp.test', lookups: 0, voids: 0, voidsIpv6: 0, note: never },
      { term: 'a:gone1.after-all.test', lookups: 0, voids: 0, voidsIpv6: 0, note: never },
      { term: 'a:gone2.after-all.test', lookups: 0, voids: 0, voidsIpv6: 0, note: never },
      { term: 'mx:gone3.after-all.test', lookups: 0, voids: 0, voidsIpv6: 0, note: never },
    ]);
  });

  it('5.1: a second "all" is never evaluated either', async () => {
    dns.zone['all-twice.test'] = { TXT: ['v=spf1 ~all -all'] };
    expect(messages(await checkSpf(resolver, 'all-twice.test'), 'warning')).toEqual([
      '"-all" in the SPF record of all-twice.test comes after "all", so receivers never evaluate it (RFC 7208 section 5.1).',
    ]);
  });

  it('6.1: redirect= is ignored when the record has "all", wherever it is written', async () => {
    // The OpenSPF suite's redirect-after-mechanisms1: a redirect that would loop, never followed.
    dns.zone['redirect-and-all.test'] = { TXT: ['v=spf1 redirect=redirect-and-all.test ip4:192.0.2.0/24 -all'] };
    const spf = await checkSpf(resolver, 'redirect-and-all.test');
    expect(spf).toMatchObject({ status: 'valid', lookupCount: 0, voidLookupCount: 0 });
    expect(spf.tree!.children).toEqual([]);
    expect(terms(spf.tree)![0]).toEqual({
      term: 'redirect=redirect-and-all.test',
      lookups: 0,
      voids: 0,
      voidsIpv6: 0,
      note: 'Ignored: the record has "all", so redirect= never applies (RFC 7208 section 6.1).',
    });
    expect(messages(spf, 'warning')).toEqual([
      '"redirect=redirect-and-all.test" in the SPF record of redirect-and-all.test is ignored: a record with "all" never follows redirect= (RFC 7208 section 6.1).',
    ]);
  });

  it('4.6: a syntax error after "all" still breaks the record', async () => {
    // The OpenSPF suite's detect-errors-anywhere.
    dns.zone['error-after-all.test'] = { TXT: ['v=spf1 ip4:192.0.2.4 -all moo'] };
    const spf = await checkSpf(resolver, 'error-after-all.test');
    expect(spf.status).toBe('invalid');
    expect(messages(spf, 'error')[0]).toContain('"moo" in the SPF record of error-after-all.test is invalid');
  });

  it('4.6.4: each term shows its lookups and void lookups, an include with what its record needs', async () => {
    dns.zone['per-term.test'] = {
      TXT: [
        'v=spf1 include:_spf.mailer-one.net mx a:relay.per-term.test exists:gone.per-term.test ip4:192.0.2.0/24 ~all',
      ],
      MX: [{ exchange: 'mx1.per-term.test', priority: 10 }],
    };
    dns.zone['mx1.per-term.test'] = { A: ['192.0.2.25'], AAAA: ['2001:db8::25'] };
    dns.zone['relay.per-term.test'] = { A: ['192.0.2.26'] };
    const spf = await checkSpf(resolver, 'per-term.test');
    expect(spf).toMatchObject({ status: 'valid', lookupCount: 5, voidLookupCount: 1, voidLookupCountIpv6: 2 });
    expect(terms(spf.tree)).toEqual([
      { term: 'include:_spf.mailer-one.net', lookups: 2, voids: 0, voidsIpv6: 0, note: null },
      { term: 'mx', lookups: 1, voids: 0, voidsIpv6: 0, note: null },
      // An IPv6 sender's a lookup asks for AAAA records only (5.3): a name with A records only is void for it.
      { term: 'a:relay.per-term.test', lookups: 1, voids: 0, voidsIpv6: 1, note: null },
      // exists asks for A records whatever the connection (5.7).
      { term: 'exists:gone.per-term.test', lookups: 1, voids: 1, voidsIpv6: 1, note: null },
      { term: 'ip4:192.0.2.0/24', lookups: 0, voids: 0, voidsIpv6: 0, note: null },
      { term: '~all', lookups: 0, voids: 0, voidsIpv6: 0, note: null },
    ]);
    expect(spf.tree!.children[0].terms![0]).toMatchObject({ term: 'include:_netblocks.mailer-one.net', lookups: 1 });
  });

  it('4.6.4: terms past the tenth lookup are not looked up, a receiver having stopped before them', async () => {
    const includes = Array.from({ length: 10 }, (_, i) => `include:n${i}.limit-esp.test`).join(' ');
    for (let i = 0; i < 10; i++) dns.zone[`n${i}.limit-esp.test`] = { TXT: ['v=spf1 ip4:203.0.113.9 -all'] };
    dns.zone['past-limit.test'] = { TXT: [`v=spf1 ${includes} a:gone.past-limit.test -all`] };
    const spf = await checkSpf(resolver, 'past-limit.test');
    expect(spf).toMatchObject({ status: 'invalid', lookupCount: 11, voidLookupCount: 0 });
    expect(terms(spf.tree)![10]).toEqual({
      term: 'a:gone.past-limit.test',
      lookups: 1,
      voids: 0,
      voidsIpv6: 0,
      note: 'Not looked up: receivers stop with a permanent error at the 10-lookup limit before this term.',
    });
  });
});

describe('RFC 7208 7: macros', () => {
  it('6.1, 7.3: redirect=_spf.%{d} is expanded with the domain and followed', async () => {
    dns.zone['macro-redirect.test'] = { TXT: ['v=spf1 redirect=_spf.%{d}'] };
    dns.zone['_spf.macro-redirect.test'] = { TXT: ['v=spf1 include:_spf.mailer-one.net -all'] };
    const spf = await checkSpf(resolver, 'macro-redirect.test');
    expect(spf).toMatchObject({ status: 'valid', lookupCount: 3, voidLookupCount: 0 });
    expect(spf.tree!.children[0]).toMatchObject({ domain: '_spf.macro-redirect.test', error: null });
    expect(spf.senderEvaluation).toBeUndefined();
  });

  it('7.3: %{d} is the domain of the record being evaluated, %{o} the checked domain, through an include', async () => {
    dns.zone['_spf.allowlist-esp.test'] = { TXT: ['v=spf1 exists:%{o}._allow.%{d} -all'] };
    dns.zone['brand-allowed.test._allow._spf.allowlist-esp.test'] = { A: ['127.0.0.2'] };
    dns.zone['brand-allowed.test'] = { TXT: ['v=spf1 include:_spf.allowlist-esp.test -all'] };
    dns.zone['brand-unlisted.test'] = { TXT: ['v=spf1 include:_spf.allowlist-esp.test -all'] };
    expect(await checkSpf(resolver, 'brand-allowed.test')).toMatchObject({
      status: 'valid',
      lookupCount: 2,
      voidLookupCount: 0,
    });
    const unlisted = await checkSpf(resolver, 'brand-unlisted.test');
    expect(unlisted).toMatchObject({ lookupCount: 2, voidLookupCount: 1 });
    expect(terms(unlisted.tree!.children[0])![0]).toMatchObject({ term: 'exists:%{o}._allow.%{d}', voids: 1 });
  });

  it('7.3: a name built from the sender (hosted SPF) counts its lookup, no void, and says it depends on the sender', async () => {
    dns.zone['hosted-spf.test'] = { TXT: ['v=spf1 include:%{i}._ip.%{h}._ehlo.%{d}._spf.vali.email ~all'] };
    const spf = await checkSpf(resolver, 'hosted-spf.test');
    expect(spf).toMatchObject({ status: 'valid', lookupCount: 1, voidLookupCount: 0, voidLookupCountIpv6: 0 });
    expect(terms(spf.tree)![0]).toEqual({
      term: 'include:%{i}._ip.%{h}._ehlo.%{d}._spf.vali.email',
      lookups: 1,
      voids: 0,
      voidsIpv6: 0,
      note: 'Depends on the sender: the name is built from %{i}, %{h} for each message; it counts one lookup.',
    });
    expect(messages(spf, 'info')).toContain(
      'The SPF record depends on the sender: include:%{i}._ip.%{h}._ehlo.%{d}._spf.vali.email builds its name from the sending IP or address, so receivers look it up for each message. It will be evaluated for your sending IPs once DMARC reports or inbox-test messages show them.',
    );
    expect(spf.senderEvaluation).toEqual({
      sender: 'postmaster@hosted-spf.test',
      helo: 'hosted-spf.test',
      results: [],
    });
  });

  const syntax: [string, string, string][] = [
    [
      '7.1 a macro in parentheses',
      'v=spf1 -exists:%(ir).sbl.macro-errors.test ?all',
      'a "%" must start a macro such as %{d}, or be written %% for a percent sign',
    ],
    [
      '7.1 a lone %',
      'v=spf1 exists:foo%.sbl.macro-errors.test ?all',
      'a "%" must start a macro such as %{d}, or be written %% for a percent sign',
    ],
    [
      '7.1 an unknown letter',
      'v=spf1 a:%{a}.macro-errors.test -all',
      '%{a} is not a macro letter (s, l, o, d, i, p, h or v)',
    ],
    [
      '7.1 c, r, t only in explanation text',
      'v=spf1 -all exp=%{r}.macro-errors.test',
      '%{r} may only be used in explanation text, not in a domain name',
    ],
    [
      '7.1 an unknown modifier with a bad macro',
      'v=spf1 -all foo=%abc',
      'a "%" must start a macro such as %{d}, or be written %% for a percent sign',
    ],
    [
      '7.1 a domain-spec without a toplabel',
      'v=spf1 a:foo-bar -all',
      '"foo-bar" does not end in a top-level label such as ".com" (or in a macro)',
    ],
  ];
  it.each(syntax)('%s is a permanent error', async (_clause, record, problem) => {
    dns.zone['macro-errors.test'] = { TXT: [record] };
    const spf = await checkSpf(resolver, 'macro-errors.test');
    expect(spf.status).toBe('invalid');
    expect(messages(spf, 'error').join('\n')).toContain(problem);
  });

  it('4.8: a name a DNS query cannot carry is a finding on its term, not a failed check', async () => {
    dns.zone['empty-label.test'] = { TXT: ['v=spf1 a:mail.empty-label..test ip4:192.0.2.1 -all'] };
    const spf = await checkSpf(resolver, 'empty-label.test');
    expect(spf.status).toBe('invalid');
    expect(messages(spf, 'error')).toEqual([
      '"a:mail.empty-label..test" in the SPF record of empty-label.test names a domain that cannot be looked up: "mail.empty-label..test" has an empty label (two dots in a row). RFC 7208 leaves the result undefined (section 4.8): some receivers return a permanent error for the whole record, others skip the term.',
    ]);
  });
});

describe('RFC 7208 permanent errors', () => {
  it('4.5, 5.2: an included domain that publishes two SPF records', async () => {
    dns.zone['_spf.doubled-esp.test'] = { TXT: ['v=spf1 ip4:203.0.113.0/24 -all', 'v=spf1 ip4:198.51.100.0/24 -all'] };
    dns.zone['include-two.test'] = { TXT: ['v=spf1 include:_spf.doubled-esp.test -all'] };
    const spf = await checkSpf(resolver, 'include-two.test');
    expect(spf.status).toBe('invalid');
    expect(messages(spf, 'error')).toEqual([
      'The include "_spf.doubled-esp.test" publishes 2 SPF records; receivers treat more than one as a permanent error (RFC 7208 sections 4.5 and 5.2).',
    ]);
    expect(spf.tree!.children[0]).toMatchObject({ domain: '_spf.doubled-esp.test', error: '2 SPF records' });
  });

  it('4.5, 6.1: a redirected domain that publishes two SPF records', async () => {
    dns.zone['redirect-two.test'] = { TXT: ['v=spf1 redirect=_spf.doubled-esp.test'] };
    expect(messages(await checkSpf(resolver, 'redirect-two.test'), 'error')).toEqual([
      'The redirect "_spf.doubled-esp.test" publishes 2 SPF records; receivers treat more than one as a permanent error (RFC 7208 sections 4.5 and 6.1).',
    ]);
  });

  const twice: [string, string, string][] = [
    [
      '6 redirect= twice',
      'v=spf1 redirect=_spf.mailer-one.net redirect=_spf.mailer-one.net',
      'redirect= appears 2 times, and may appear at most once',
    ],
    [
      '6 exp= twice',
      'v=spf1 exp=why.twice.test -all exp=why.twice.test',
      'exp= appears 2 times, and may appear at most once',
    ],
  ];
  it.each(twice)('%s', async (_clause, record, problem) => {
    dns.zone['twice.test'] = { TXT: [record] };
    const spf = await checkSpf(resolver, 'twice.test');
    expect(spf.status).toBe('invalid');
    expect(messages(spf, 'error').join('\n')).toContain(
      `${problem}. Receivers treat the whole record as a permanent error (RFC 7208 section 6).`,
    );
  });

  it('4.6.4: names with A records only are void lookups for an IPv6 sender, which gets a permanent error', async () => {
    dns.zone['ipv4-only.test'] = {
      TXT: ['v=spf1 a:out1.ipv4-only.test a:out2.ipv4-only.test a:out3.ipv4-only.test -all'],
    };
    for (const host of ['out1', 'out2', 'out3']) dns.zone[`${host}.ipv4-only.test`] = { A: ['192.0.2.30'] };
    const spf = await checkSpf(resolver, 'ipv4-only.test');
    expect(spf).toMatchObject({ status: 'invalid', voidLookupCount: 0, voidLookupCountIpv6: 3 });
    expect(messages(spf, 'error')).toEqual([
      "Mail sent over IPv6 gets a permanent error: for an IPv6 sender, 3 lookups find no records (void lookups): a:out1.ipv4-only.test, a:out2.ipv4-only.test, a:out3.ipv4-only.test. The limit is 2 (RFC 7208 section 4.6.4); an IPv6 sender's a and mx lookups ask for AAAA records, and these names have none.",
    ]);
  });

  it('4.6.4: the address lookups of mx hosts count as void lookups', async () => {
    dns.zone['mx-hosts-gone.test'] = {
      TXT: ['v=spf1 mx -all'],
      MX: ['mx1', 'mx2', 'mx3'].map((h, i) => ({ exchange: `${h}.mx-hosts-gone.test`, priority: 10 + i })),
    };
    const spf = await checkSpf(resolver, 'mx-hosts-gone.test');
    expect(spf).toMatchObject({ status: 'invalid', lookupCount: 1, voidLookupCount: 3, voidLookupCountIpv6: 3 });
    expect(messages(spf, 'error')).toEqual([
      '3 lookups find no records at all (void lookups): mx (MX host mx1.mx-hosts-gone.test), mx (MX host mx2.mx-hosts-gone.test), mx (MX host mx3.mx-hosts-gone.test). The limit is 2, beyond which receivers return a permanent error (RFC 7208 section 4.6.4).',
    ]);
  });
});

describe('DNS errors inside a record', () => {
  it('a failed lookup of an include, a, mx, exists or redirect target is a warning on that term, and the check completes', async () => {
    for (const name of [
      '_spf.down-esp.test',
      'relay.down-esp.test',
      'mx.down-esp.test',
      'allow.down-esp.test',
      '_spf2.down-esp.test',
    ])
      dns.servfail.add(name);
    dns.zone['dns-errors.test'] = {
      TXT: [
        'v=spf1 include:_spf.down-esp.test a:relay.down-esp.test mx:mx.down-esp.test exists:allow.down-esp.test redirect=_spf2.down-esp.test',
      ],
    };
    const spf = await checkSpf(resolver, 'dns-errors.test');
    expect(spf).toMatchObject({ status: 'valid', lookupCount: 5, voidLookupCount: 0 });
    expect(messages(spf, 'warning')).toEqual([
      '"include:_spf.down-esp.test" in the SPF record of dns-errors.test could not be checked: the DNS lookup of TXT _spf.down-esp.test failed (SERVFAIL).',
      '"a:relay.down-esp.test" in the SPF record of dns-errors.test could not be checked: the DNS lookup of A relay.down-esp.test failed (SERVFAIL).',
      '"mx:mx.down-esp.test" in the SPF record of dns-errors.test could not be checked: the DNS lookup of MX mx.down-esp.test failed (SERVFAIL).',
      '"exists:allow.down-esp.test" in the SPF record of dns-errors.test could not be checked: the DNS lookup of A allow.down-esp.test failed (SERVFAIL).',
      '"redirect=_spf2.down-esp.test" in the SPF record of dns-errors.test could not be checked: the DNS lookup of TXT _spf2.down-esp.test failed (SERVFAIL).',
    ]);
    expect(terms(spf.tree)![0].note).toBe(
      'Could not be checked: the lookup of TXT _spf.down-esp.test failed (SERVFAIL).',
    );
    expect(spf.tree!.children[0]).toMatchObject({ domain: '_spf.down-esp.test', error: 'DNS lookup failed' });
  });
});

describe('evaluation for the sending IPs the product knows', () => {
  it('7: evaluates a record that depends on the sender for each known IP with mailauth', async () => {
    // A per-IP allowlist, as reputation services publish them: %{ir} under the domain's own zone.
    dns.zone['per-ip.test'] = { TXT: ['v=spf1 exists:%{ir}._allow.%{d} include:%{ir}._hosts.%{d} -all'] };
    dns.zone['10.2.0.192._allow.per-ip.test'] = { A: ['127.0.0.2'] };
    const spf = await checkSpf(resolver, 'per-ip.test', ['192.0.2.10', '198.51.100.7']);
    expect(spf.senderEvaluation).toMatchObject({
      sender: 'postmaster@per-ip.test',
      helo: 'per-ip.test',
      results: [
        {
          ip: '192.0.2.10',
          result: 'pass',
          reason: 'Domain of postmaster@per-ip.test designates 192.0.2.10 as permitted sender.',
        },
        // The include of a name without an SPF record is a permanent error (5.2) for this sender.
        { ip: '198.51.100.7', result: 'permerror' },
      ],
    });
    expect(messages(spf, 'error')).toEqual([
      expect.stringMatching(/^Mail from 198\.51\.100\.7, one of your sending IPs, gets a permanent SPF error: /),
    ]);
    expect(messages(spf, 'info')[0]).toContain(
      'It was evaluated as a receiver would for 2 sending IPs seen in DMARC reports and inbox tests',
    );
  });

  it('gives up on an IP whose lookups do not answer in time, as a receiver does (temperror)', async () => {
    dns.zone['slow-ip.test'] = { TXT: ['v=spf1 exists:%{i}._allow.slow-dns.test -all'] };
    dns.silent.add('slow-dns.test');
    const slow = createResolver({ servers: [dns.address], timeoutMs: 5000, tries: 1, maxCacheSeconds: 0 });
    expect(await evaluateForSenders(slow, 'slow-ip.test', ['192.0.2.11'], 300)).toEqual([
      { ip: '192.0.2.11', result: 'temperror', reason: 'The DNS lookups it needs gave no answer within 0.3 seconds.' },
    ]);
  });
});
