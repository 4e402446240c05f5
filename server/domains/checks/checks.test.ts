import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDnsServer, startLoopbackDns } from '../../test/dns-server';
import type { DnsResolver } from '../../platform/dns/resolver';
import { checkDkim } from './dkim';
import { checkDmarc } from './dmarc';
import { domainStatus, runDomainChecks } from './run-checks';
import { checkSpf } from './spf';

let dns: TestDnsServer;
let resolver: DnsResolver;
beforeAll(async () => ({ dns, resolver } = await startLoopbackDns()));
afterAll(() => dns.close());

const key = (bits: number) =>
  generateKeyPairSync('rsa', { modulusLength: bits })
    .publicKey.export({ type: 'spki', format: 'der' })
    .toString('base64');

describe('SPF', () => {
  it('counts lookups through nested includes and redirect and shows the tree', async () => {
    dns.zone['spf-ok.com'] = {
      TXT: ['v=spf1 include:_spf.esp.net mx ip4:192.0.2.0/24 -all'],
      MX: [{ exchange: 'mx.spf-ok.com', priority: 10 }],
    };
    dns.zone['_spf.esp.net'] = { TXT: ['v=spf1 include:a.esp.net include:b.esp.net ~all'] };
    dns.zone['a.esp.net'] = { TXT: ['v=spf1 ip4:198.51.100.0/24 -all'] };
    dns.zone['b.esp.net'] = { TXT: ['v=spf1 a:relay.esp.net -all'] };
    dns.zone['relay.esp.net'] = { A: ['198.51.100.7'] };
    // The MX host's address lookup is the mx mechanism's too: a host without one would be a void lookup (RFC 7208
    // 4.6.4).
    dns.zone['mx.spf-ok.com'] = { A: ['192.0.2.25'] };
    const spf = await checkSpf(resolver, 'spf-ok.com');
    expect(spf.status).toBe('valid');
    expect(spf.lookupCount).toBe(5); // include, mx; include, include; a
    expect(spf.voidLookupCount).toBe(0);
    expect(spf.tree!.children[0].domain).toBe('_spf.esp.net');
    expect(spf.tree!.children[0].children.map((c) => c.domain)).toEqual(['a.esp.net', 'b.esp.net']);
  });

  it('fails past 10 lookups, explaining the limit', async () => {
    const includes = Array.from({ length: 11 }, (_, i) => `include:s${i}.many.net`).join(' ');
    dns.zone['too-many.com'] = { TXT: [`v=spf1 ${includes} -all`] };
    for (let i = 0; i < 11; i++) dns.zone[`s${i}.many.net`] = { TXT: ['v=spf1 ip4:203.0.113.1 -all'] };
    const spf = await checkSpf(resolver, 'too-many.com');
    expect(spf.status).toBe('invalid');
    expect(spf.lookupCount).toBe(11);
    expect(
      spf.findings.some((f) => f.severity === 'error' && f.message.includes('11 DNS lookups; the limit is 10')),
    ).toBe(true);
  });

  it('counts void lookups, flags +all, ?all and ptr, and rejects two records and bad syntax', async () => {
    dns.zone['voids.com'] = { TXT: ['v=spf1 a:gone1.voids.com a:gone2.voids.com mx:gone3.voids.com -all'] };
    const voids = await checkSpf(resolver, 'voids.com');
    expect(voids.voidLookupCount).toBe(3);
    expect(voids.status).toBe('invalid');

    dns.zone['plus.com'] = { TXT: ['v=spf1 +all'] };
    expect((await checkSpf(resolver, 'plus.com')).findings[0].message).toContain('"+all"');
    dns.zone['neutral.com'] = { TXT: ['v=spf1 ptr ?all'] };
    const neutral = await checkSpf(resolver, 'neutral.com');
    expect(neutral.status).toBe('valid');
    expect(neutral.findings.map((f) => f.severity).sort()).toEqual(['warning', 'warning']);
    dns.zone['two.com'] = { TXT: ['v=spf1 -all', 'v=spf1 ~all'] };
    expect((await checkSpf(resolver, 'two.com')).status).toBe('invalid');
    dns.zone['typo.com'] = { TXT: ['v=spf1 inclde:x.com -all'] };
    expect((await checkSpf(resolver, 'typo.com')).findings[0].message).toContain('"inclde:x.com"');
    expect((await checkSpf(resolver, 'nospf.com')).status).toBe('missing');
  });
});

