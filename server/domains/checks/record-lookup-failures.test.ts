import { afterAll, beforeAll, expect, it } from 'vitest';
import { type TestDnsServer, startLoopbackDns } from '../../test/dns-server';
import type { DnsResolver } from '../../platform/dns/resolver';
import { runDomainChecks } from './run-checks';

let dns: TestDnsServer;
let resolver: DnsResolver;
beforeAll(async () => ({ dns, resolver } = await startLoopbackDns()));
afterAll(() => dns.close());

it('completes the domain check when the TLS-RPT, MTA-STS and BIMI names fail to answer, naming each failed lookup', async () => {
  const domain = 'flaky-records.test';
  dns.zone[domain] = {
    A: ['192.0.2.10'],
    MX: [{ exchange: `mx.${domain}`, priority: 10 }],
    TXT: ['v=spf1 ip4:192.0.2.0/24 -all'],
  };
  dns.zone[`_dmarc.${domain}`] = { TXT: ['v=DMARC1; p=reject; rua=mailto:dmarc@flaky-records.test'] };
  for (const name of [`_smtp._tls.${domain}`, `_mta-sts.${domain}`, `default._bimi.${domain}`]) dns.servfail.add(name);

  const checks = await runDomainChecks(resolver, { domain, verificationToken: 't', dkimSelectors: [] });
  const failed = (name: string, kind: string, readers = 'senders') =>
    `The DNS lookup of ${name} failed (ESERVFAIL), so ${readers} cannot find your ${kind} record now.`;
  expect(
    [checks.tlsRpt, checks.mtaSts, checks.bimi].map((check) => [check.status, check.findings.map((f) => f.message)]),
  ).toEqual([
    ['invalid', [failed(`_smtp._tls.${domain}`, 'TLS-RPT')]],
    ['invalid', [failed(`_mta-sts.${domain}`, 'MTA-STS')]],
    ['invalid', [failed(`default._bimi.${domain}`, 'BIMI', 'mailbox providers')]],
  ]);
  // The rest of the check stands.
  expect([checks.spf.status, checks.dmarc.record]).toEqual([
    'valid',
    'v=DMARC1; p=reject; rua=mailto:dmarc@flaky-records.test',
  ]);
});
