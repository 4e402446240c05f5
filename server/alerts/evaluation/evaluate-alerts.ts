import { ALERT_SETTING_DEFAULTS } from '@contracts/alert-settings';
import { addDays, utcDay } from '@contracts/utc-day';
import type { AppContext } from '../../platform/context';
import type { Executor } from '../../platform/db/client';
import { userScorecards } from '../../compliance/compliance.service';
import { claimNewDrops } from '../../timeline/timeline.service';
import { openConditionKeys, openOrUpdateCondition, resolveCondition } from '../alert-conditions';
import { createAlert } from '../alerts.repo';
import { queueAlertDelivery } from '../deliver-alerts.job';
import {
  DMARC_DAYS,
  EVALUATED_PREFIXES,
  GMAIL_SPAM_DAYS,
  INBOX_TEST_DAYS,
  measureAll,
  ruleEventWindows,
  type EvaluationData,
  type Measured,
} from './conditions';
import { RULE_WINDOW_MS } from '@contracts/alert-rule-basis';
import {
  countEventWindows,
  listDmarcTotals,
  listDomainFacts,
  listLatestGmailSpam,
  listMetricDays,
  listRecentTests,
  listScoredIps,
  type EventWindows,
} from '../../insights/alert-figures';
import { findThresholds, listEnabledRules, lockUserEvaluation } from './evaluation.repo';

export interface EvaluationSummary {
  raised: number;
  escalated: number;
  updated: number;
  resolved: number;
}

/** Reads everything one user's conditions are computed from; in turn, as the executor may be one connection. */
export async function loadEvaluationData(ex: Executor, userId: number, now: Date): Promise<EvaluationData> {
  const today = utcDay(now);
  const settings = (await findThresholds(ex, userId)) ?? {
    inboxThreshold: ALERT_SETTING_DEFAULTS.inboxThreshold,
    bounceThreshold: ALERT_SETTING_DEFAULTS.bounceThreshold,
    spamThreshold: ALERT_SETTING_DEFAULTS.spamThreshold,
    reputationThreshold: ALERT_SETTING_DEFAULTS.reputationThreshold,
  };
  const rules = await listEnabledRules(ex, userId);
  const ruleEvents = new Map<string, EventWindows>();
  for (const { key, window, domain } of ruleEventWindows(rules)) {
    ruleEvents.set(key, await countEventWindows(ex, userId, now, RULE_WINDOW_MS[window], domain));
  }
  return {
    now,
    today,
    settings,
    rules,
    tests: await listRecentTests(ex, userId, now, INBOX_TEST_DAYS),
    // Two 7-day windows before yesterday (volume rules) and a day to spare.
    metrics: await listMetricDays(ex, userId, addDays(today, -15)),
    ips: await listScoredIps(ex, userId),
    domains: await listDomainFacts(ex, userId),
    dmarc: await listDmarcTotals(ex, userId, addDays(today, -(DMARC_DAYS - 1))),
    gmailSpam: await listLatestGmailSpam(ex, userId, addDays(today, -GMAIL_SPAM_DAYS)),
    ruleEvents,
    compliance: await userScorecards(ex, userId, now),
  };
}

/**
 * One user's alert conditions: every condition computed from the data, then in one transaction under
 * a per-user lock each holding condition's alert is raised or updated and every other open condition
 * alert of the evaluation's namespaces is resolved (recovered, or no longer monitored). Two
 * evaluations at once write one after the other, and the second finds nothing to change. After the
 * commit, delivery is queued when there is something to tell.
 */
export async function evaluateAlerts(
  ctx: Pick<AppContext, 'db' | 'jobs'>,
  userId: number,
  options: { now?: Date } = {},
): Promise<EvaluationSummary> {
  const now = options.now ?? new Date();
  const summary = await ctx.db.transaction(async (tx) => {
    await lockUserEvaluation(tx, userId);
    // Read under the lock: an evaluation that waited sees what the one before it wrote.
    const measured = measureAll(await loadEvaluationData(tx, userId, now));
    const summary = await writeConditions(tx, userId, measured);
    summary.raised += await raiseDropAlerts(tx, userId, now);
    return summary;
  });
  if (summary.raised + summary.escalated + summary.resolved > 0) {
    await queueAlertDelivery(ctx.jobs, userId);
  }
  return summary;
}

async function writeConditions(tx: Executor, userId: number, measured: Measured[]): Promise<EvaluationSummary> {
  const summary: EvaluationSummary = { raised: 0, escalated: 0, updated: 0, resolved: 0 };
  const seen = new Map(measured.map((m) => [m.key, m]));
  for (const m of seen.values()) {
    if (m.alert) {
      const outcome = await openOrUpdateCondition(tx, { ...m.alert, userId, conditionKey: m.key });
      if (outcome !== 'unchanged') summary[outcome]++;
    } else if (await resolveCondition(tx, userId, m.key, `Recovered: ${m.recovered}`)) summary.resolved++;
  }
  for (const key of await openConditionKeys(tx, userId, EVALUATED_PREFIXES)) {
    if (seen.has(key)) continue;
    if (await resolveCondition(tx, userId, key, `Recovered: ${noLongerMonitored(key)}`)) summary.resolved++;
  }
  return summary;
}

/**
 * A drop the timeline's change detection found in one of the user's series (ADR 035) raises one
 * alert: its message is the diagnosis' summary, its link the domain's timeline. A drop is an event,
 * not a condition: the alert is not resolved, and the drop is never alerted twice (claimNewDrops).
 */
async function raiseDropAlerts(tx: Executor, userId: number, now: Date): Promise<number> {
  const drops = await claimNewDrops(tx, userId, now);
  for (const drop of drops) await createAlert(tx, { ...drop, userId });
  return drops.length;
}

/** Why an open condition was not measured at all: its data, rule or domain is gone. */
function noLongerMonitored(key: string): string {
  const [kind, ...rest] = key.split(':');
  const subject = rest.join(':');
  switch (kind) {
    case 'inbox':
      return `no longer monitored: no completed inbox test from ${subject === 'account' ? 'your account' : subject} in the last ${INBOX_TEST_DAYS} days.`;
    case 'metrics':
      return 'no longer monitored: no email metrics for today or yesterday, or too few messages to judge.';
    case 'score':
      return `no longer monitored: ${subject.replace(/^(ip|domain):/, '')} is no longer monitored or scored.`;
    case 'auth-records':
      return `no longer monitored: ${subject} is no longer one of your checked domains.`;
    case 'dmarc-failures':
      return `no longer monitored: fewer than 100 messages for ${subject} in the DMARC reports of the last ${DMARC_DAYS} days.`;
    case 'rule':
      return 'no longer monitored: the rule was deleted or switched off, its domain is gone, or its data is too little to judge.';
    default:
      return 'no longer monitored.';
  }
}