describe('SPF permanent errors of RFC 7208 4.6.4 and 5.6', () => {
  const errors = (spf: { findings: { severity: string; message: string }[] }) =>
    spf.findings.filter((f) => f.severity === 'error').map((f) => f.message);

  it('counts exists: mechanisms that find no A record as void lookups, and names them', async () => {
    dns.zone['exists-voids.com'] = {
      TXT: ['v=spf1 exists:gone1.exists-voids.com exists:gone2.exists-voids.com exists:gone3.exists-voids.com -all'],
    };
    const spf = await checkSpf(resolver, 'exists-voids.com');
    expect(spf.voidLookupCount).toBe(3);
    expect(spf.status).toBe('invalid');
    expect(errors(spf)).toEqual([
      '3 lookups find no records at all (void lookups): exists:gone1.exists-voids.com, exists:gone2.exists-voids.com, exists:gone3.exists-voids.com. The limit is 2, beyond which receivers return a permanent error (RFC 7208 section 4.6.4).',
    ]);

    // A macro names a different domain for each sender: nothing to look up, so no void.
    dns.zone['exists-macro.com'] = {
      TXT: ['v=spf1 exists:%{i}._spf.a.net exists:%{i}._spf.b.net exists:%{i}._spf.c.net -all'],
    };
    expect(await checkSpf(resolver, 'exists-macro.com')).toMatchObject({ status: 'valid', voidLookupCount: 0 });
  });

  it('fails an mx mechanism whose domain has more than 10 MX hosts', async () => {
    const hosts = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ exchange: `mx${i}.mail.net`, priority: 10 + i }));
    // Hosts with both kinds of address, so only the count of hosts is at stake (a host without one is a void lookup).
    for (let i = 0; i < 11; i++)
      dns.zone[`mx${i}.mail.net`] = { A: [`192.0.2.${i + 1}`], AAAA: [`2001:db8::${i + 1}`] };
    dns.zone['eleven-mx.net'] = { MX: hosts(11) };
    dns.zone['ten-mx.net'] = { MX: hosts(10) };
    dns.zone['mx-eleven.com'] = { TXT: ['v=spf1 mx:eleven-mx.net -all'] };
    dns.zone['mx-ten.com'] = { TXT: ['v=spf1 mx:ten-mx.net -all'] };
    const spf = await checkSpf(resolver, 'mx-eleven.com');
    expect(spf.status).toBe('invalid');
    expect(errors(spf)).toEqual([
      '"mx:eleven-mx.net" in the SPF record of mx-eleven.com points at 11 MX hosts; receivers look up the addresses of at most 10, so the whole record is a permanent error (RFC 7208 section 4.6.4).',
    ]);
    expect((await checkSpf(resolver, 'mx-ten.com')).status).toBe('valid');
  });

  it('fails ip4:/ip6: values that are not addresses and CIDR lengths out of range', async () => {
    const check = async (name: string, term: string) => {
      dns.zone[name] = { TXT: [`v=spf1 ${term} -all`], A: ['192.0.2.1'], MX: [{ exchange: name, priority: 10 }] };
      return checkSpf(resolver, name);
    };
    expect(errors(await check('bad-ip4.com', 'ip4:300.1.1.1'))).toEqual([
      '"ip4:300.1.1.1" in the SPF record of bad-ip4.com is invalid: "300.1.1.1" is not an IPv4 address (four numbers from 0 to 255). Receivers treat the whole record as a permanent error (RFC 7208 section 5.6).',
    ]);
    expect(errors(await check('bad-cidr4.com', 'ip4:1.2.3.4/33'))).toEqual([
      '"ip4:1.2.3.4/33" in the SPF record of bad-cidr4.com is invalid: the IPv4 prefix length /33 is outside /0 to /32. Receivers treat the whole record as a permanent error (RFC 7208 section 5.6).',
    ]);
    expect((await check('bad-cidr4-fix.com', 'ip4:1.2.3.4/33')).findings[0].fix).toContain('ip4:192.0.2.0/24');
    expect((await check('bad-ip6.com', 'ip6:2001:db8::zz')).status).toBe('invalid');
    expect((await check('v4-in-ip6.com', 'ip6:192.0.2.1')).status).toBe('invalid');
    expect(errors(await check('bad-cidr6.com', 'ip6:2001:db8::/129'))[0]).toContain(
      'the IPv6 prefix length /129 is outside /0 to /128',
    );
    expect(errors(await check('bad-a-cidr.com', 'a/33'))[0]).toContain('"a/33"');
    expect(errors(await check('bad-mx-cidr.com', 'mx:bad-mx-cidr.com//129'))[0]).toContain(
      '/129 is outside /0 to /128',
    );
    // a/24 is the domain's own A records with a prefix, not a name "24".
    expect(
      await check('good-cidrs.com', 'ip4:192.0.2.0/24 ip6:2001:db8::/32 ip4:0.0.0.0/0 a/24//64 mx//128'),
    ).toMatchObject({
      status: 'valid',
      voidLookupCount: 0,
    });
  });

  it('reports an include of a domain with TXT records but no SPF record as a permanent error, not a void lookup', async () => {
    dns.zone['verify-only.net'] = { TXT: ['google-site-verification=abc'] };
    dns.zone['include-nospf.com'] = { TXT: ['v=spf1 include:verify-only.net -all'] };
    const spf = await checkSpf(resolver, 'include-nospf.com');
    expect(spf).toMatchObject({ status: 'invalid', voidLookupCount: 0 });
    expect(errors(spf)).toEqual([
      'The include "verify-only.net" has no SPF record (it has TXT records, but none starts with v=spf1), which is a permanent error for receivers (RFC 7208 section 5.2).',
    ]);
    expect(spf.tree!.children[0]).toMatchObject({ domain: 'verify-only.net', error: 'no SPF record' });

    // A name with no TXT records at all is a void lookup as well.
    dns.zone['include-gone.com'] = { TXT: ['v=spf1 include:gone.include-gone.com -all'] };
    expect((await checkSpf(resolver, 'include-gone.com')).voidLookupCount).toBe(1);
  });

  it('reports a redirect= to a domain without SPF as a failed redirect, not an include', async () => {
    dns.zone['redirect-gone.com'] = { TXT: ['v=spf1 redirect=_spf.gone.example'] };
    const spf = await checkSpf(resolver, 'redirect-gone.com');
    expect(spf.status).toBe('invalid');
    expect(spf.findings).toEqual([
      {
        severity: 'error',
        message:
          'The redirect "_spf.gone.example" has no SPF record, which is a permanent error for receivers (RFC 7208 section 6.1).',
        fix: 'Point redirect= at a domain that publishes an SPF record, or fix the name.',
      },
    ]);
  });
});

