import type { z } from 'zod';
import { ruleBasis, type RuleWindow } from '@contracts/alert-rule-basis';
import {
  ALERT_RULE_TYPES,
  AlertRule,
  MAX_ALERT_RULES,
  SMS_UNAVAILABLE,
  type AlertRuleType,
  type CreateAlertRule,
} from '@contracts/alert-settings';
import { requireFeature } from '../plans/plan-gate.service';
import type { AppContext } from '../platform/context';
import type { Executor } from '../platform/db/client';
import type { UserRow } from '../platform/db/schema/index';
import { isUserDomain } from '../insights/user-domains';
import { AppError } from '../platform/errors';
import { twilioSettingsOf } from './channels/twilio';
import { queueAlertEvaluation } from './evaluate-alerts.job';
import {
  countUserAlertRulesLocked,
  deleteUserAlertRule,
  insertAlertRule,
  listUserAlertRules,
  type AlertRuleRow,
} from './alert-rules.repo';

type NewRule = z.output<typeof CreateAlertRule>;

export function toAlertRule(row: AlertRuleRow): AlertRule {
  return AlertRule.parse({
    ...row,
    threshold: { warning: row.warningThreshold, critical: row.criticalThreshold },
    createdAt: row.createdAt.toISOString(),
    judgedOn: ruleBasis(row.type as AlertRuleType, row.timeWindow as RuleWindow, row.domain),
  });
}

/** The user's rules as the API shows them, newest first (the list route and the evaluation). */
export async function alertRulesOf(ex: Executor, userId: number): Promise<AlertRule[]> {
  return (await listUserAlertRules(ex, userId)).map(toAlertRule);
}

export async function createAlertRule(ctx: AppContext, user: UserRow, rule: NewRule): Promise<AlertRule> {
  checkThresholds(rule);
  if (rule.domain !== null && !(await isUserDomain(ctx.db, user.id, rule.domain))) {
    throw new AppError('validation_error', `domain ${rule.domain} is not one of your domains`);
  }
  const { notifications } = rule;
  if (notifications.slack || notifications.sms || notifications.webhook) requireFeature(user, 'advanced_alerting');
  // A rule that texts on a server that cannot send texts would alert nobody, silently.
  if (notifications.sms && !twilioSettingsOf(ctx.env)) throw new AppError('conflict', SMS_UNAVAILABLE);
  const created = await ctx.db.transaction(async (tx) => {
    if ((await countUserAlertRulesLocked(tx, user.id)) >= MAX_ALERT_RULES) {
      throw new AppError(
        'validation_error',
        `You can keep at most ${MAX_ALERT_RULES} alert rules: delete one to add another`,
      );
    }
    const row = await insertAlertRule(tx, {
      userId: user.id,
      name: rule.name,
      type: rule.type,
      domain: rule.domain,
      warningThreshold: rule.threshold.warning,
      criticalThreshold: rule.threshold.critical,
      notifications,
      timeWindow: rule.timeWindow,
      enabled: rule.enabled,
    });
    return toAlertRule(row);
  });
  // Committed: the evaluation judges the new rule on the data there is now, not at the next hour.
  await queueAlertEvaluation(ctx.jobs, user.id);
  return created;
}

/**
 * Critical lies past warning in the way the metric gets worse, so a value reaches warning first.
 * Every type but a volume increase is a share or a 0-100 score: past 100 it could never fire.
 */
function checkThresholds({ type, threshold }: NewRule): void {
  const { label, direction } = ALERT_RULE_TYPES[type];
  if (type !== 'volumeIncrease') {
    for (const level of ['warning', 'critical'] as const) {
      if (threshold[level] > 100)
        throw new AppError('validation_error', `threshold.${level} must be at most 100 for ${label}`);
    }
  }
  const beyond =
    direction === 'above' ? threshold.critical > threshold.warning : threshold.critical < threshold.warning;
  if (!beyond) {
    throw new AppError(
      'validation_error',
      `threshold.critical must be ${direction === 'above' ? 'above' : 'below'} threshold.warning: ${label} alerts when it goes ${direction} them`,
    );
  }
}

/** Its open alerts are resolved by the evaluation queued here ("no longer monitored"). */
export async function deleteAlertRule(ctx: Pick<AppContext, 'db' | 'jobs'>, userId: number, id: number): Promise<void> {
  if (!(await deleteUserAlertRule(ctx.db, userId, id))) throw new AppError('not_found', 'Alert rule not found');
  await queueAlertEvaluation(ctx.jobs, userId);
}
