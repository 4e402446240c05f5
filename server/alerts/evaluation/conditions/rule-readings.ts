import { lastWindow, type RuleWindow } from '@contracts/alert-rule-basis';
import type { EventWindows } from '../../../insights/alert-figures';
import { MIN_MESSAGES } from './thresholds';
import { count, pct, round, type EvaluationData } from './shared';
import { metricsAnchor, readMetric, type MetricKind, type Reading } from './metric-readings';

/* What a delivery rule reads: its own window's events, or the daily figures. */

/** A delivery figure of the rule's own window, from the events' own times; null when too few messages came. */
export function readEvents(
  kind: MetricKind,
  events: EventWindows | undefined,
  window: RuleWindow,
  domain: string | null,
): Reading | null {
  if (!events) return null;
  const { current: now, previous: before } = events;
  const period = lastWindow(window);
  const from = domain ? ` sent from ${domain}` : '';
  const source = ', from your MTA and ESP events';
  const base = { basis: 'MTA and ESP events', period, ...(domain ? { domain } : {}) };
  if (kind === 'volumeUp' || kind === 'volumeDown') {
    if (before.sent < MIN_MESSAGES) return null;
    const change = pct(now.sent - before.sent, before.sent);
    return {
      value: kind === 'volumeUp' ? change : round(-change),
      facts: { ...base, sent: now.sent, previousSent: before.sent },
      words: `${count(now.sent)} messages${from} in ${period} against ${count(before.sent)} in the ${period.slice('the last '.length)} before${source}`,
    };
  }
  if (now.sent < MIN_MESSAGES) return null;
  const facts = { ...base, sent: now.sent };
  if (kind === 'bounce')
    return {
      value: pct(now.bounced, now.sent, 2),
      facts: { ...facts, bounced: now.bounced },
      words: `${count(now.bounced)} of ${count(now.sent)} messages${from} bounced in ${period}${source}`,
    };
  if (kind === 'delivery')
    return {
      value: pct(now.delivered, now.sent),
      facts: { ...facts, delivered: now.delivered },
      words: `${count(now.delivered)} of ${count(now.sent)} messages${from} were delivered in ${period}${source}`,
    };
  // Complaints over delivered mail, as Google Postmaster Tools computes the spam rate.
  if (now.delivered <= 0) return null;
  return {
    value: pct(now.complaints, now.delivered, 2),
    facts: { ...facts, delivered: now.delivered, complaints: now.complaints },
    words: `${count(now.complaints)} spam complaints for ${count(now.delivered)} delivered messages${from} in ${period}${source}`,
  };
}

/**
 * An account-wide rule of a day or more whose window held too few events: the daily figures, which
 * hold what ESPs report only per day (ADR 040). 24 hours is the latest UTC day with figures.
 */
export function readDailyStatistics(kind: MetricKind, data: EvaluationData, window: RuleWindow): Reading | null {
  const anchor = metricsAnchor(data.metrics, data.today);
  if (!anchor) return null;
  const reading = readMetric(kind, data.metrics, anchor, data.today, window === '7d' ? 7 : 1);
  if (!reading) return null;
  return {
    ...reading,
    facts: { ...reading.facts, basis: 'daily figures' },
    words: `${reading.words}, from your daily figures, which include the statistics imported per day from your ESPs`,
  };
}