describe('DKIM', () => {
  it('finds keys on the user’s and common selectors, joins split TXT and rates key length', async () => {
    const long = key(2048);
    dns.zone['google._domainkey.dk.com'] = { TXT: [[`v=DKIM1; k=rsa; p=${long.slice(0, 200)}`, long.slice(200)]] };
    dns.zone['weak._domainkey.dk.com'] = { TXT: [`v=DKIM1; k=rsa; p=${key(1024)}`] };
    const dkim = await checkDkim(resolver, 'dk.com', ['weak']);
    expect(dkim.status).toBe('valid');
    expect(dkim.selectors.map((s) => [s.selector, s.keyBits, s.status])).toEqual([
      ['weak', 1024, 'valid'],
      ['google', 2048, 'valid'],
    ]);
    expect(dkim.findings.some((f) => f.severity === 'warning' && f.message.includes('1024-bit'))).toBe(true);
  });

  it('treats empty p= as revoked and short keys as invalid', async () => {
    dns.zone['default._domainkey.revoked.com'] = { TXT: ['v=DKIM1; k=rsa; p='] };
    const revoked = await checkDkim(resolver, 'revoked.com', []);
    expect(revoked.status).toBe('invalid');
    expect(revoked.findings.some((f) => f.message.includes('revoked'))).toBe(true);
    dns.zone['s1._domainkey.short.com'] = { TXT: [`v=DKIM1; p=${key(512)}`] };
    expect((await checkDkim(resolver, 'short.com', [])).selectors[0]).toMatchObject({
      keyBits: 512,
      status: 'invalid',
    });
    expect((await checkDkim(resolver, 'nodkim.com', [])).status).toBe('missing');
  });
});

