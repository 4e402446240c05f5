import type { Alert } from '@contracts/alerts';
import type { ComplianceOverview } from '@contracts/compliance';
import type { DashboardOverview, DashboardTrends } from '@contracts/dashboard';
import type { Domain } from '@contracts/domains';
import type { EmailMetric } from '@contracts/email-metrics';
import type { InboxTest } from '@contracts/inbox-tests';
import type { Integration } from '@contracts/integrations';
import { utcDay } from '@contracts/utc-day';
import type { PostmasterStats, PostmasterStatus } from '@contracts/postmaster';
import type { User } from '@contracts/user';
import { sendingRates } from '@contracts/figures';
import { makePostmasterStatus } from '../../../test/postmaster-fixtures';
import {
  jsonResponse,
  makeDomain as baseDomain,
  makeInboxTest,
  makeIntegration,
  makeUser,
  stubFetch,
} from '../../../test/test-utils';

// Builders of API answers for the dashboard's tests (test-only module).

export function makeOverview(overrides: Partial<DashboardOverview> = {}): DashboardOverview {
  return {
    healthScore: 85,
    domainReputation: 92,
    ipReputation: 75,
    authenticationScore: 60,
    inboxRate: '91.50',
    bounceRate: '1.20',
    complaintRate: '0.05',
    isEmpty: false,
    counts: { domains: 1, inboxTests: 1, activeIntegrations: 0 },
    ...overrides,
  };
}

/**
 * The overview the server computes from these metric rows (dashboard.formulas.ts): the rates of
 * contracts/figures.ts's sendingRates, as two-decimal strings.
 */
export function overviewOfMetrics(
  metrics: EmailMetric[],
  overrides: Partial<DashboardOverview> = {},
): DashboardOverview {
  const sum = (pick: (metric: EmailMetric) => number) => metrics.reduce((total, metric) => total + pick(metric), 0);
  const rates = sendingRates({
    sent: sum((m) => m.emailsSent),
    delivered: sum((m) => m.delivered),
    bounced: sum((m) => m.bounced),
    complaints: sum((m) => m.complaints),
  });
  const percentString = (value: number | null) => (value === null ? null : value.toFixed(2));
  return makeOverview({
    bounceRate: percentString(rates.bounceRate),
    complaintRate: percentString(rates.complaintRate),
    ...overrides,
  });
}

export const emptyOverview = makeOverview({
  healthScore: null,
  domainReputation: null,
  ipReputation: null,
  authenticationScore: null,
  inboxRate: null,
  bounceRate: null,
  complaintRate: null,
  isEmpty: true,
  counts: { domains: 0, inboxTests: 0, activeIntegrations: 0 },
});

/** A domain as the dashboard's tests expect it: every record published, reputation known. */
export function makeDomain(overrides: Partial<Domain> = {}): Domain {
  return baseDomain({
    verificationRecord: { name: '_inboxpulse.example.com', value: 'inboxpulse-verification=abc' },
    spfRecord: 'v=spf1 include:_spf.example.net ~all',
    dkimRecord: 'v=DKIM1; k=rsa; p=MIGf',
    reputationScore: 90,
    lastCheckedAt: '2025-01-01T00:00:00.000Z',
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  });
}

/** A completed test with seeds, finished just now. */
export function makeTest(overrides: Partial<InboxTest> = {}): InboxTest {
  const now = new Date().toISOString();
  return makeInboxTest({
    status: 'completed',
    subject: 'Spring sale',
    provider: 'SendGrid',
    totalSeeds: 10,
    inboxCount: 8,
    spamCount: 1,
    missingCount: 1,
    createdAt: now,
    completedAt: now,
    ...overrides,
  });
}

/** An integration that has synced a month of figures, the last time just now. */
export function makeSyncedIntegration(overrides: Partial<Integration> = {}): Integration {
  return makeIntegration({
    lastSync: new Date().toISOString(),
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    emailsSent: 1000,
    deliveryRate: 98.5,
    dataPoints: 30,
    keyPreview: '…abcd',
    ...overrides,
  });
}

export function makeMetric(overrides: Partial<EmailMetric> = {}): EmailMetric {
  return {
    id: 1,
    provider: 'sendgrid',
    date: utcDay(),
    emailsSent: 1000,
    delivered: 980,
    bounced: 15,
    complaints: 1,
    ...overrides,
  };
}

export function makeAlert(overrides: Partial<Alert> = {}): Alert {
  return {
    id: 1,
    type: 'authentication_failure',
    severity: 'error',
    title: 'DMARC failing',
    message: 'DMARC checks failed for example.com',
    domain: 'example.com',
    metadata: null,
    isRead: false,
    createdAt: new Date().toISOString(),
    updatedAt: null,
    resolvedAt: null,
    acknowledgedAt: null,
    history: [],
    ...overrides,
  };
}

export const emptyTrends: DashboardTrends = {
  days: 30,
  inboxRate: [],
  deliveryRate: [],
  bounceRate: [],
  complaintRate: [],
};

export interface DashboardData {
  user?: User;
  overview?: DashboardOverview | (() => Response);
  domains?: Domain[];
  tests?: InboxTest[];
  integrations?: Integration[];
  metrics?: EmailMetric[];
  alerts?: Alert[] | (() => Alert[]);
  trends?: DashboardTrends;
  /** Google Postmaster Tools: not connected unless given. */
  postmaster?: PostmasterStatus;
  postmasterStats?: PostmasterStats;
  /** The compliance card's counts: no checked domain unless given. */
  compliance?: ComplianceOverview;
  extra?: Parameters<typeof stubFetch>[0];
}

/** A signed-in user with the given dashboard data behind every endpoint the dashboard reads. */
export function stubDashboard(data: DashboardData = {}) {
  const { overview = makeOverview(), alerts = [] } = data;
  return stubFetch({
    'GET /api/user': () => jsonResponse(data.user ?? makeUser()),
    'GET /api/dashboard/overview': () => (typeof overview === 'function' ? overview() : jsonResponse(overview)),
    'GET /api/domains': () => jsonResponse(data.domains ?? []),
    'GET /api/inbox-tests': () => jsonResponse(data.tests ?? []),
    'GET /api/integrations': () => jsonResponse(data.integrations ?? []),
    'GET /api/email-metrics': () => jsonResponse(data.metrics ?? []),
    'GET /api/alerts': () => jsonResponse(typeof alerts === 'function' ? alerts() : alerts),
    'GET /api/dashboard/trends': () => jsonResponse(data.trends ?? emptyTrends),
    'GET /api/postmaster/status': () => jsonResponse(data.postmaster ?? makePostmasterStatus()),
    'GET /api/postmaster/stats': () => jsonResponse(data.postmasterStats ?? { from: '', to: '', days: [] }),
    'GET /api/dashboard/compliance': () => jsonResponse(data.compliance ?? { notMet: 0, domains: [] }),
    ...data.extra,
  });
}
