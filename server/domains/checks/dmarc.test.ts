import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDnsServer, startLoopbackDns } from '../../test/dns-server';
import type { DnsResolver } from '../../platform/dns/resolver';
import { checkDmarc } from './dmarc';
import { domainStatus, runDomainChecks } from './run-checks';

let dns: TestDnsServer;
let resolver: DnsResolver;
beforeAll(async () => ({ dns, resolver } = await startLoopbackDns()));
afterAll(() => dns?.close());

const publish = (domain: string, ...records: string[]) => {
  dns.zone[`_dmarc.${domain}`] = { TXT: records };
};
const severities = (findings: { severity: string; message: string }[]) =>
  findings.map((f) => `${f.severity}: ${f.message}`);

describe('reading the record as receivers do (RFC 7489 6.3, RFC 9989 4.7, 4.8, 4.10.1)', () => {
  it.each([
    [
      'RFC 7489 6.3: a pct= outside 0-100 is discarded; the policy applies to all failing mail',
      'bad-pct.test',
      'v=DMARC1; p=reject; pct=150; rua=mailto:dmarc@bad-pct.test',
      /^warning: pct=150 is not a whole number from 0 to 100/,
    ],
    [
      'RFC 9989 4.7 rua: an https: URI is ignored by receivers that send only by mail',
      'https-rua.test',
      'v=DMARC1; p=reject; rua=https://reports.https-rua.test/dmarc',
      /^warning: rua= lists https:\/\/reports\.https-rua\.test\/dmarc/,
    ],
    [
      'RFC 9989 4.8 dmarc-uri: an address without mailto: is no URI and is discarded',
      'bare-rua.test',
      'v=DMARC1; p=reject; rua=dmarc@bare-rua.test',
      /^warning: "dmarc@bare-rua\.test" in rua= is not a URI/,
    ],
    [
      'RFC 9989 4.8: an invalid adkim= is discarded for the default r',
      'bad-adkim.test',
      'v=DMARC1; p=reject; adkim=x; rua=mailto:d@bad-adkim.test',
      /^warning: adkim=x is not valid/,
    ],
    [
      'RFC 9989 4.10.1: an invalid p= with a valid rua= is read as p=none',
      'bad-p-rua.test',
      'v=DMARC1; p=block; rua=mailto:d@bad-p-rua.test',
      /receivers act as if the record said p=none/,
    ],
  ])('%s: a warning, and the check stays valid', async (_clause, domain, record, finding) => {
    publish(domain, record);
    const dmarc = await checkDmarc(resolver, domain);
    expect(dmarc.status).toBe('valid');
    expect(severities(dmarc.findings)).toContainEqual(expect.stringMatching(finding));
  });

  it.each([
    [
      'RFC 9989 4.10.1: no valid p= and no valid rua=: receivers apply no DMARC processing',
      'bad-p.test',
      ['v=DMARC1; p=block'],
      /^error: .*no valid rua= address, so receivers apply no DMARC processing/,
    ],
    [
      'RFC 9989 4.10.1: a record without p= and without rua=',
      'no-p.test',
      ['v=DMARC1; adkim=s'],
      /^error: The record’s policy is not usable \(p= is missing\) and it has no valid rua= address, so receivers apply no DMARC processing to mail from no-p\.test/,
    ],
    [
      'RFC 9989 4.10 step 2: two records at one name are both discarded',
      'two-records.test',
      ['v=DMARC1; p=none', 'v=DMARC1; p=reject'],
      /^error: 2 DMARC records at _dmarc\.two-records\.test/,
    ],
    [
      'RFC 9989 4.7 v: DMARC1 is case-sensitive',
      'lower-v.test',
      ['v=dmarc1; p=reject'],
      /^error: The TXT record at _dmarc\.lower-v\.test is not a DMARC record: its version must be written v=DMARC1/,
    ],
    [
      'RFC 9989 4.7 v: a ";" must follow v=DMARC1',
      'runs-on.test',
      ['v=DMARC1 p=reject'],
      /^error: The TXT record at _dmarc\.runs-on\.test is not a DMARC record: a ";" must follow v=DMARC1/,
    ],
  ])('%s: invalid', async (_clause, domain, records, finding) => {
    publish(domain, ...records);
    const dmarc = await checkDmarc(resolver, domain);
    expect(dmarc.status).toBe('invalid');
    expect(severities(dmarc.findings)).toContainEqual(expect.stringMatching(finding));
  });

  it('RFC 9989 4.7: t=y is testing mode, applied one level below (a warning, as p=none is)', async () => {
    publish('testing-mode.test', 'v=DMARC1; p=reject; t=y; rua=mailto:d@testing-mode.test');
    const dmarc = await checkDmarc(resolver, 'testing-mode.test');
    expect(dmarc.status).toBe('valid');
    expect(dmarc.discovery).toMatchObject({
      policyTag: 'p',
      requestedPolicy: 'reject',
      appliedPolicy: 'quarantine',
      testing: true,
    });
    expect(dmarc.findings).toContainEqual({
      severity: 'warning',
      message:
        't=y: the domain is testing its policy, so receivers following RFC 9989 apply quarantine, one level below p=reject, to failing mail. Receivers that still follow RFC 7489 ignore t= and apply p=reject.',
      fix: 'Remove t=y once your DMARC reports show that all your legitimate mail passes.',
    });
  });

  it('RFC 9989 C.5.2: pct, rf and ri are reported as removed, pct below 100 still a warning about RFC 7489 receivers', async () => {
    publish('legacy-tags.test', 'v=DMARC1; p=quarantine; pct=25; rf=afrf; ri=3600; rua=mailto:d@legacy-tags.test');
    const dmarc = await checkDmarc(resolver, 'legacy-tags.test');
    expect(dmarc.status).toBe('valid');
    expect(dmarc.tags).toMatchObject({ pct: '25', rf: 'afrf', ri: '3600' });
    expect(dmarc.findings).toEqual([
      {
        severity: 'warning',
        message:
          'pct=25: receivers that still follow RFC 7489 apply p=quarantine to only 25% of failing mail. RFC 9989 removed pct=, so receivers following it apply the policy to all failing mail; its t=y replaces pct=0 for testing.',
        fix: 'Remove pct= so every receiver applies the policy to all failing mail; while you test a stricter policy, use t=y instead.',
      },
      {
        severity: 'info',
        message: 'rf= was removed by RFC 9989 (failure reports are always in the AFRF format); receivers ignore it.',
        fix: 'Remove rf=.',
      },
      {
        severity: 'info',
        message: 'ri= was removed by RFC 9989: receivers send aggregate reports at least once a day, whatever it asks.',
        fix: 'Remove ri=.',
      },
    ]);
  });

  it('RFC 9989 4.7: unknown tags are ignored, said as a note', async () => {
    publish('unknown-tag.test', 'v=DMARC1; p=reject; rau=mailto:d@unknown-tag.test; rua=mailto:d@unknown-tag.test');
    expect((await checkDmarc(resolver, 'unknown-tag.test')).findings).toEqual([
      {
        severity: 'info',
        message: 'rau= is not a DMARC tag; receivers ignore it.',
        fix: 'Remove rau= or correct its name (DMARC tags: p, sp, np, psd, t, adkim, aspf, fo, rua, ruf).',
      },
    ]);
  });
});

