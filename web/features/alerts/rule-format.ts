import { ALERT_RULE_TYPES, type AlertRule, type AlertRuleType } from '@contracts/alert-settings';
import { formatNumber } from '../../lib/format';

const WINDOW_LABELS: Record<AlertRule['timeWindow'], string> = {
  '10m': '10 minutes',
  '1h': '1 hour',
  '6h': '6 hours',
  '24h': '24 hours',
  '7d': '7 days',
};

export function windowLabel(window: AlertRule['timeWindow']): string {
  return WINDOW_LABELS[window];
}

/** "below 90%" / "above 5%" / "below 70" (a sender score has no unit). */
export function thresholdInWords(type: AlertRuleType, value: number): string {
  const { direction, unit } = ALERT_RULE_TYPES[type];
  return `${direction} ${formatNumber(value, 2)}${unit}`;
}

/** How the two thresholds of a type relate, said before the user types them. */
export function directionHint(type: AlertRuleType): string {
  const { label, direction } = ALERT_RULE_TYPES[type];
  return direction === 'below'
    ? `${label}: a warning when it falls below the warning threshold, critical when it falls below the critical one (so critical is the lower figure).`
    : `${label}: a warning when it rises above the warning threshold, critical when it rises above the critical one (so critical is the higher figure).`;
}

/**
 * The server's own checks (alert-rules.service.ts), said at the field before a round trip: critical
 * lies strictly past warning in the way the figure gets worse, and a share or score stops at 100.
 */
export function thresholdProblem(
  type: AlertRuleType,
  warning: number,
  critical: number,
): { field: 'warning' | 'critical'; message: string } | null {
  const { direction, label } = ALERT_RULE_TYPES[type];
  if (type !== 'volumeIncrease') {
    if (warning > 100) return { field: 'warning', message: `The warning threshold must be at most 100 for ${label}.` };
    if (critical > 100)
      return { field: 'critical', message: `The critical threshold must be at most 100 for ${label}.` };
  }
  const beyond = direction === 'above' ? critical > warning : critical < warning;
  return beyond
    ? null
    : { field: 'critical', message: `The critical threshold must be ${direction} the warning threshold for ${label}.` };
}

export function channelsInWords(notifications: AlertRule['notifications']): string {
  const names = [
    notifications.email && 'Email',
    notifications.webhook && 'Webhook',
    notifications.slack && 'Slack',
    notifications.sms && 'SMS',
  ].filter(Boolean);
  return names.length > 0 ? names.join(', ') : 'No channel';
}
