import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server';
import { createResolver, type DnsResolver } from '../../platform/dns/resolver';
import { checkDkim } from './dkim';
import { checkDmarc } from './dmarc';
import { domainStatus, runDomainChecks } from './run-checks';
import { checkSpf } from './spf';

let dns: TestDnsServer;
let resolver: DnsResolver;
beforeAll(async () => {
  dns = await startDnsServer();
  resolver = createResolver({ servers: [dns.address], timeoutMs: 1000, tries: 1, maxCacheSeconds: 0 });
});
afterAll(() => dns.close());

const key = (bits: number) => generateKeyPairSync('rsa', { modulusLength: bits }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

describe('SPF', () => {
  it('counts lookups through nested includes and redirect and shows the tree', async () => {
    dns.zone['spf-ok.com'] = { TXT: ['v=spf1 include:_spf.esp.net mx ip4:192.0.2.0/24 -all'], MX: [{ exchange: 'mx.spf-ok.com', priority: 10 }] };
    dns.zone['_spf.esp.net'] = { TXT: ['v=spf1 include:a.esp.net include:b.esp.net ~all'] };
    dns.zone['a.esp.net'] = { TXT: ['v=spf1 ip4:198.51.100.0/24 -all'] };
    dns.zone['b.esp.net'] = { TXT: ['v=spf1 a:relay.esp.net -all'] };
    dns.zone['relay.esp.net'] = { A: ['198.51.100.7'] };
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
    expect(spf.findings.some((f) => f.severity === 'error' && f.message.includes('11 DNS lookups; the limit is 10'))).toBe(true);
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
    expect((await checkDkim(resolver, 'short.com', [])).selectors[0]).toMatchObject({ keyBits: 512, status: 'invalid' });
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

  it('checks that external report destinations authorize the domain', async () => {
    dns.zone['_dmarc.ext.com'] = {
      TXT: ['v=DMARC1; p=reject; pct=100; adkim=s; aspf=r; fo=1; ri=86400; rua=mailto:r@reports.net,mailto:x@noauth.org; ruf=mailto:f@reports.net'],
    };
    dns.zone['ext.com._report._dmarc.reports.net'] = { TXT: ['v=DMARC1'] };
    const dmarc = await checkDmarc(resolver, 'ext.com');
    expect(dmarc.externalReportDestinations).toEqual([
      { domain: 'reports.net', authorized: true },
      { domain: 'noauth.org', authorized: false },
    ]);
    expect(dmarc.status).toBe('invalid');
    dns.zone['_dmarc.badtags.com'] = { TXT: ['v=DMARC1; p=maybe; pct=150; adkim=x'] };
    expect((await checkDmarc(resolver, 'badtags.com')).findings.filter((f) => f.severity === 'error')).toHaveLength(3);
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
