import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer, loopbackResolver } from '../../test/dns-server';
import type { DnsResolver } from '../../platform/dns/resolver';
import { createTestApp, signUp, type TestApp } from '../../test/test-app';
import { COMMON_DKIM_SELECTORS } from '@contracts/domains';
import { checkDkim, FIND_SELECTOR_FIX } from './dkim';

let dns: TestDnsServer;
let resolver: DnsResolver;
let t: TestApp;
beforeAll(async () => {
  dns = await startDnsServer();
  resolver = loopbackResolver(dns);
  t = await createTestApp({ env: { DNS_SERVERS: dns.address } });
});
afterAll(async () => {
  await t?.close();
  await dns.close();
});

const ed25519 = 'v=DKIM1; k=ed25519; p=' + Buffer.alloc(32, 3).toString('base64');

describe('DKIM: the selectors tried', () => {
  it('names every common selector it tried when none has a key, and says where to find the right one', async () => {
    const dkim = await checkDkim(resolver, 'nokey-brand.com', []);
    expect(dkim.status).toBe('missing');
    expect(dkim.selectors).toEqual([]);
    expect(dkim.triedSelectors).toEqual(COMMON_DKIM_SELECTORS);
    expect(COMMON_DKIM_SELECTORS).toHaveLength(13);
    expect(dkim.findings).toEqual([
      {
        severity: 'error',
        message:
          'We tried 13 common selectors (default, google, selector1, selector2, k1, k2, s1, s2, dkim, mail, smtp, mandrill, mxvault) and found no DKIM key.',
        fix: FIND_SELECTOR_FIX,
      },
    ]);
    expect(FIND_SELECTOR_FIX).toMatch(
      /^Find the selector in a message you sent \(the s= tag of its DKIM-Signature header\) and add it under Edit Domain\./,
    );
  });

  it('tries the user’s selectors first, names them apart from the common ones, and does not count a common one twice', async () => {
    const dkim = await checkDkim(resolver, 'nokey-own.com', ['esp2024', 'google']);
    expect(dkim.triedSelectors).toEqual(['esp2024', 'google', ...COMMON_DKIM_SELECTORS.filter((s) => s !== 'google')]);
    expect(dkim.findings.map((f) => f.message)).toEqual([
      'No DKIM key at esp2024._domainkey.nokey-own.com.',
      'No DKIM key at google._domainkey.nokey-own.com.',
      'We tried your selectors esp2024, google and 12 common selectors (default, selector1, selector2, k1, k2, s1, s2, dkim, mail, smtp, mandrill, mxvault) and found no DKIM key.',
    ]);

    const single = await checkDkim(resolver, 'nokey-one.com', ['esp2024']);
    expect(single.findings.at(-1)?.message).toMatch(
      /^We tried your selector esp2024 and 13 common selectors \(default, google, /,
    );
  });

  it('carries the selectors tried when a key is found too', async () => {
    dns.zone['s2._domainkey.haskey-brand.com'] = { TXT: [ed25519] };
    const dkim = await checkDkim(resolver, 'haskey-brand.com', ['esp']);
    expect(dkim.status).toBe('valid');
    expect(dkim.selectors.map((s) => s.selector)).toEqual(['s2']);
    expect(dkim.triedSelectors).toEqual(['esp', ...COMMON_DKIM_SELECTORS]);
  });
});

describe('Verify DNS over HTTP', () => {
  it('answers the selectors tried and the no-key finding', async () => {
    const { client } = await signUp(t.app);
    const domain = (await client.post('/api/domains', { domain: 'unsigned-brand.com' })).json();
    dns.zone['unsigned-brand.com'] = { TXT: ['v=spf1 -all'], A: ['192.0.2.10'] };
    dns.zone['_dmarc.unsigned-brand.com'] = { TXT: ['v=DMARC1; p=reject'] };
    const res = await client.post(`/api/domains/${domain.id}/verify`);
    expect(res.statusCode).toBe(200);
    const { checks, dkimStatus, status } = res.json();
    expect([status, dkimStatus]).toEqual(['warning', 'missing']);
    expect(checks.dkim.triedSelectors).toEqual(COMMON_DKIM_SELECTORS);
    expect(checks.dkim.findings[0].message).toMatch(/^We tried 13 common selectors \(default, google, selector1, /);
    // Stored and answered again as checked.
    expect((await client.get(`/api/domains/${domain.id}`)).json().checks.dkim.triedSelectors).toEqual(
      COMMON_DKIM_SELECTORS,
    );
  });

  it('answers a SERVFAIL with the server’s own sentence in the {code, message} body and changes nothing', async () => {
    const { client } = await signUp(t.app);
    const domain = (await client.post('/api/domains', { domain: 'flaky-dns.io' })).json();
    dns.servfail.add('flaky-dns.io');
    const res = await client.post(`/api/domains/${domain.id}/verify`);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      code: 'unavailable',
      message: 'DNS lookups for flaky-dns.io failed (ESERVFAIL); nothing was changed. Try again in a minute.',
    });
    expect((await client.get(`/api/domains/${domain.id}`)).json()).toMatchObject({
      status: 'pending',
      lastCheckedAt: null,
      checks: null,
    });
  });

  it('completes when one DKIM selector’s lookup fails: the domain leaves pending and the finding names that selector', async () => {
    // Some DNS hosts answer SERVFAIL for names under _domainkey: one such selector must not keep the domain unchecked.
    const { client } = await signUp(t.app);
    const domain = (await client.post('/api/domains', { domain: 'flaky-dkim.io' })).json();
    dns.zone['flaky-dkim.io'] = { TXT: ['v=spf1 -all'], A: ['192.0.2.11'] };
    dns.zone['_dmarc.flaky-dkim.io'] = { TXT: ['v=DMARC1; p=reject'] };
    dns.zone['esp._domainkey.flaky-dkim.io'] = { TXT: [ed25519] };
    dns.servfail.add('selector1._domainkey.flaky-dkim.io');
    expect((await client.patch(`/api/domains/${domain.id}`, { dkimSelectors: ['esp'] })).statusCode).toBe(200);
    const res = await client.post(`/api/domains/${domain.id}/verify`);
    expect(res.statusCode).toBe(200);
    const { checks, dkimStatus, status } = res.json();
    expect(status).not.toBe('pending');
    expect(dkimStatus).toBe('valid');
    expect(checks.dkim.uncheckedSelectors).toEqual(['selector1']);
    expect(checks.dkim.findings).toContainEqual({
      severity: 'info',
      message: '1 common selector could not be checked (selector1): the DNS lookup failed (ESERVFAIL).',
      fix: null,
    });
  });
});
