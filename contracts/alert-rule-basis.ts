import type { ALERT_RULE_WINDOWS, AlertRuleType } from './alert-settings';

/*
 * What an alert rule is judged on, said once for the server (the rule's `judgedOn` and its alerts)
 * and the Create Rule form (ADR 040). Delivery figures come from the MTA and ESP events, which carry
 * the time they happened and the sending domain; statistics imported per day from an ESP carry
 * neither, so they count only for account-wide rules of a day or more, and say so.
 */

export type RuleWindow = (typeof ALERT_RULE_WINDOWS)[number];

/** Each window's length: a rule looks back this far from the moment it is evaluated. */
export const RULE_WINDOW_MS: Record<RuleWindow, number> = {
  '10m': 10 * 60_000,
  '1h': 3_600_000,
  '6h': 6 * 3_600_000,
  '24h': 24 * 3_600_000,
  '7d': 7 * 24 * 3_600_000,
};

const LAST: Record<RuleWindow, string> = {
  '10m': 'the last 10 minutes',
  '1h': 'the last hour',
  '6h': 'the last 6 hours',
  '24h': 'the last 24 hours',
  '7d': 'the last 7 days',
};

/** "the last hour", "the last 7 days". */
export const lastWindow = (window: RuleWindow) => LAST[window];

/** How the window's figure falls back on imported daily statistics: only for a whole day or more. */
export const usesDailyStatistics = (window: RuleWindow, domain: string | null) =>
  domain === null && (window === '24h' || window === '7d');

/** One sentence: which figures a rule of this type, window and domain is judged on. */
export function ruleBasis(type: AlertRuleType, window: RuleWindow, domain: string | null): string {
  if (type === 'senderScore') {
    return `Judged on the latest sender score of ${domain ?? 'each of your domains and IP addresses'}: a score is a reading, not a count over time, so the time window does not apply.`;
  }
  if (type === 'inboxRate') {
    return `Judged on the inbox tests completed in ${LAST[window]}${domain ? ` whose From domain is ${domain}` : ', per From domain'}.`;
  }
  const compared =
    type === 'volumeIncrease' || type === 'volumeDecrease'
      ? `, against the ${LAST[window].slice('the last '.length)} before`
      : '';
  const events = `Judged on the MTA and ESP delivery events of ${LAST[window]}${compared}`;
  if (domain) {
    return `${events} sent from ${domain} or its subdomains. Statistics imported per day from an ESP cover your whole account, so they do not count for one domain's rule.`;
  }
  if (usesDailyStatistics(window, domain)) {
    return `${events}, all domains; when they hold fewer than 100 messages, on the daily statistics imported from your ESPs (${window === '7d' ? 'the last 7 UTC days' : 'the latest UTC day'}).`;
  }
  return `${events}, all domains. Statistics imported per day from an ESP cannot be split into hours, so they count only in 24-hour and 7-day rules.`;
}
