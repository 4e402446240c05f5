import type { Domain, DomainChecks, DomainDetail } from '@contracts/domains';
import { jsonResponse, makeDomain, makeUser, stubFetch } from '../../../test/test-utils';

// Builders of API answers for the domain page's tests (test-only module).

export function makeChecks(overrides: Partial<DomainChecks> = {}): DomainChecks {
  return {
    checkedAt: '2025-03-01T10:00:00.000Z',
    resolves: true,
    ownershipVerified: true,
    spf: {
      status: 'invalid',
      record: 'v=spf1 include:_spf.google.com include:spf.protection.outlook.com ~all',
      findings: [
        {
          severity: 'error',
          message: 'The SPF record needs 11 DNS lookups; receivers stop at 10 and the check fails.',
          fix: 'Remove includes you no longer send through, or replace them with ip4/ip6 ranges.',
        },
      ],
      lookupCount: 11,
      voidLookupCount: 1,
      tree: {
        domain: 'example.com',
        record: 'v=spf1 include:_spf.google.com include:spf.protection.outlook.com ~all',
        lookups: 2,
        error: null,
        children: [
          {
            domain: '_spf.google.com',
            record: 'v=spf1 include:_netblocks.google.com ~all',
            lookups: 1,
            error: null,
            children: [
              {
                domain: '_netblocks.google.com',
                record: 'v=spf1 ip4:35.190.247.0/24 ~all',
                lookups: 0,
                error: null,
                children: [],
              },
            ],
          },
          {
            domain: 'spf.protection.outlook.com',
            record: null,
            lookups: 0,
            error: 'No SPF record found at spf.protection.outlook.com',
            children: [],
          },
        ],
      },
    },
    dkim: {
      status: 'valid',
      record: null,
      findings: [],
      selectors: [
        makeDkimSelector(),
        {
          selector: 's1',
          status: 'missing',
          record: null,
          keyType: null,
          keyBits: null,
          findings: [
            {
              severity: 'warning',
              message: 'No DKIM key at s1._domainkey.example.com.',
              fix: 'Publish the key your provider gives you for selector s1.',
            },
          ],
        },
      ],
    },
    dmarc: {
      status: 'valid',
      record: 'v=DMARC1; p=none; rua=mailto:reports@dmarc.example.net',
      findings: [
        {
          severity: 'warning',
          message: 'The policy p=none only monitors.',
          fix: 'Move to p=quarantine once reports look clean.',
        },
      ],
      foundAt: '_dmarc.example.com',
      tags: { v: 'DMARC1', p: 'none', rua: 'mailto:reports@dmarc.example.net' },
      externalReportDestinations: [{ domain: 'dmarc.example.net', authorized: false }],
    },
    mx: { status: 'valid', record: null, findings: [], hosts: [{ exchange: 'aspmx.l.google.com', priority: 1 }] },
    mtaSts: { status: 'missing', record: null, findings: [], policy: null },
    tlsRpt: {
      status: 'missing',
      record: null,
      findings: [{ severity: 'info', message: 'No TLS-RPT record.', fix: null }],
    },
    bimi: { status: 'missing', record: null, findings: [] },
    ...overrides,
  };
}

export function makeDetail(overrides: Partial<DomainDetail> = {}): DomainDetail {
  return { ...makeDomain(), checks: makeChecks(), ...overrides };
}

/** A signed-in user whose domain list is `domains` (a function is asked on every GET). */
export function stubDomains(domains: Domain[] | (() => Domain[]), extra: Parameters<typeof stubFetch>[0] = {}) {
  return stubFetch({
    'GET /api/user': () => jsonResponse(makeUser()),
    'GET /api/domains': () => jsonResponse(typeof domains === 'function' ? domains() : domains),
    ...extra,
  });
}

