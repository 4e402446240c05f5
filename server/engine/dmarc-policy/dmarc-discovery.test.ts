import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer, loopbackResolver } from '../../test/dns-server';
import { discoverDmarcPolicy, dmarcTreeWalk, organizationalDomain, treeWalkNames } from './dmarc-discovery';
import type { DnsResolver } from '../../platform/dns/resolver';

let dns: TestDnsServer;
let resolver: DnsResolver;

const dmarc = (...records: string[]) => ({ TXT: records });

beforeAll(async () => {
  dns = await startDnsServer({
    // B.4.1 with our names: records at the Author Domain and at a signing subdomain, none at the TLD.
    '_dmarc.brandco.test': dmarc('v=DMARC1; p=reject; rua=mailto:dmarc@brandco.test'),
    '_dmarc.signing.brandco.test': dmarc('v=DMARC1; p=none'),
    // B.4.2: a deep Author Domain; the record at a name the shortcut skips must never be read.
    '_dmarc.deepco.test': dmarc('v=DMARC1; p=quarantine; sp=reject'),
    '_dmarc.b.c.d.e.f.g.h.i.j.k.deepco.test': dmarc('v=DMARC1; p=none; psd=n'),
    // B.4.3: a PSD with psd=y, a registrant below it with a record, another without.
    '_dmarc.banksuffix.test': dmarc('v=DMARC1; p=reject; sp=quarantine; np=reject; psd=y'),
    '_dmarc.giant.banksuffix.test': dmarc('v=DMARC1; p=reject'),
    'mail.mega.banksuffix.test': { A: ['192.0.2.20'] },
    // 4.10.2's own examples: records at mail.<org> and <org>; psd=n on the one below.
    '_dmarc.mail.twolevel.test': dmarc('v=DMARC1; p=none'),
    '_dmarc.twolevel.test': dmarc('v=DMARC1; p=reject'),
    '_dmarc.mail.psdn.test': dmarc('v=DMARC1; p=quarantine; psd=n'),
    '_dmarc.psdn.test': dmarc('v=DMARC1; p=reject'),
    // sp= for existing subdomains, np= for non-existent ones, p= when neither is published.
    '_dmarc.policies.test': dmarc('v=DMARC1; p=reject; sp=quarantine; np=none; rua=mailto:d@policies.test'),
    'www.policies.test': { A: ['192.0.2.1'] },
    'txt-only.policies.test': { TXT: ['v=spf1 -all'] },
    '_dmarc.only-p.test': dmarc('v=DMARC1; p=quarantine'),
    '_dmarc.only-sp.test': dmarc('v=DMARC1; p=reject; sp=none'),
    // Two records at one name are both discarded; the walk goes on to the parent.
    '_dmarc.shop.twice.test': dmarc('v=DMARC1; p=none', 'v=DMARC1; p=reject'),
    '_dmarc.twice.test': dmarc('v=DMARC1; p=quarantine'),
    // Records that are not DMARC Policy Records are discarded before counting.
    '_dmarc.noise.test': dmarc('v=spf1 -all', 'v=DMARC1; p=reject', 'p=none; v=DMARC1'),
    // Broken policy tags, with and without a usable rua=.
    '_dmarc.badp-rua.test': dmarc('v=DMARC1; p=block; rua=mailto:d@badp-rua.test'),
    '_dmarc.badp.test': dmarc('v=DMARC1; p=block; rua=dmarc@badp.test'),
    '_dmarc.badsp.test': dmarc('v=DMARC1; p=reject; sp=all; rua=mailto:d@badsp.test'),
    // Testing mode: one level below the published policy.
    '_dmarc.testing.test': dmarc('v=DMARC1; p=reject; sp=quarantine; t=y'),
    'www.testing.test': { A: ['192.0.2.2'] },
    // A parent whose DNS fails.
    '_dmarc.flaky.test': dmarc('v=DMARC1; p=reject'),
  });
  dns.servfail.add('_dmarc.parent-fails.test');
  dns.servfail.add('_dmarc.test');
  resolver = loopbackResolver(dns);
});
afterAll(() => dns?.close());

// _dmarc.test (the TLD) answers SERVFAIL only for the failure cases; the others run on a clean TLD.
const withCleanTld = async <T>(run: () => Promise<T>) => {
  dns.servfail.delete('_dmarc.test');
  try {
    return await run();
  } finally {
    dns.servfail.add('_dmarc.test');
  }
};

