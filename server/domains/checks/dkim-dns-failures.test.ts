import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDnsServer, startLoopbackDns } from '../../test/dns-server';
import type { DnsResolver } from '../../platform/dns/resolver';
import { COMMON_DKIM_SELECTORS } from '@contracts/domains';
import { checkDkim } from './dkim';

let dns: TestDnsServer;
let resolver: DnsResolver;
beforeAll(async () => ({ dns, resolver } = await startLoopbackDns()));
afterAll(() => dns.close());

const key = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .publicKey.export({ type: 'spki', format: 'der' })
  .toString('base64');
const RETRY_FIX =
  'This is usually temporary, and we check again every hour. If it lasts, ask your DNS host why this name does not answer.';

// RFC 6376 6.1.2 step 2: a key lookup that fails is a temporary failure (TEMPFAIL), neither a key nor its absence.
describe('DKIM: a selector whose DNS lookup fails', () => {
  it('is a warning on that selector when another selector has a usable key', async () => {
    dns.zone['google._domainkey.flaky-one.test'] = { TXT: [`v=DKIM1; k=rsa; p=${key}`] };
    dns.servfail.add('esp._domainkey.flaky-one.test');
    const dkim = await checkDkim(resolver, 'flaky-one.test', ['esp']);
    expect(dkim.status).toBe('valid');
    expect(dkim.selectors.map((s) => s.selector)).toEqual(['google']);
    expect(dkim.uncheckedSelectors).toEqual(['esp']);
    expect(dkim.findings).toContainEqual({
      severity: 'warning',
      message: 'esp._domainkey.flaky-one.test could not be checked: the DNS lookup failed (ESERVFAIL).',
      fix: RETRY_FIX,
    });
  });

  it('is a note when a common selector fails and a usable key was found', async () => {
    dns.zone['s1._domainkey.flaky-common.test'] = { TXT: [`v=DKIM1; k=rsa; p=${key}`] };
    dns.servfail.add('k1._domainkey.flaky-common.test');
    dns.servfail.add('k2._domainkey.flaky-common.test');
    const dkim = await checkDkim(resolver, 'flaky-common.test', []);
    expect(dkim.status).toBe('valid');
    expect(dkim.uncheckedSelectors).toEqual(['k1', 'k2']);
    expect(dkim.findings).toContainEqual({
      severity: 'info',
      message: '2 common selectors could not be checked (k1, k2): the DNS lookups failed (ESERVFAIL).',
      fix: null,
    });
  });

  it('leaves the check complete (missing, with the failure named) when no key was found and other selectors answered', async () => {
    dns.servfail.add('selector1._domainkey.flaky-nokey.test');
    const dkim = await checkDkim(resolver, 'flaky-nokey.test', []);
    expect(dkim.status).toBe('missing');
    expect(dkim.uncheckedSelectors).toEqual(['selector1']);
    expect(dkim.findings.map((f) => [f.severity, f.message])).toEqual([
      ['warning', '1 common selector could not be checked (selector1): the DNS lookup failed (ESERVFAIL).'],
      ['error', expect.stringMatching(/^We tried 13 common selectors \(default, google, selector1, /)],
    ]);
  });

  it('says the check could not be completed when every selector the user named fails and no key turned up', async () => {
    dns.servfail.add('esp1._domainkey.flaky-mine.test');
    dns.servfail.add('esp2._domainkey.flaky-mine.test');
    const dkim = await checkDkim(resolver, 'flaky-mine.test', ['esp1', 'esp2']);
    expect(dkim.status).toBe('invalid');
    expect(dkim.selectors).toEqual([]);
    expect(dkim.uncheckedSelectors).toEqual(['esp1', 'esp2']);
    expect(dkim.findings).toEqual([
      {
        severity: 'error',
        message:
          'The DKIM check of flaky-mine.test could not be completed: the DNS lookups of your selectors esp1, esp2 failed (ESERVFAIL).',
        fix: 'We check again every hour. If it lasts, ask your DNS host why names under _domainkey.flaky-mine.test do not answer.',
      },
    ]);
  });

  it('says the same when every common selector fails and the user named none (a DNS host failing everything under _domainkey)', async () => {
    for (const s of COMMON_DKIM_SELECTORS) dns.servfail.add(`${s}._domainkey.flaky-all.test`);
    const dkim = await checkDkim(resolver, 'flaky-all.test', []);
    expect(dkim.status).toBe('invalid');
    expect(dkim.findings.map((f) => f.message)).toEqual([
      'The DKIM check of flaky-all.test could not be completed: the DNS lookups of all 13 common selectors failed (ESERVFAIL).',
    ]);
  });

  it('treats a lookup that times out like one that fails', async () => {
    dns.zone['google._domainkey.slow-dns.test'] = { TXT: [`v=DKIM1; k=rsa; p=${key}`] };
    dns.silent.add('esp._domainkey.slow-dns.test');
    const dkim = await checkDkim(resolver, 'slow-dns.test', ['esp']);
    expect(dkim.status).toBe('valid');
    expect(dkim.findings).toContainEqual({
      severity: 'warning',
      message: 'esp._domainkey.slow-dns.test could not be checked: the DNS lookup failed (ETIMEOUT).',
      fix: RETRY_FIX,
    });
  });
});
