import { addDays, dayStart, daysAgo } from '@contracts/utc-day';
import { z } from 'zod';
import { Count, dayOf, dayWithin, textAt, type EspProvider, type PluginConfig, type ProviderHttp } from './provider';

/*
 * SparkPost API v1 (https://developers.sparkpost.com/api/). The key itself is the Authorization
 * header. Accounts on SparkPost EU use api.eu.sparkpost.com (the region field). The test asks one
 * metric of the last day (GET /api/v1/metrics/deliverability), which needs the Metrics: Read-only
 * permission a sync needs; a sync reads the daily time series (GET
 * /api/v1/metrics/deliverability/time-series?precision=day). Errors are {"errors": [{"message", "description",
 * "code"}]}.
 */

const NAME = 'SparkPost';

const Summary = z.object({ results: z.array(z.record(z.string(), z.unknown())) });
/** One day of the time series: its time and each metric a sync asks for. */
const Day = z.object({
  ts: z.string(),
  count_targeted: Count,
  count_delivered: Count,
  count_bounce: Count,
  count_hard_bounce: Count,
  count_soft_bounce: Count,
  count_block_bounce: Count,
  count_delayed: Count,
  count_spam_complaint: Count,
  count_rendered: Count,
  count_clicked: Count,
});
const METRICS = Object.keys(Day.shape).filter((key) => key !== 'ts');
const TimeSeries = z.object({ results: z.array(Day) });

const base = (http: ProviderHttp, config: PluginConfig) =>
  config.additionalConfig?.trim().toLowerCase() === 'eu'
    ? http.env.SPARKPOST_EU_API_BASE_URL
    : http.env.SPARKPOST_API_BASE_URL;
const headers = (config: PluginConfig) => ({ authorization: config.apiKey ?? '' });
/** SparkPost's time format: YYYY-MM-DDTHH:MM, never in the future. */
const minute = (at: Date) => at.toISOString().slice(0, 16);

export const sparkpost: EspProvider = {
  id: 'sparkpost',
  name: NAME,
  errorText(body) {
    const errors = (body as { errors?: unknown } | null)?.errors;
    if (!Array.isArray(errors)) return undefined;
    const texts = errors.map((e) => {
      const message = textAt(e, 'message') ?? '';
      const description = textAt(e, 'description') ?? '';
      return message && description ? `${message}: ${description}` : message || description || undefined;
    });
    return texts.filter(Boolean).join('; ') || undefined;
  },
  async testConnection(http, config) {
    const now = new Date();
    const query = new URLSearchParams({ from: minute(daysAgo(1, now)), to: minute(now), metrics: 'count_targeted' });
    await http.read(Summary, `${base(http, config)}/api/v1/metrics/deliverability?${query}`, {
      headers: headers(config),
    });
  },
  async fetchDailyStats(http, config, from, to) {
    const end = new Date(Math.min(dayStart(addDays(to, 1)).getTime(), Date.now()));
    const query = new URLSearchParams({
      from: `${from}T00:00`,
      to: minute(end),
      precision: 'day',
      timezone: 'UTC',
      metrics: METRICS.join(','),
    });
    const { results } = await http.read(
      TimeSeries,
      `${base(http, config)}/api/v1/metrics/deliverability/time-series?${query}`,
      { headers: headers(config) },
    );
    return results.flatMap((r) => {
      const date = dayWithin(r.ts, from, to);
      if (!date) return [];
      return [
        dayOf(date, {
          emailsSent: r.count_targeted,
          delivered: r.count_delivered,
          bounced: r.count_bounce,
          hardBounces: r.count_hard_bounce,
          softBounces: r.count_soft_bounce + r.count_block_bounce,
          deferred: r.count_delayed,
          complaints: r.count_spam_complaint,
          opens: r.count_rendered,
          clicks: r.count_clicked,
        }),
      ];
    });
  },
};