describe('policy discovery by the DNS tree walk (RFC 9989 4.10.1)', () => {
  it('finds a psd=n record below the registered domain, where the Public Suffix List would have gone to the registered domain', async () => {
    publish('walkco.test', 'v=DMARC1; p=none; rua=mailto:d@walkco.test');
    publish('mail.walkco.test', 'v=DMARC1; p=reject; psd=n; rua=mailto:d@walkco.test');
    dns.zone['news.mail.walkco.test'] = { A: ['192.0.2.5'] };
    const dmarc = await checkDmarc(resolver, 'news.mail.walkco.test');
    expect(dmarc.foundAt).toBe('_dmarc.mail.walkco.test');
    expect(dmarc.discovery).toEqual({
      source: 'organizational-domain',
      organizationalDomain: 'mail.walkco.test',
      queried: ['news.mail.walkco.test', 'mail.walkco.test'],
      policyTag: 'p',
      requestedPolicy: 'reject',
      appliedPolicy: 'reject',
      testing: false,
    });
    expect(dmarc.findings).toContainEqual({
      severity: 'info',
      message:
        'No record at _dmarc.news.mail.walkco.test; the DNS tree walk (RFC 9989 4.10) found the record of its Organizational Domain, mail.walkco.test. It has no sp=, so its p=reject applies to subdomains too.',
      fix: null,
    });
  });

  it('applies np= to a subdomain that does not exist (NXDOMAIN) and sp= to one that does', async () => {
    publish('np-co.test', 'v=DMARC1; p=reject; sp=quarantine; np=reject; rua=mailto:d@np-co.test');
    dns.zone['shop.np-co.test'] = { A: ['192.0.2.6'] };
    const existing = await checkDmarc(resolver, 'shop.np-co.test');
    expect(existing.discovery).toMatchObject({ policyTag: 'sp', appliedPolicy: 'quarantine' });
    const gone = await checkDmarc(resolver, 'gone.np-co.test');
    expect(gone.discovery).toMatchObject({ policyTag: 'np', appliedPolicy: 'reject' });
    expect(gone.findings[0].message).toContain(
      'gone.np-co.test does not exist in the DNS (NXDOMAIN), so np=reject applies, the record’s policy for non-existent subdomains.',
    );
  });

  it('says when the policy comes from a public suffix domain’s record (psd=y), not the owner’s', async () => {
    publish('suffixzone.test', 'v=DMARC1; p=reject; psd=y; rua=mailto:d@suffixzone.test');
    dns.zone['brand.suffixzone.test'] = { A: ['192.0.2.7'] };
    const dmarc = await checkDmarc(resolver, 'brand.suffixzone.test');
    expect(dmarc.status).toBe('valid');
    expect(dmarc.discovery).toMatchObject({
      source: 'public-suffix-domain',
      organizationalDomain: 'brand.suffixzone.test',
      policyTag: 'p',
    });
    expect(dmarc.findings[0]).toEqual({
      severity: 'warning',
      message:
        'No record at _dmarc.brand.suffixzone.test; the policy comes from suffixzone.test, a public suffix domain (psd=y), whose operator sets it for every domain under it. It has no sp=, so its p=reject applies to subdomains too.',
      fix: 'Publish your own record at _dmarc.brand.suffixzone.test, e.g. "v=DMARC1; p=none; rua=mailto:<your InboxPulse report address>", then move to p=quarantine.',
    });
  });

  it('reports a lookup that fails above the domain as a finding, never an exception', async () => {
    dns.servfail.add('_dmarc.servfail-parent.test');
    const dmarc = await checkDmarc(resolver, 'news.servfail-parent.test');
    expect(dmarc).toMatchObject({ status: 'invalid', record: null, foundAt: null });
    expect(dmarc.findings).toEqual([
      {
        severity: 'error',
        message:
          'The DMARC lookup of _dmarc.servfail-parent.test failed (ESERVFAIL), so whether a parent domain’s record applies to news.servfail-parent.test is unknown; receivers that hit the same failure may defer or distrust its mail.',
        fix: 'Make sure the DNS servers of servfail-parent.test answer TXT queries for _dmarc.servfail-parent.test; the check runs again on its own.',
      },
    ]);
  });
});