describe('DMARC', () => {
  it('falls back to the organizational domain and flags p=none', async () => {
    dns.zone['_dmarc.org-dm.co.uk'] = { TXT: ['v=DMARC1; p=none; rua=mailto:d@org-dm.co.uk'] };
    const dmarc = await checkDmarc(resolver, 'news.org-dm.co.uk');
    expect(dmarc.foundAt).toBe('_dmarc.org-dm.co.uk');
    expect(dmarc.tags).toMatchObject({ v: 'DMARC1', p: 'none' });
    expect(dmarc.status).toBe('valid');
    expect(dmarc.findings.some((f) => f.message.startsWith('p=none is monitoring only'))).toBe(true);
  });

  it('judges a subdomain on the organizational domain’s sp= when the record is found there', async () => {
    dns.zone['_dmarc.sp-none.com'] = { TXT: ['v=DMARC1; p=reject; sp=none; rua=mailto:d@sp-none.com'] };
    const dmarc = await checkDmarc(resolver, 'news.sp-none.com');
    expect(dmarc.foundAt).toBe('_dmarc.sp-none.com');
    dns.zone['news.sp-none.com'] = { A: ['192.0.2.1'] };
    expect(dmarc.findings).toEqual([
      {
        severity: 'info',
        message:
          'No record at _dmarc.news.sp-none.com; the DNS tree walk (RFC 9989 4.10) found the record of its Organizational Domain, sp-none.com. news.sp-none.com does not exist in the DNS (NXDOMAIN) and the record has no np=, so its sp=none applies.',
        fix: null,
      },
      {
        severity: 'warning',
        message: 'sp=none is monitoring only: failing mail from news.sp-none.com is still delivered.',
        fix: 'Once reports show your senders pass, move to sp=quarantine, then sp=reject, at _dmarc.sp-none.com, or publish a record with p=quarantine at _dmarc.news.sp-none.com.',
      },
    ]);
    expect((await checkDmarc(resolver, 'news.sp-none.com')).findings[0].message).toContain(
      'news.sp-none.com exists, so the record’s sp=none, its policy for subdomains, applies.',
    );
    // The organizational domain itself gets p=reject: nothing to warn about.
    expect((await checkDmarc(resolver, 'sp-none.com')).findings).toEqual([]);

    // sp=none weighs exactly as p=none does: the same check status and the same domain status.
    const key2048 = key(2048);
    for (const name of ['news.sp-none.com', 'own-none.com']) {
      dns.zone[name] = { TXT: ['v=spf1 -all'], A: ['192.0.2.1'] };
      dns.zone[`default._domainkey.${name}`] = { TXT: [`v=DKIM1; p=${key2048}`] };
    }
    dns.zone['_dmarc.own-none.com'] = { TXT: ['v=DMARC1; p=none; rua=mailto:d@own-none.com'] };
    const target = { verificationToken: 't', dkimSelectors: [] };
    const viaSp = await runDomainChecks(resolver, { ...target, domain: 'news.sp-none.com' });
    const ownNone = await runDomainChecks(resolver, { ...target, domain: 'own-none.com' });
    expect(viaSp.dmarc.status).toBe(ownNone.dmarc.status);
    const weighed = (findings: { severity: string }[]) => findings.map((f) => f.severity).filter((s) => s !== 'info');
    expect(weighed(viaSp.dmarc.findings)).toEqual(weighed(ownNone.dmarc.findings));
    expect(domainStatus(viaSp)).toBe(domainStatus(ownNone));

    // sp=quarantine at the organizational domain: said, not warned about, even under p=none.
    dns.zone['_dmarc.sp-quarantine.com'] = { TXT: ['v=DMARC1; p=none; sp=quarantine; rua=mailto:d@sp-quarantine.com'] };
    dns.zone['shop.sp-quarantine.com'] = { MX: [{ exchange: 'mx.sp-quarantine.com', priority: 10 }] };
    expect((await checkDmarc(resolver, 'shop.sp-quarantine.com')).findings).toEqual([
      {
        severity: 'info',
        message:
          'No record at _dmarc.shop.sp-quarantine.com; the DNS tree walk (RFC 9989 4.10) found the record of its Organizational Domain, sp-quarantine.com. shop.sp-quarantine.com exists, so the record’s sp=quarantine, its policy for subdomains, applies.',
        fix: null,
      },
    ]);
  });

  it('checks that external report destinations authorize the domain, and warns (RFC 7489 7.1: the record stays valid) when one does not', async () => {
    dns.zone['_dmarc.ext.com'] = {
      TXT: [
        'v=DMARC1; p=reject; pct=100; adkim=s; aspf=r; fo=1; ri=86400; rua=mailto:r@reports.net,mailto:x@noauth.org; ruf=mailto:f@reports.net',
      ],
    };
    dns.zone['ext.com._report._dmarc.reports.net'] = { TXT: ['v=DMARC1'] };
    const dmarc = await checkDmarc(resolver, 'ext.com');
    expect(dmarc.externalReportDestinations).toEqual([
      { domain: 'reports.net', authorized: true },
      { domain: 'noauth.org', authorized: false },
    ]);
    expect(dmarc.status).toBe('valid');
    expect(dmarc.findings.filter((f) => f.severity !== 'info')).toEqual([
      {
        severity: 'warning',
        message:
          'noauth.org has not authorized receiving DMARC reports for ext.com, so receivers do not send reports to x@noauth.org until it does. Your DMARC record is valid and its policy applies.',
        fix: 'The operator of noauth.org publishes a TXT record "v=DMARC1" at ext.com._report._dmarc.noauth.org, or once for every domain at *._report._dmarc.noauth.org. Until then reports go only to your other rua= addresses.',
      },
    ]);
    // Without a rua=, a broken p= leaves receivers nothing to apply (RFC 9989 4.10.1); a bad pct= or adkim= they only
    // discard.
    dns.zone['_dmarc.badtags.com'] = { TXT: ['v=DMARC1; p=maybe; pct=150; adkim=x'] };
    expect((await checkDmarc(resolver, 'badtags.com')).findings.map((f) => f.severity)).toEqual([
      'error',
      'warning',
      'warning',
      'warning',
    ]);
  });

  it('keeps a domain that follows the suggested record (rua= at the InboxPulse address, not yet authorized) healthy', async () => {
    const key2048 = key(2048);
    dns.zone['first-hour.com'] = { TXT: ['v=spf1 include:_spf.google.com ~all'], A: ['192.0.2.1'] };
    dns.zone['_spf.google.com'] = { TXT: ['v=spf1 ip4:192.0.2.0/24 ~all'] };
    dns.zone['default._domainkey.first-hour.com'] = { TXT: [`v=DKIM1; k=rsa; p=${key2048}`] };
    dns.zone['_dmarc.first-hour.com'] = { TXT: ['v=DMARC1; p=quarantine; rua=mailto:dmarc@inbox.localhost'] };
    const checks = await runDomainChecks(resolver, {
      domain: 'first-hour.com',
      verificationToken: 't',
      dkimSelectors: [],
    });
    expect(checks.dmarc.status).toBe('valid');
    expect(checks.dmarc.externalReportDestinations).toEqual([{ domain: 'inbox.localhost', authorized: false }]);
    expect(checks.dmarc.findings.map((f) => [f.severity, f.fix])).toEqual([
      [
        'warning',
        'The operator of inbox.localhost publishes a TXT record "v=DMARC1" at first-hour.com._report._dmarc.inbox.localhost, or once for every domain at *._report._dmarc.inbox.localhost. Until then reports go only to your other rua= addresses.',
      ],
    ]);
    expect(domainStatus(checks)).toBe('healthy');

    // Once the operator publishes the authorization, nothing is left to say.
    dns.zone['first-hour.com._report._dmarc.inbox.localhost'] = { TXT: ['v=DMARC1'] };
    const authorized = await checkDmarc(resolver, 'first-hour.com');
    expect(authorized.externalReportDestinations).toEqual([{ domain: 'inbox.localhost', authorized: true }]);
    expect(authorized.findings).toEqual([]);
  });

  it('asks the domain the policy came from for the authorization (a subdomain covered by its organizational domain)', async () => {
    dns.zone['_dmarc.org-auth.com'] = { TXT: ['v=DMARC1; p=reject; rua=mailto:dmarc@reports.example.net'] };
    dns.zone['org-auth.com._report._dmarc.reports.example.net'] = { TXT: ['v=DMARC1'] };
    const dmarc = await checkDmarc(resolver, 'news.org-auth.com');
    expect(dmarc.externalReportDestinations).toEqual([{ domain: 'reports.example.net', authorized: true }]);
    expect(dmarc.findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });

  it('does not invent a report address when the record is missing or has no rua=', async () => {
    const missing = await checkDmarc(resolver, 'no-dmarc-here.com');
    expect(missing.findings[0].fix).toBe(
      'Publish a TXT record at _dmarc.no-dmarc-here.com: "v=DMARC1; p=none; rua=mailto:<your InboxPulse report address>" (Show DMARC reports on this domain gives the rua= tag to copy), then move to p=quarantine.',
    );
    dns.zone['_dmarc.no-rua.com'] = { TXT: ['v=DMARC1; p=reject'] };
    expect((await checkDmarc(resolver, 'no-rua.com')).findings).toEqual([
      {
        severity: 'warning',
        message: 'No rua= address: you receive no aggregate reports.',
        fix: 'Add rua=mailto:<your InboxPulse report address> (Show DMARC reports on this domain gives the rua= tag to copy).',
      },
    ]);
  });
});

describe('domain status rule', () => {
  it('is healthy with SPF, DKIM and DMARC valid, warning with a gap, error when SPF or DMARC is missing or the name does not resolve', async () => {
    dns.zone['healthy.com'] = { TXT: ['v=spf1 -all'], A: ['192.0.2.1'] };
    dns.zone['_dmarc.healthy.com'] = { TXT: ['v=DMARC1; p=reject'] };
    dns.zone['default._domainkey.healthy.com'] = { TXT: [`v=DKIM1; p=${key(2048)}`] };
    const target = { verificationToken: 't', dkimSelectors: [] };
    expect(domainStatus(await runDomainChecks(resolver, { ...target, domain: 'healthy.com' }))).toBe('healthy');

    dns.zone['nodkim-warn.com'] = { TXT: ['v=spf1 -all'] };
    dns.zone['_dmarc.nodkim-warn.com'] = { TXT: ['v=DMARC1; p=none'] };
    expect(domainStatus(await runDomainChecks(resolver, { ...target, domain: 'nodkim-warn.com' }))).toBe('warning');

    dns.zone['nodmarc.com'] = { TXT: ['v=spf1 -all'] };
    expect(domainStatus(await runDomainChecks(resolver, { ...target, domain: 'nodmarc.com' }))).toBe('error');
    const gone = await runDomainChecks(resolver, { ...target, domain: 'does-not-exist.com' });
    expect(gone.resolves).toBe(false);
    expect(domainStatus(gone)).toBe('error');
  });
});
