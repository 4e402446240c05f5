import type { DayVolumes } from '@contracts/figures';
import { addDays } from '@contracts/utc-day';
import { MIN_MESSAGES } from './thresholds';
import { count, pct, round } from './shared';

/* The daily figures' windows and rates, which the metric conditions and account-wide rules judge. */

interface Window {
  days: number;
  from: string;
  to: string;
  sent: number;
  delivered: number;
  bounced: number;
  complaints: number;
}

function sumWindow(metrics: DayVolumes[], to: string, days: number): Window {
  const from = addDays(to, -(days - 1));
  const w: Window = { days, from, to, sent: 0, delivered: 0, bounced: 0, complaints: 0 };
  for (const m of metrics) {
    if (m.date < from || m.date > to) continue;
    w.sent += m.sent;
    w.delivered += m.delivered;
    w.bounced += m.bounced;
    w.complaints += m.complaints;
  }
  return w;
}

/**
 * The day rates are judged on: the latest UTC day with figures among today and yesterday; none
 * when neither has any (figures stopped coming: nothing is judged).
 */
export function metricsAnchor(metrics: DayVolumes[], today: string): string | null {
  const days = new Set(metrics.map((m) => m.date));
  if (days.has(today)) return today;
  const yesterday = addDays(today, -1);
  return days.has(yesterday) ? yesterday : null;
}

/**
 * Volume compares whole days: today's figures are a day still going (an integration syncing every
 * hour would make every morning a "drop"), so its window ends yesterday.
 */
const volumeEnd = (today: string) => addDays(today, -1);

const windowWords = (w: { days: number; from: string; to: string }) =>
  w.days === 1 ? `on ${w.to} (UTC)` : `from ${w.from} to ${w.to} (UTC)`;

/** A rate or change and the figures behind it, or why it cannot be judged. */
export interface Reading {
  value: number;
  facts: Record<string, number | string>;
  words: string;
}

export type MetricKind = 'bounce' | 'complaints' | 'delivery' | 'volumeUp' | 'volumeDown';

export function readMetric(
  kind: MetricKind,
  metrics: DayVolumes[],
  anchor: string,
  today: string,
  days: number,
): Reading | null {
  if (kind === 'volumeUp' || kind === 'volumeDown') {
    const now = sumWindow(metrics, volumeEnd(today), days);
    const before = sumWindow(metrics, addDays(now.from, -1), days);
    if (before.sent < MIN_MESSAGES) return null;
    const change = pct(now.sent - before.sent, before.sent);
    const facts = {
      sent: now.sent,
      previousSent: before.sent,
      period: windowWords(now),
      previousPeriod: windowWords(before),
    };
    const words = `${count(now.sent)} messages sent ${windowWords(now)} against ${count(before.sent)} ${windowWords(before)}`;
    return { value: kind === 'volumeUp' ? change : round(-change), facts, words };
  }
  const w = sumWindow(metrics, anchor, days);
  if (w.sent < MIN_MESSAGES) return null;
  const base = { sent: w.sent, period: windowWords(w) };
  if (kind === 'bounce')
    return {
      value: pct(w.bounced, w.sent, 2),
      facts: { ...base, bounced: w.bounced },
      words: `${count(w.bounced)} of ${count(w.sent)} messages bounced ${windowWords(w)}`,
    };
  if (kind === 'delivery')
    return {
      value: pct(w.delivered, w.sent),
      facts: { ...base, delivered: w.delivered },
      words: `${count(w.delivered)} of ${count(w.sent)} messages were delivered ${windowWords(w)}`,
    };
  // Complaints over delivered mail, as Google Postmaster Tools computes the spam rate.
  if (w.delivered <= 0) return null;
  return {
    value: pct(w.complaints, w.delivered, 2),
    facts: { ...base, delivered: w.delivered, complaints: w.complaints },
    words: `${count(w.complaints)} spam complaints for ${count(w.delivered)} delivered messages ${windowWords(w)}`,
  };
}