describe('external report destinations (RFC 9990 3, RFC 9989 11.6)', () => {
  it('decides "external" by Organizational Domain from the tree walk: psd=n makes the parent domain another organization', async () => {
    publish('team.bigcorp.test', 'v=DMARC1; p=reject; psd=n; rua=mailto:dmarc@bigcorp.test');
    publish('bigcorp.test', 'v=DMARC1; p=reject; rua=mailto:dmarc@bigcorp.test');
    const dmarc = await checkDmarc(resolver, 'team.bigcorp.test');
    expect(dmarc.externalReportDestinations).toEqual([{ domain: 'bigcorp.test', authorized: false }]);
    // Under the same Organizational Domain: not external.
    publish('sameorg.test', 'v=DMARC1; p=reject; rua=mailto:dmarc@reports.sameorg.test');
    expect((await checkDmarc(resolver, 'sameorg.test')).externalReportDestinations).toEqual([]);
  });

  it('reports an authorization lookup that fails as a finding, and the record stays valid', async () => {
    publish('flaky-auth.test', 'v=DMARC1; p=reject; rua=mailto:d@reports.flaky-vendor.test');
    dns.servfail.add('flaky-auth.test._report._dmarc.reports.flaky-vendor.test');
    const dmarc = await checkDmarc(resolver, 'flaky-auth.test');
    expect(dmarc.status).toBe('valid');
    expect(dmarc.findings).toEqual([
      {
        severity: 'warning',
        message:
          'Whether reports.flaky-vendor.test accepts DMARC reports for flaky-auth.test could not be checked: the lookup of flaky-auth.test._report._dmarc.reports.flaky-vendor.test failed (ESERVFAIL). Your DMARC record is valid and its policy applies.',
        fix: 'The check runs again on its own; if this stays, ask the operator of reports.flaky-vendor.test whether their DNS answers for _report._dmarc names.',
      },
    ]);
  });
});

describe('domain status with DMARC warnings only (ADR 007)', () => {
  it('is healthy when the policy is in force and the record has only discarded terms', async () => {
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .publicKey.export({ type: 'spki', format: 'der' })
      .toString('base64');
    dns.zone['warned-only.test'] = { TXT: ['v=spf1 -all'], A: ['192.0.2.8'] };
    dns.zone['default._domainkey.warned-only.test'] = { TXT: [`v=DKIM1; k=rsa; p=${key}`] };
    publish(
      'warned-only.test',
      'v=DMARC1; p=reject; pct=150; rua=https://reports.warned-only.test/dmarc,mailto:dmarc@warned-only.test',
    );
    const checks = await runDomainChecks(resolver, {
      domain: 'warned-only.test',
      verificationToken: 't',
      dkimSelectors: [],
    });
    expect(checks.dmarc.status).toBe('valid');
    expect(checks.dmarc.findings.map((f) => f.severity)).toEqual(['warning', 'warning']);
    expect(domainStatus(checks)).toBe('healthy');
  });
});