/** A selector where the DKIM check found a key (Google's 2048-bit RSA, unless told otherwise). */
export function makeDkimSelector(
  overrides: Partial<DomainChecks['dkim']['selectors'][number]> = {},
): DomainChecks['dkim']['selectors'][number] {
  return {
    selector: 'google',
    status: 'valid',
    record: 'v=DKIM1; k=rsa; p=MIIBIjAN',
    keyType: 'rsa',
    keyBits: 2048,
    findings: [],
    ...overrides,
  };
}

/** A BIMI check with its logo fetched and a VMC validated, as the server reports a domain set up for Gmail. */
export function makeBimiCheck(overrides: Partial<DomainChecks['bimi']> = {}): DomainChecks['bimi'] {
  return {
    status: 'valid',
    record: 'v=BIMI1; l=https://brand.example.com/bimi/logo.svg; a=https://brand.example.com/bimi/vmc.pem',
    findings: [],
    logo: { url: 'https://brand.example.com/bimi/logo.svg', bytes: 1536, valid: true },
    certificate: {
      type: 'VMC',
      subject: 'Example Brand, Inc.',
      issuer: 'DigiCert, Inc.',
      validFrom: '2025-01-10T00:00:00.000Z',
      validTo: '2026-01-09T23:59:59.000Z',
      domains: ['example.com'],
      logoMatches: true,
    },
    ...overrides,
  };
}

/**
 * An SPF check as the server reports a hosted-SPF record (ADR 037): each term's lookups and void
 * lookups, a term never evaluated, one that depends on the sender, and the results for known IPs.
 */
export function makeSpfCheck(overrides: Partial<DomainChecks['spf']> = {}): DomainChecks['spf'] {
  const record =
    'v=spf1 include:_spf.mailer.example a:relay.example.com exists:%{i}._allow.%{d} ~all include:_spf.retired.example';
  return {
    status: 'invalid',
    record,
    findings: [],
    lookupCount: 4,
    voidLookupCount: 1,
    voidLookupCountIpv6: 3,
    tree: {
      domain: 'example.com',
      record,
      lookups: 3,
      error: null,
      children: [
        {
          domain: '_spf.mailer.example',
          record: 'v=spf1 a:out1.mailer.example a:out2.mailer.example ~all',
          lookups: 2,
          error: null,
          children: [],
          terms: [
            { term: 'a:out1.mailer.example', lookups: 1, voids: 0, voidsIpv6: 1, note: null },
            { term: 'a:out2.mailer.example', lookups: 1, voids: 1, voidsIpv6: 1, note: null },
            { term: '~all', lookups: 0, voids: 0, voidsIpv6: 0, note: null },
          ],
        },
      ],
      terms: [
        { term: 'include:_spf.mailer.example', lookups: 3, voids: 1, voidsIpv6: 2, note: null },
        { term: 'a:relay.example.com', lookups: 1, voids: 0, voidsIpv6: 1, note: null },
        {
          term: 'exists:%{i}._allow.%{d}',
          lookups: 1,
          voids: 0,
          voidsIpv6: 0,
          note: 'Depends on the sender: the name is built from %{i} for each message; it counts one lookup.',
        },
        { term: '~all', lookups: 0, voids: 0, voidsIpv6: 0, note: null },
        {
          term: 'include:_spf.retired.example',
          lookups: 0,
          voids: 0,
          voidsIpv6: 0,
          note: 'Never evaluated: it comes after "all" (RFC 7208 section 5.1).',
        },
      ],
    },
    senderEvaluation: {
      sender: 'postmaster@example.com',
      helo: 'example.com',
      results: [
        {
          ip: '192.0.2.44',
          result: 'pass',
          reason: 'Domain of postmaster@example.com designates 192.0.2.44 as permitted sender.',
        },
        {
          ip: '203.0.113.66',
          result: 'permerror',
          reason: 'Permanent error in processing during lookup of postmaster@example.com: Too many void DNS results.',
        },
      ],
    },
    ...overrides,
  };
}
