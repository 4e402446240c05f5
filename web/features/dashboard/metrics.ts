import type { Domain } from '@contracts/domains';
import type { EmailMetric } from '@contracts/email-metrics';
import type { InboxTest } from '@contracts/inbox-tests';
import type { Integration } from '@contracts/integrations';
import { metricsWindowStart, percentOf, sendingRates, type MailVolumes, type SendingRates } from '@contracts/figures';
import { formatScore, inboxRateTone, type Tone } from '../../lib/format';

// Every threshold, label and figure of the dashboard (part 1, section 2.8), as pure functions so
// each boundary is tested once here and the components only draw what these return.

/** good = green, warn = yellow, bad = red, none = no data. One definition with the thresholds in web/lib/format.ts. */
export type { Tone };

export interface Rating {
  label: string;
  tone: Tone;
}

export const NO_DATA = 'No Data';
const noData: Rating = { label: NO_DATA, tone: 'none' };

/** Part 1, section 9: dashboard lists show 5 items. */
export const LIST_LIMIT = 5;
/** Part 1, section 9: the Global Providers figure is fixed. */
export const GLOBAL_PROVIDERS = 45;

/** Email Health Score: 90+ Excellent, 80+ Good, 70+ Fair, below 70 Needs Improvement. */
export function healthScoreRating(score: number | null): Rating {
  if (score === null) return noData;
  if (score >= 90) return { label: 'Excellent', tone: 'good' };
  if (score >= 80) return { label: 'Good', tone: 'good' };
  if (score >= 70) return { label: 'Fair', tone: 'warn' };
  return { label: 'Needs Improvement', tone: 'bad' };
}

/** Score bars (reputation, authentication, deliverability): 90+ green, 70+ yellow, else red. */
export function scoreTone(value: number | null): Tone {
  if (value === null) return 'none';
  if (value >= 90) return 'good';
  if (value >= 70) return 'warn';
  return 'bad';
}

/** The Improvement Tip: below 80 (or no score yet) it advises; otherwise it says health is excellent. */
export function needsImprovement(score: number | null): boolean {
  return score === null || score < 80;
}

const INBOX_RATE_LABELS: Record<Exclude<Tone, 'none'>, string> = { good: 'Excellent', warn: 'Good', bad: 'Poor' };

/** Inbox Rate: 90+ Excellent, 70+ Good, else Poor (the thresholds every screen colours inbox rates by). */
export function inboxRateRating(rate: number | null): Rating {
  const tone = inboxRateTone(rate);
  return tone === 'none' ? noData : { label: INBOX_RATE_LABELS[tone], tone };
}

/** Bounce Rate: 2 or less Excellent, 5 or less Acceptable, else High. */
export function bounceRateRating(rate: number | null): Rating {
  if (rate === null) return noData;
  if (rate <= 2) return { label: 'Excellent', tone: 'good' };
  if (rate <= 5) return { label: 'Acceptable', tone: 'warn' };
  return { label: 'High', tone: 'bad' };
}

/** Complaint Rate: 0.1 or less Excellent, 0.3 or less Acceptable, else High. */
export function complaintRateRating(rate: number | null): Rating {
  if (rate === null) return noData;
  if (rate <= 0.1) return { label: 'Excellent', tone: 'good' };
  if (rate <= 0.3) return { label: 'Acceptable', tone: 'warn' };
  return { label: 'High', tone: 'bad' };
}

function clampPercent(value: number): number {
  return Math.min(100, Math.max(0, value));
}

/** Width of a 0-100 bar. */
export function barWidth(value: number | null): number {
  return value === null ? 0 : clampPercent(value);
}

/**
 * Complaint bar: 10 times the percent, capped at 100 (spec). Bounce rates are small too, so their
 * bar uses the same scale (10% bounces fill it) rather than a sliver.
 */
export function tenfoldBarWidth(rate: number | null): number {
  return rate === null ? 0 : clampPercent(rate * 10);
}

// ---------------------------------------------------------------------------------------------
// Domain health

export type Completeness = 'Complete' | 'Partial' | 'Minimal' | 'Missing';

export function validRecordCount(domain: Pick<Domain, 'spfStatus' | 'dkimStatus' | 'dmarcStatus'>): number {
  return [domain.spfStatus, domain.dkimStatus, domain.dmarcStatus].filter((status) => status === 'valid').length;
}