describe('the names a DNS tree walk asks (RFC 9989 4.10 steps 3-4, 7)', () => {
  it.each([
    [
      '4.10 step 4: fewer than 8 labels, one label at a time',
      'a.mail.example.test',
      ['a.mail.example.test', 'mail.example.test', 'example.test', 'test'],
    ],
    [
      '4.10: exactly 8 labels, 8 queries',
      'a.b.c.d.e.f.example.test',
      [
        'a.b.c.d.e.f.example.test',
        'b.c.d.e.f.example.test',
        'c.d.e.f.example.test',
        'd.e.f.example.test',
        'e.f.example.test',
        'f.example.test',
        'example.test',
        'test',
      ],
    ],
    [
      '4.10 step 4 and B.4.2: from more than 8 labels straight to 7, never more than 8 queries',
      'a.b.c.d.e.f.g.h.i.j.k.deepco.test',
      [
        'a.b.c.d.e.f.g.h.i.j.k.deepco.test',
        'g.h.i.j.k.deepco.test',
        'h.i.j.k.deepco.test',
        'i.j.k.deepco.test',
        'j.k.deepco.test',
        'k.deepco.test',
        'deepco.test',
        'test',
      ],
    ],
    ['4.10 step 7: down to the last label', 'example.test', ['example.test', 'test']],
  ])('%s', (_clause, domain, names) => {
    expect(treeWalkNames(domain)).toEqual(names);
  });
});

describe('Organizational Domain by tree walk (RFC 9989 4.10.2, Appendix B.4)', () => {
  it.each([
    ['B.4.1: the Author Domain with its own record, none above', 'brandco.test', 'brandco.test'],
    [
      'B.4.1: a DKIM domain under it with its own record: the fewest labels win',
      'signing.brandco.test',
      'brandco.test',
    ],
    [
      'B.4.2: a deep Author Domain; the skipped psd=n record is never read',
      'a.b.c.d.e.f.g.h.i.j.k.deepco.test',
      'deepco.test',
    ],
    [
      'B.4.3: psd=y above a registrant with a record: the name one label below the PSD',
      'giant.banksuffix.test',
      'giant.banksuffix.test',
    ],
    [
      'B.4.3: the MAIL FROM domain under it: the same Organizational Domain',
      'mail.giant.banksuffix.test',
      'giant.banksuffix.test',
    ],
    ['B.4.3: a DKIM domain under another registrant of the PSD', 'mail.mega.banksuffix.test', 'mega.banksuffix.test'],
    ['4.10.2 example 1: records at mail.<org> and <org>: <org>', 'a.mail.twolevel.test', 'twolevel.test'],
    ['4.10.2 example 2 and rule 1: psd=n stops the walk at its own name', 'a.mail.psdn.test', 'mail.psdn.test'],
    ['4.10.2 rule 2: psd=y at the start of the walk does not count', 'banksuffix.test', 'banksuffix.test'],
    ['4.10.2: no record anywhere: the domain itself', 'nothing.nowhere.test', 'nothing.nowhere.test'],
  ])('%s', async (_clause, domain, org) => {
    const walk = await withCleanTld(() => dmarcTreeWalk(resolver, domain));
    expect(walk.failed).toBeNull();
    expect(organizationalDomain(walk)).toBe(org);
  });

  it('4.10 step 2: stops at a psd=y record without asking further (B.4.3: the walk for mail.mega stops at the PSD)', async () => {
    const walk = await dmarcTreeWalk(resolver, 'mail.mega.banksuffix.test');
    // _dmarc.test answers SERVFAIL here: the walk stopped before it, so nothing failed.
    expect(walk.steps.map((s) => s.domain)).toEqual([
      'mail.mega.banksuffix.test',
      'mega.banksuffix.test',
      'banksuffix.test',
    ]);
    expect(walk.failed).toBeNull();
  });

  it('4.10.1: a failed lookup leaves the Organizational Domain open, never "no record"', async () => {
    const walk = await dmarcTreeWalk(resolver, 'www.flaky.test');
    expect(walk.failed).toEqual({ name: '_dmarc.test', code: 'ESERVFAIL' });
    expect(organizationalDomain(walk)).toBeNull();
  });
});

