import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach } from 'vitest';
import type { DmarcAnalytics, DmarcReport, DmarcReportDetail, DmarcReportList, UploadResponse } from '@contracts/dmarc';
import type { Domain } from '@contracts/domains';
import { daysAgo } from '@contracts/utc-day';
import {
  jsonResponse,
  makeDomain,
  makeUser,
  preloadSignedInFrame,
  renderApp,
  stubFetch,
  stubResizeObserver,
} from '../../../test/test-utils';

// Builders of DMARC API answers for the panel's tests (test-only module).

export const REPORT_ADDRESS = 'dmarc@reports.inboxpulse.test';

export function emptyAnalytics(overrides: Partial<DmarcAnalytics> = {}): DmarcAnalytics {
  return {
    days: 30,
    domain: 'example.com',
    totalReports: 0,
    totalMessages: 0,
    averageCompliance: null,
    threatSummary: { low: 0, medium: 0, high: 0, critical: 0 },
    trends: { volume: [], compliance: [] },
    topThreats: [],
    recommendations: [],
    sources: [],
    reporters: [],
    ...overrides,
  };
}

export function makeAnalytics(overrides: Partial<DmarcAnalytics> = {}): DmarcAnalytics {
  return emptyAnalytics({
    totalReports: 14,
    totalMessages: 12345,
    averageCompliance: 96.42,
    threatSummary: { low: 3, medium: 1, high: 0, critical: 1 },
    trends: {
      volume: [
        { date: '2025-03-01', value: 6000 },
        { date: '2025-03-02', value: 6345 },
      ],
      compliance: [
        { date: '2025-03-01', value: 99.1 },
        { date: '2025-03-02', value: 93.9 },
      ],
    },
    topThreats: [
      {
        type: 'spoofing',
        severity: 'critical',
        sourceIPs: ['203.0.113.9'],
        frequency: 1200,
        description:
          '1200 messages from 203.0.113.9 failed DMARC for example.com. Neither SPF nor DKIM passed for them: likely spoofing.',
      },
      {
        type: 'misaligned',
        severity: 'medium',
        sourceIPs: ['198.51.100.7', '198.51.100.8'],
        frequency: 42,
        description: '42 messages from mailchimp.com (2 IPs) failed DMARC for example.com.',
      },
    ],
    recommendations: ['Set up DKIM signing for example.com at mailchimp.com, then move to p=quarantine.'],
    sources: [
      {
        ips: ['209.85.220.41', '209.85.220.42', '209.85.220.43', '209.85.220.44'],
        reverseDns: 'mail-sor-f41.google.com',
        organisation: 'google.com',
        provider: 'Google',
        authDomains: [],
        count: 10000,
        spfAligned: 9900,
        dkimAligned: 10000,
        failed: 0,
        dispositions: { none: 10000 },
      },
      {
        ips: ['203.0.113.9'],
        reverseDns: null,
        organisation: null,
        provider: null,
        authDomains: [],
        count: 1200,
        spfAligned: 0,
        dkimAligned: 0,
        failed: 1200,
        dispositions: { reject: 1100, quarantine: 100 },
      },
    ],
    reporters: [
      {
        orgName: 'google.com',
        lastReportAt: new Date(Date.now() - 26 * 3600_000).toISOString(),
        reports: 10,
        silentDays: 1,
        daily: true,
        stopped: false,
      },
      {
        orgName: 'Yahoo',
        lastReportAt: daysAgo(5).toISOString(),
        reports: 4,
        silentDays: 5,
        daily: true,
        stopped: true,
      },
    ],
    ...overrides,
  });
}

export function makeReport(overrides: Partial<DmarcReport> = {}): DmarcReport {
  return {
    id: 1,
    status: 'imported',
    error: null,
    fileName: 'google.com!example.com!1740787200!1740873599.xml.gz',
    rawSize: 2048,
    domain: 'example.com',
    schema: 'rfc7489',
    version: '1.0',
    orgName: 'google.com',
    reportId: '1234567890',
    email: 'noreply-dmarc-support@google.com',
    dateBegin: '2025-03-01T00:00:00.000Z',
    dateEnd: '2025-03-01T23:59:59.000Z',
    generator: null,
    policyPublished: {
      p: 'none',
      sp: null,
      np: null,
      adkim: 'r',
      aspf: 'r',
      pct: 100,
      fo: null,
      testing: null,
      discoveryMethod: null,
    },
    recordCount: 2,
    messageCount: 1200,
    passCount: 1150,
    compliance: 95.83,
    senderAuthenticated: null,
    unauthenticatedReason: null,
    createdAt: '2025-03-02T08:00:00.000Z',
    ...overrides,
  };
}