/** Authentication completeness: 3 valid Complete, 2 Partial, 1 Minimal, 0 Missing. */
export function authCompleteness(
  domain: Pick<Domain, 'spfStatus' | 'dkimStatus' | 'dmarcStatus'>,
): Rating & { label: Completeness } {
  switch (validRecordCount(domain)) {
    case 3:
      return { label: 'Complete', tone: 'good' };
    case 2:
      return { label: 'Partial', tone: 'warn' };
    case 1:
      return { label: 'Minimal', tone: 'bad' };
    default:
      return { label: 'Missing', tone: 'bad' };
  }
}

export interface DomainSummary {
  total: number;
  healthy: number;
  /** Domains whose checks found a problem (warning or error); pending ones are not counted. */
  issues: number;
  /** Share of domains with status healthy, in percent; null without domains. */
  healthScore: number | null;
  /** Share of domains with SPF, DKIM and DMARC all valid, in percent; null without domains. */
  authenticationScore: number | null;
}

export function summarizeDomains(domains: Domain[]): DomainSummary {
  const total = domains.length;
  const healthy = domains.filter((d) => d.status === 'healthy').length;
  const issues = domains.filter((d) => d.status === 'warning' || d.status === 'error').length;
  const fullyAuthenticated = domains.filter((d) => validRecordCount(d) === 3).length;
  return {
    total,
    healthy,
    issues,
    healthScore: percentOf(healthy, total),
    authenticationScore: percentOf(fullyAuthenticated, total),
  };
}

// ---------------------------------------------------------------------------------------------
// Inbox tests

/** The subject if present; else 'Awaiting Email - Test #{id}' while awaiting the email; else 'Test #{id}'. */
export function inboxTestTitle(test: Pick<InboxTest, 'id' | 'subject' | 'status'>): string {
  if (test.subject) return test.subject;
  if (test.status === 'awaiting_email') return `Awaiting Email - Test #${test.id}`;
  return `Test #${test.id}`;
}

/** Status badge: green for completed, yellow for running, grey otherwise. */
export function inboxTestStatusTone(status: InboxTest['status']): Tone {
  if (status === 'completed') return 'good';
  if (status === 'running') return 'warn';
  return 'none';
}

export const INBOX_TEST_STATUS_LABELS: Record<InboxTest['status'], string> = {
  completed: 'Completed',
  running: 'Running',
  awaiting_email: 'Awaiting Email',
  failed: 'Failed',
};

/** Overall Email Deliverability: Excellent at 80+, Good at 60+, else Needs Attention. */
export function overallDeliverabilityRating(inboxRate: number): Rating {
  if (inboxRate >= 80) return { label: 'Excellent', tone: 'good' };
  if (inboxRate >= 60) return { label: 'Good', tone: 'warn' };
  return { label: 'Needs Attention', tone: 'bad' };
}

export interface InboxTestSummary {
  completed: number;
  running: number;
  totalSeeds: number;
  /** Sums over completed tests divided by their total seeds, in percent; null without seeds. */
  inboxRate: number | null;
  spamRate: number | null;
  missingRate: number | null;
  /** Mean of each completed test's own rates (tests with seeds), for the Global Provider block. */
  average: { inboxRate: number; spamRate: number; missingRate: number } | null;
}

export function summarizeInboxTests(tests: InboxTest[]): InboxTestSummary {
  const completed = tests.filter((t) => t.status === 'completed');
  const running = tests.filter((t) => t.status === 'running').length;
  const sum = (key: 'totalSeeds' | 'inboxCount' | 'spamCount' | 'missingCount') =>
    completed.reduce((total, test) => total + test[key], 0);
  const totalSeeds = sum('totalSeeds');
  const measured = completed.filter((t) => t.totalSeeds > 0);
  const mean = (key: 'inboxCount' | 'spamCount' | 'missingCount') =>
    measured.reduce((total, test) => total + (test[key] / test.totalSeeds) * 100, 0) / measured.length;
  return {
    completed: completed.length,
    running,
    totalSeeds,
    inboxRate: percentOf(sum('inboxCount'), totalSeeds),
    spamRate: percentOf(sum('spamCount'), totalSeeds),
    missingRate: percentOf(sum('missingCount'), totalSeeds),
    average:
      measured.length > 0
        ? { inboxRate: mean('inboxCount'), spamRate: mean('spamCount'), missingRate: mean('missingCount') }
        : null,
  };
}

// ---------------------------------------------------------------------------------------------
// ESP / MTA data

/** The volumes of the last 30 days and their rates, as contracts/figures.ts defines them for every screen. */
export type MetricsSummary = MailVolumes & SendingRates;

/**
 * Delivery, bounce and complaint rates and volume of the email metrics of the last 30 days (the
 * overview's window); the complaint rate is complaints / delivered, the same figure as the overview's.
 */
