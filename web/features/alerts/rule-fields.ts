import { z } from 'zod';
import { AlertRuleType, AlertRuleWindow, CreateAlertRule, RuleNotifications } from '@contracts/alert-settings';
import { thresholdProblem } from './rule-format';

/** A threshold as typed (a number input's text), checked by the contract's rule for the number it becomes. */
function threshold(which: 'warning' | 'critical') {
  return z
    .string()
    .transform((typed) => (typed.trim() === '' ? Number.NaN : Number(typed)))
    .pipe(CreateAlertRule.shape.threshold.shape[which]);
}

/**
 * The Create Alert Rule form as typed, checked by the API's rules (CreateAlertRule) in its words, then
 * by the server's own threshold checks (thresholdProblem) at the field they are about.
 */
export const RuleFields = z
  .object({
    name: CreateAlertRule.shape.name,
    type: AlertRuleType,
    /** "" is the "All domains" choice. */
    domain: z.string().transform((domain) => domain || null),
    warning: threshold('warning'),
    critical: threshold('critical'),
    timeWindow: AlertRuleWindow,
    notifications: RuleNotifications,
  })
  .superRefine(({ type, warning, critical }, ctx) => {
    const problem = thresholdProblem(type, warning, critical);
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });
export type RuleFieldsInput = z.input<typeof RuleFields>;

/** The request body the fields make. */
export function ruleBody({
  name,
  type,
  domain,
  warning,
  critical,
  timeWindow,
  notifications,
}: z.output<typeof RuleFields>): CreateAlertRule {
  return { name, type, domain, threshold: { warning, critical }, notifications, timeWindow };
}

/** The field a server message names ("threshold.critical must be ..."), or none: the form as a whole. */
export function ruleFieldOf(message: string): 'name' | 'domain' | 'warning' | 'critical' | undefined {
  if (message.startsWith('threshold.warning')) return 'warning';
  if (message.startsWith('threshold.critical')) return 'critical';
  if (message.startsWith('name')) return 'name';
  if (message.startsWith('domain')) return 'domain';
  return undefined;
}
