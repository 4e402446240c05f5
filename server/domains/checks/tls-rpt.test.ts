import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDnsServer, type ZoneEntry, startLoopbackDns } from '../../test/dns-server';
import type { DnsResolver } from '../../platform/dns/resolver';
import { checkTlsRpt } from './transport';

let dns: TestDnsServer;
let resolver: DnsResolver;

beforeAll(async () => ({ dns, resolver } = await startLoopbackDns()));
afterAll(() => dns?.close());

/** The check of a domain whose _smtp._tls name holds `entry`; each case gets its own domain. */
async function check(domain: string, entry: ZoneEntry | 'servfail') {
  if (entry === 'servfail') dns.servfail.add(`_smtp._tls.${domain}`);
  else dns.zone[`_smtp._tls.${domain}`] = entry;
  return checkTlsRpt(resolver, domain);
}

const summary = (result: Awaited<ReturnType<typeof checkTlsRpt>>) => ({
  status: result.status,
  record: result.record,
  findings: result.findings.map((f) => [f.severity, f.message, f.fix]),
});

describe('TLS-RPT record (RFC 8460 3)', () => {
  it.each([
    {
      name: 'RFC 8460 3: one v=TLSRPTv1 record with a mailto: rua is a policy',
      domain: 'rpt-mailto.test',
      entry: { TXT: ['v=TLSRPTv1; rua=mailto:tls-reports@rpt-mailto.test'] },
      expected: { status: 'valid', record: 'v=TLSRPTv1; rua=mailto:tls-reports@rpt-mailto.test', findings: [] },
    },
    {
      name: 'RFC 8460 3: rua= is a comma-separated list of mailto: and https: URIs, white space allowed around the commas',
      domain: 'rpt-list.test',
      entry: { TXT: ['v=TLSRPTv1;rua=mailto:tlsrpt@rpt-list.test , https://reports.rpt-list.test/v1/tlsrpt;'] },
      expected: {
        status: 'valid',
        record: 'v=TLSRPTv1;rua=mailto:tlsrpt@rpt-list.test , https://reports.rpt-list.test/v1/tlsrpt;',
        findings: [],
      },
    },
    {
      name: 'RFC 8460 3: a record in several strings is read as their concatenation; other TXT records at the name are discarded',
      domain: 'rpt-split.test',
      entry: { TXT: [['v=TLSRPTv1; rua=mailto:tls', '@rpt-split.test'], 'google-site-verification=abc123'] },
      expected: { status: 'valid', record: 'v=TLSRPTv1; rua=mailto:tls@rpt-split.test', findings: [] },
    },
    {
      name: 'RFC 8460 3: unknown fields are ignored',
      domain: 'rpt-ext.test',
      entry: { TXT: ['v=TLSRPTv1; rua=mailto:tls@rpt-ext.test; x-vendor=on'] },
      expected: { status: 'valid', record: 'v=TLSRPTv1; rua=mailto:tls@rpt-ext.test; x-vendor=on', findings: [] },
    },
  ])('$name', async ({ domain, entry, expected }) => {
    expect(summary(await check(domain, entry))).toEqual(expected);
  });

  it.each([
    {
      name: 'RFC 8460 3: more than one v=TLSRPTv1 record means the domain has no TLS-RPT',
      domain: 'rpt-two.test',
      entry: { TXT: ['v=TLSRPTv1; rua=mailto:a@rpt-two.test', 'v=TLSRPTv1; rua=mailto:b@rpt-two.test'] },
      findings: [
        [
          'error',
          '2 TLS-RPT records at _smtp._tls.rpt-two.test: senders use none of them, so no TLS report reaches you.',
          'Keep exactly one v=TLSRPTv1 record at _smtp._tls.rpt-two.test and delete the others.',
        ],
      ],
    },
    {
      name: 'RFC 8460 3: a record that does not begin with v=TLSRPTv1 is discarded',
      domain: 'rpt-order.test',
      entry: { TXT: ['rua=mailto:tls@rpt-order.test; v=TLSRPTv1'] },
      findings: [
        [
          'error',
          'The TXT record at _smtp._tls.rpt-order.test names v=TLSRPTv1 but does not begin with it, so senders discard it.',
          'Make v=TLSRPTv1 the first field: "v=TLSRPTv1; rua=mailto:tls@rpt-order.test".',
        ],
      ],
    },
    {
      name: 'RFC 8460 3: the version is %s"v=TLSRPTv1", case-sensitive',
      domain: 'rpt-case.test',
      entry: { TXT: ['v=tlsrptv1; rua=mailto:tls@rpt-case.test'] },
      findings: [
        [
          'error',
          'The record begins with "v=tlsrptv1"; it must be exactly "v=TLSRPTv1" (upper and lower case as written).',
          'Write "v=TLSRPTv1".',
        ],
      ],
    },
    {
      name: 'RFC 8460 3: rua= is required',
      domain: 'rpt-norua.test',
      entry: { TXT: ['v=TLSRPTv1;'] },
      findings: [
        [
          'error',
          'The TLS-RPT record has no rua=, so senders have nowhere to send reports.',
          'Add rua=mailto:tls-reports@rpt-norua.test.',
        ],
      ],
    },
    {
      name: 'RFC 8460 3: mailto: and https: are the only rua= schemes; with no usable URI left no report arrives',
      domain: 'rpt-http.test',
      entry: { TXT: ['v=TLSRPTv1; rua=http://reports.rpt-http.test/tlsrpt'] },
      findings: [
        [
          'error',
          'rua= "http://reports.rpt-http.test/tlsrpt" is not a mailto: or https: URI, the only kinds TLS-RPT reports are sent to, so no report reaches you.',
          'Use rua=mailto:address or rua=https://URL.',
        ],
      ],
    },
    {
      name: 'RFC 8460 3: a URI "!" must be encoded (TLS-RPT has no DMARC-style size suffix), and mailto: needs an address',
      domain: 'rpt-bang.test',
      entry: { TXT: ['v=TLSRPTv1; rua=mailto:tls@rpt-bang.test!10m,mailto:'] },
      findings: [
        [
          'error',
          'rua= "mailto:tls@rpt-bang.test!10m" holds an unencoded "!": TLS-RPT takes no size limit, that is DMARC\'s syntax, so no report reaches you.',
          'Write rua=mailto:tls@rpt-bang.test.',
        ],
        [
          'error',
          'rua= "mailto:" has no e-mail address, so no report reaches you.',
          'Use rua=mailto:address or rua=https://URL.',
        ],
      ],
    },
    {
      name: 'RFC 8460 3: fields are name=value, separated by ";"',
      domain: 'rpt-field.test',
      entry: { TXT: ['v=TLSRPTv1; rua=mailto:tls@rpt-field.test; reports'] },
      findings: [
        [
          'error',
          'The field "reports" is not name=value, so the record is not valid TLS-RPT syntax.',
          'Remove it, or write it as name=value.',
        ],
      ],
    },
  ])('$name', async ({ domain, entry, findings }) => {
    expect(summary(await check(domain, entry))).toMatchObject({ status: 'invalid', findings });
  });

  it('RFC 8460 3: an unusable rua= URI beside a usable one loses only its own reports (a warning)', async () => {
    const result = await check('rpt-mixed.test', {
      TXT: ['v=TLSRPTv1; rua=mailto:tls@rpt-mixed.test,ftp://rpt-mixed.test/in'],
    });
    expect(summary(result)).toMatchObject({
      status: 'valid',
      findings: [
        [
          'warning',
          'rua= "ftp://rpt-mixed.test/in" is not a mailto: or https: URI, the only kinds TLS-RPT reports are sent to; reports still go to your other rua= addresses.',
          'Use rua=mailto:address or rua=https://URL.',
        ],
      ],
    });
  });

  it('says when there is no record, and how to publish one', async () => {
    expect(summary(await check('rpt-none.test', {}))).toEqual({
      status: 'missing',
      record: null,
      findings: [
        [
          'info',
          'No TLS-RPT: you get no reports of TLS failures delivering to you.',
          'Publish "v=TLSRPTv1; rua=mailto:tls-reports@rpt-none.test" at _smtp._tls.rpt-none.test.',
        ],
      ],
    });
  });

  it('reports a failed lookup of _smtp._tls as a finding, and the check completes', async () => {
    expect(summary(await check('rpt-servfail.test', 'servfail'))).toEqual({
      status: 'invalid',
      record: null,
      findings: [
        [
          'error',
          'The DNS lookup of _smtp._tls.rpt-servfail.test failed (ESERVFAIL), so senders cannot find your TLS-RPT record now.',
          'Check that the name servers of rpt-servfail.test answer for _smtp._tls.rpt-servfail.test, then check again.',
        ],
      ],
    });
  });
});