export function makeFailedImport(overrides: Partial<DmarcReport> = {}): DmarcReport {
  return makeReport({
    id: 99,
    status: 'failed',
    error: 'This is not a DMARC aggregate report: no <feedback> element.',
    fileName: 'invoice.xml',
    domain: null,
    schema: null,
    version: null,
    orgName: null,
    reportId: null,
    email: null,
    dateBegin: null,
    dateEnd: null,
    generator: null,
    policyPublished: null,
    recordCount: 0,
    messageCount: 0,
    passCount: 0,
    compliance: null,
    ...overrides,
  });
}

export function makeReportDetail(overrides: Partial<DmarcReportDetail> = {}): DmarcReportDetail {
  return {
    ...makeReport(),
    records: [
      {
        sourceIp: '209.85.220.41',
        count: 1150,
        disposition: 'none',
        dkimResult: 'pass',
        spfResult: 'pass',
        headerFrom: 'example.com',
        envelopeFrom: 'example.com',
        dkimAuth: [{ domain: 'example.com', selector: 'google', result: 'pass', humanResult: null }],
        spfAuth: [{ domain: 'example.com', scope: 'mfrom', result: 'pass', humanResult: null }],
      },
      {
        sourceIp: '203.0.113.9',
        count: 50,
        disposition: 'quarantine',
        dkimResult: 'fail',
        spfResult: 'fail',
        headerFrom: 'example.com',
        envelopeFrom: null,
        dkimAuth: [],
        spfAuth: [{ domain: 'spoof.example.net', scope: 'mfrom', result: 'softfail', humanResult: null }],
      },
    ],
    ...overrides,
  };
}

export function reportList(items: DmarcReport[], page = 1, total = items.length): DmarcReportList {
  return { items, total, page, pageSize: 10 };
}

/**
 * What GET /api/dmarc/reports answers for `url` out of `items`, as the server filters: no failed imports,
 * and with `sender`, only the reports kept apart (senderAuthenticated false) or only the others.
 */
export function reportsFor(url: URL, items: DmarcReport[]): DmarcReportList {
  if (url.searchParams.get('status') === 'failed') return reportList([]);
  const sender = url.searchParams.get('sender');
  if (sender === null) return reportList(items);
  return reportList(
    items.filter((report) => (report.senderAuthenticated === false) === (sender === 'unauthenticated')),
  );
}

export function uploadAnswer(overrides: Partial<UploadResponse> = {}): UploadResponse {
  return { imported: 1, duplicates: 0, failed: [], reports: [makeReport()], ...overrides };
}

type Handler = (url: URL, init: RequestInit | undefined) => Response | Promise<Response>;

/**
 * A signed-in user's DMARC endpoints, through test-utils' stubFetch; the handlers take the URL first:
 * the panel asks the same path with different queries (a domain's reports and the failed imports).
 */
export function stubDmarc(
  options: {
    domains?: Domain[];
    analytics?: Handler;
    reports?: Handler;
    reportDomains?: Handler;
  } = {},
  extra: Record<string, Handler> = {},
) {
  const handlers: Record<string, Handler> = {
    'GET /api/user': () => jsonResponse(makeUser()),
    'GET /api/domains': () => jsonResponse(options.domains ?? [makeDomain()]),
    'GET /api/dmarc/analytics': options.analytics ?? (() => jsonResponse(makeAnalytics())),
    'GET /api/dmarc/reports': options.reports ?? ((url) => jsonResponse(reportsFor(url, [makeReport()]))),
    'GET /api/dmarc/intake': () => jsonResponse({ reportAddress: REPORT_ADDRESS, mailboxPolled: false }),
    'GET /api/dmarc/report-domains': options.reportDomains ?? (() => jsonResponse({ items: [] })),
    ...extra,
  };
  return stubFetch(
    Object.fromEntries(Object.entries(handlers).map(([key, handler]) => [key, (init, url) => handler(url, init)])),
  );
}

/** The URLs fetched so far for a path, with their queries. */
export function urlsOf(mock: ReturnType<typeof stubDmarc>, path: string): URL[] {
  return mock.mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((url) => url.pathname === path);
}

/**
 * What every test file of the DMARC panel needs: its lazy chunks loaded once up front (so the first
 * test does not spend its wait compiling them), and the ResizeObserver its charts need.
 */
export function setUpDmarcPanelTests() {
  beforeAll(async () => {
    await Promise.all([
      preloadSignedInFrame(),
      import('../components/dmarc-panel'),
      import('../components/dmarc-charts'),
    ]);
  });
  beforeEach(stubResizeObserver);
}

/** Opens Domain Management and the DMARC panel of `domain`'s card, as a user would. */
export async function openDmarcPanel(domain = 'example.com') {
  const view = renderApp('/domains');
  const cards = await screen.findAllByTestId('domain-card');
  const card = cards.find((element) => element.getAttribute('data-domain') === domain);
  if (!card) throw new Error(`No card for ${domain}`);
  const user = userEvent.setup();
  await user.click(within(card).getByRole('button', { name: 'Show DMARC reports' }));
  const panel = await within(card).findByTestId('dmarc-panel');
  return { ...view, user, panel: within(panel), panelElement: panel };
}