describe('DMARC policy discovery (RFC 9989 4.10.1)', () => {
  it.each([
    [
      '4.10.1: the Author Domain’s own record, its p=',
      'brandco.test',
      { source: 'author-domain', domain: 'brandco.test' },
      { tag: 'p', policy: 'reject' },
    ],
    [
      'B.4.2: a deep Author Domain gets its Organizational Domain’s record',
      'a.b.c.d.e.f.g.h.i.j.k.deepco.test',
      { source: 'organizational-domain', domain: 'deepco.test' },
      { tag: 'sp', policy: 'reject' },
    ],
    [
      'B.4.3: a registrant with its own record under a PSD',
      'giant.banksuffix.test',
      { source: 'author-domain', domain: 'giant.banksuffix.test' },
      { tag: 'p', policy: 'reject' },
    ],
    [
      '4.10.1: no record at the Author Domain or its Organizational Domain: the PSD’s sp= for an existing name',
      'mail.mega.banksuffix.test',
      { source: 'public-suffix-domain', domain: 'banksuffix.test' },
      { tag: 'sp', policy: 'quarantine' },
    ],
    [
      '4.10.1 and 3.2.13: the PSD’s np= for a name that does not exist (NXDOMAIN)',
      'gone.mega.banksuffix.test',
      { source: 'public-suffix-domain', domain: 'banksuffix.test' },
      { tag: 'np', policy: 'reject' },
    ],
    [
      '4.10.1: an existing subdomain gets sp=',
      'www.policies.test',
      { source: 'organizational-domain', domain: 'policies.test' },
      { tag: 'sp', policy: 'quarantine' },
    ],
    [
      'A.4: a name with only a TXT record exists (NODATA for A is not NXDOMAIN): sp=',
      'txt-only.policies.test',
      { source: 'organizational-domain' },
      { tag: 'sp', policy: 'quarantine' },
    ],
    [
      '4.7 np and 3.2.13: a non-existent subdomain gets np=',
      'gone.policies.test',
      { source: 'organizational-domain' },
      { tag: 'np', policy: 'none' },
    ],
    [
      '4.7 sp: without sp= or np= a subdomain gets p=',
      'gone.only-p.test',
      { source: 'organizational-domain' },
      { tag: 'p', policy: 'quarantine' },
    ],
    [
      '4.7 np: without np= a non-existent subdomain gets sp=',
      'gone.only-sp.test',
      { source: 'organizational-domain' },
      { tag: 'sp', policy: 'none' },
    ],
    [
      '4.10 step 2: two records at the Author Domain are both discarded; the parent’s record applies',
      'shop.twice.test',
      { source: 'organizational-domain', domain: 'twice.test' },
      { tag: 'p', policy: 'quarantine' },
    ],
    [
      '4.10 step 2: records without v=DMARC1 first are discarded before counting',
      'noise.test',
      { source: 'author-domain' },
      { tag: 'p', policy: 'reject' },
    ],
    [
      '4.10.1: an invalid p= with a valid rua= URI is read as p=none',
      'badp-rua.test',
      { source: 'author-domain' },
      { tag: 'p', policy: 'none', fallback: 'none-for-invalid-policy' },
    ],
    [
      '4.10.1: an invalid p= without a valid rua= URI: no DMARC processing',
      'badp.test',
      { source: 'author-domain' },
      { tag: 'p', policy: null, fallback: 'no-dmarc-processing' },
    ],
    [
      '4.10.1: an invalid sp= makes even the domain’s own p= fall back to none',
      'badsp.test',
      { source: 'author-domain' },
      { tag: 'p', requested: 'reject', policy: 'none', fallback: 'none-for-invalid-policy' },
    ],
    [
      '4.7 t=y: p=reject is applied as quarantine',
      'testing.test',
      { source: 'author-domain' },
      { tag: 'p', requested: 'reject', policy: 'quarantine', testing: true },
    ],
    [
      '4.7 t=y: sp=quarantine is applied as none',
      'www.testing.test',
      { source: 'organizational-domain' },
      { tag: 'sp', requested: 'quarantine', policy: 'none', testing: true },
    ],
  ])('%s', async (_clause, domain, found, policy) => {
    const discovery = await withCleanTld(() => discoverDmarcPolicy(resolver, domain));
    expect(discovery.failed).toBeNull();
    expect(discovery.found).toMatchObject(found);
    expect(discovery.policy).toMatchObject(policy);
  });

  it('4.10.1: no record anywhere: the DMARC mechanism does not apply', async () => {
    const discovery = await withCleanTld(() => discoverDmarcPolicy(resolver, 'www.nothing.test'));
    expect(discovery).toMatchObject({
      found: null,
      policy: null,
      failed: null,
      organizationalDomain: 'www.nothing.test',
    });
  });

  it('4.10.1: a lookup that fails before a record is found is reported (temperror), not read as "no record"', async () => {
    const discovery = await discoverDmarcPolicy(resolver, 'news.parent-fails.test');
    expect(discovery.found).toBeNull();
    expect(discovery.failed).toEqual({ name: '_dmarc.parent-fails.test', code: 'ESERVFAIL' });
  });

  it('4.10.1: the Author Domain’s own record applies even when the walk above it fails', async () => {
    const discovery = await discoverDmarcPolicy(resolver, 'flaky.test');
    expect(discovery).toMatchObject({
      found: { source: 'author-domain' },
      policy: { policy: 'reject' },
      failed: null,
      organizationalDomain: null,
    });
  });
});