export function summarizeMetrics(metrics: EmailMetric[], now: Date = new Date()): MetricsSummary {
  const from = metricsWindowStart(now);
  const recent = metrics.filter((m) => m.date >= from);
  const volumes: MailVolumes = {
    sent: recent.reduce((t, m) => t + m.emailsSent, 0),
    delivered: recent.reduce((t, m) => t + m.delivered, 0),
    bounced: recent.reduce((t, m) => t + m.bounced, 0),
    complaints: recent.reduce((t, m) => t + m.complaints, 0),
  };
  return { ...volumes, ...sendingRates(volumes) };
}

/** Delivered percent in Recent Email Activity: 95+ green, 90+ yellow, else red. */
export function deliveredTone(percent: number | null): Tone {
  if (percent === null) return 'none';
  if (percent >= 95) return 'good';
  if (percent >= 90) return 'warn';
  return 'bad';
}

export function activeIntegrations(integrations: Integration[]): Integration[] {
  return integrations.filter((i) => i.status === 'active');
}

// ---------------------------------------------------------------------------------------------
// Data sources

export type DataSourceId = 'overview' | 'domain-health' | 'inbox-tests' | 'esp-data';

export interface DataSource {
  id: DataSourceId;
  label: string;
  description: string;
  available: boolean;
}

/** overview always; domain-health with a domain; inbox-tests with a test; esp-data with an active integration. */
export function dataSources(input: { domains: number; inboxTests: number; activeIntegrations: number }): DataSource[] {
  return [
    {
      id: 'overview',
      label: 'Combined Overview',
      description: 'Your health score, reputation, authentication and sending rates from every source in one view.',
      available: true,
    },
    {
      id: 'domain-health',
      label: 'Domain Health',
      description: 'SPF, DKIM and DMARC authentication and health of each of your sending domains.',
      available: input.domains >= 1,
    },
    {
      id: 'inbox-tests',
      label: 'Inbox Placement Tests',
      description: 'Where your test emails landed: inbox, spam or missing, across mailbox providers.',
      available: input.inboxTests >= 1,
    },
    {
      id: 'esp-data',
      label: 'ESP/MTA Data',
      description: 'Delivery, bounce and complaint figures synced from your connected ESP and MTA integrations.',
      available: input.activeIntegrations >= 1,
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Recent alerts

export interface QuietVerdict {
  /** True only when every domain was checked and passes, and the health score (when known) is not poor. */
  healthy: boolean;
  text: string;
  /** Where to act on it, when something is to be done. */
  action: { label: string; to: 'domains' } | null;
}

/**
 * What the Recent Alerts card says when there are no alerts. The spec's 'Your email deliverability
 * is healthy' only when that is true: not beside a domain with issues or not checked yet, not
 * without any domain, not with a health score that Needs Improvement (below 70).
 */
export function quietVerdict(domains: Pick<Domain, 'domain' | 'status'>[], healthScore: number | null): QuietVerdict {
  const failing = domains.filter((d) => d.status === 'warning' || d.status === 'error');
  if (failing.length === 1)
    return {
      healthy: false,
      text: `${failing[0].domain} needs attention: its DNS checks found problems.`,
      action: { label: 'Open Domains', to: 'domains' },
    };
  if (failing.length > 1)
    return {
      healthy: false,
      text: `${failing.length} of your domains need attention: their DNS checks found problems.`,
      action: { label: 'Open Domains', to: 'domains' },
    };
  const pending = domains.filter((d) => d.status !== 'healthy');
  if (pending.length > 0) {
    const which = pending.length === 1 ? pending[0].domain : `${pending.length} of your domains`;
    return {
      healthy: false,
      text: `${which} ${pending.length === 1 ? 'has' : 'have'} not been checked yet: run Verify DNS to check ${pending.length === 1 ? 'it' : 'them'}.`,
      action: { label: 'Open Domains', to: 'domains' },
    };
  }
  if (domains.length === 0)
    return {
      healthy: false,
      text: 'Add a domain to monitor its authentication and deliverability.',
      action: { label: 'Add Domain', to: 'domains' },
    };
  if (healthScore !== null && healthScoreRating(healthScore).tone === 'bad') {
    return {
      healthy: false,
      text: `Your email health score is ${formatScore(healthScore)}/100 and needs improvement.`,
      action: null,
    };
  }
  return { healthy: true, text: 'Your email deliverability is healthy', action: null };
}

/** Newest first by createdAt, at most `limit` items. */
export function latest<T extends { createdAt: string }>(items: T[], limit = LIST_LIMIT): T[] {
  return [...items].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt)).slice(0, limit);
}
