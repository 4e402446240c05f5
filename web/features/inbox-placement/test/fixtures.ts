import type { Domain } from '@contracts/domains';
import type { InboxTest, InboxTestReport, InboxTestResultRow, SeedNetworkStatus } from '@contracts/inbox-tests';
import { jsonResponse, makeDomain, makeUser, stubFetch } from '../../../test/test-utils';

export { makeInboxTest } from '../../../test/test-utils';

// Builders of API answers for the inbox placement page's tests (test-only module).

export function makeRow(overrides: Partial<InboxTestResultRow> = {}): InboxTestResultRow {
  return {
    provider: 'Gmail',
    region: 'North America',
    country: 'United States',
    mailboxSystem: 'Google Workspace',
    isAnalyser: false,
    inboxCount: 1,
    spamCount: 0,
    missingCount: 0,
    pendingCount: 0,
    seedsUsed: 1,
    notes: [],
    ...overrides,
  };
}

/** The row of the server's own message analysis, which stands in for seeds when no seed network is set up. */
export function makeAnalyserRow(overrides: Partial<InboxTestResultRow> = {}): InboxTestResultRow {
  return makeRow({
    provider: 'InboxPulse analyser (no seed network)',
    isAnalyser: true,
    region: 'InboxPulse',
    country: 'N/A',
    mailboxSystem: 'InboxPulse',
    seedsUsed: 1,
    inboxCount: 1,
    ...overrides,
  });
}

export function makeSeedStatus(overrides: Partial<SeedNetworkStatus> = {}): SeedNetworkStatus {
  return {
    configured: true,
    totalProviders: 4,
    totalAddresses: 6,
    byRegion: { Europe: 1, 'North America': 3 },
    ...overrides,
  };
}

export function makeReport(overrides: Partial<InboxTestReport> = {}): InboxTestReport {
  return {
    simulated: false,
    analysedAt: '2025-03-01T10:05:00.000Z',
    score: 7.5,
    verdict: 'Good',
    deductions: [
      {
        id: 'dmarc-none',
        title: 'DMARC policy is p=none',
        deduction: 1.5,
        fix: 'Move the DMARC policy to p=quarantine once reports look clean.',
      },
      {
        id: 'no-list-unsubscribe',
        title: 'No List-Unsubscribe header',
        deduction: 1,
        fix: 'Add List-Unsubscribe and List-Unsubscribe-Post headers.',
      },
    ],
    findings: [
      {
        id: 'spf-pass',
        category: 'authentication',
        severity: 'pass',
        title: 'SPF passed',
        detail: null,
        deduction: 0,
        fix: null,
      },
      {
        id: 'dmarc-none',
        category: 'authentication',
        severity: 'warning',
        title: 'DMARC policy is p=none',
        detail: 'Receivers are asked to do nothing with failing mail.',
        deduction: 1.5,
        fix: 'Move the DMARC policy to p=quarantine once reports look clean.',
      },
      {
        id: 'rdns',
        category: 'reputation',
        severity: 'pass',
        title: 'Reverse DNS confirmed',
        detail: null,
        deduction: 0,
        fix: null,
      },
      {
        id: 'no-list-unsubscribe',
        category: 'content',
        severity: 'error',
        title: 'No List-Unsubscribe header',
        detail: null,
        deduction: 1,
        fix: 'Add List-Unsubscribe and List-Unsubscribe-Post headers.',
      },
    ],
    envelope: { remoteIp: '192.0.2.10', helo: 'mail.example.com', mailFrom: 'bounce@example.com' },
    authentication: {
      spf: { result: 'pass', domain: 'example.com', record: 'v=spf1 ip4:192.0.2.10 -all', comment: null },
      dkim: [
        {
          domain: 'example.com',
          selector: 's1',
          result: 'pass',
          aligned: true,
          algorithm: 'rsa-sha256',
          keyBits: 2048,
          comment: null,
        },
      ],
      dmarc: {
        result: 'pass',
        domain: 'example.com',
        policy: 'none',
        record: 'v=DMARC1; p=none',
        spfAligned: true,
        dkimAligned: true,
      },
      arc: null,
      bimi: null,
      authenticationResults:
        'in.inboxpulse.test; spf=pass smtp.mailfrom=example.com; dkim=pass header.d=example.com; dmarc=pass header.from=example.com',
      headerFrom: ['news@example.com'],
    },
    connectingIp: {
      ip: '192.0.2.10',
      reverseDns: ['mail.example.com'],
      confirmedName: 'mail.example.com',
      reverseDnsFailed: false,
      blocklists: [
        {
          list: 'Spamhaus ZEN',
          zone: 'zen.spamhaus.org',
          status: 'clear',
          reason: null,
          lookupUrl: 'https://check.spamhaus.org/',
        },
        {
          list: 'Barracuda',
          zone: 'b.barracudacentral.org',
          status: 'listed',
          reason: 'Listed for spam',
          lookupUrl: 'https://www.barracudacentral.org/lookups',
        },
      ],
    },
    content: {
      sizeBytes: 4096,
      subject: '[TEST-3] Spring sale',
      hasText: true,
      hasHtml: true,
      textToHtmlRatio: 0.4,
      imageCount: 2,
      linkCount: 5,
      linkDomains: ['example.com'],
      shorteners: [],
      listUnsubscribe: null,
      listUnsubscribePost: null,
      oneClickUnsubscribe: false,
      hasDate: true,
      hasMessageId: true,
    },
    spamAssassin: {
      score: 1.2,
      threshold: 5,
      isSpam: false,
      rules: [{ name: 'HTML_MESSAGE', score: 0.001, description: 'HTML included in message' }],
      error: null,
    },
    engines: [
      { id: 'inboxpulse', name: 'InboxPulse checks', status: 'ran' },
      { id: 'spamassassin', name: 'SpamAssassin', status: 'ran' },
    ],
    ...overrides,
  };
}

type Handlers = Parameters<typeof stubFetch>[0];

/**
 * A signed-in user with a healthy domain, the given tests (a function is asked on every GET) and a
 * configured seed network; `extra` adds or replaces routes.
 */
export function stubInboxPlacement({
  tests = [],
  domains = [makeDomain()],
  seedStatus = () => jsonResponse(makeSeedStatus()),
  extra = {},
}: {
  tests?: InboxTest[] | (() => InboxTest[]);
  domains?: Domain[];
  seedStatus?: Handlers[string];
  extra?: Handlers;
} = {}) {
  return stubFetch({
    'GET /api/user': () => jsonResponse(makeUser()),
    'GET /api/domains': () => jsonResponse(domains),
    'GET /api/inbox-tests': () => jsonResponse(typeof tests === 'function' ? tests() : tests),
    'GET /api/seed-network/status': seedStatus,
    ...extra,
  });
}
