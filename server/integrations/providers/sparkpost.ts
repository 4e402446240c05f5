import { addDays, dayStart, daysAgo } from '@contracts/utc-day';
import { z } from 'zod';
import { Count, dayOf, readAnswer, utcDayOf, type EspProvider, type PluginConfig, type ProviderHttp } from './provider';

/*
 * SparkPost API v1 (https://developers.sparkpost.com/api/). The key itself is the Authorization
 * header. Accounts on SparkPost EU use api.eu.sparkpost.com (the region field). The test asks one
 * metric of the last day (GET /api/v1/metrics/deliverability), which needs the Metrics: Read-only
 * permission a sync needs; a sync reads the daily time series (GET
 * /api/v1/metrics/deliverability/time-series?precision=day). Errors are {"errors": [{"message", "description",
 * "code"}]}.
 */

const NAME = 'SparkPost';
const METRICS = [
  'count_targeted',
  'count_delivered',
  'count_bounce',
  'count_hard_bounce',
  'count_soft_bounce',
  'count_block_bounce',
  'count_delayed',
  'count_spam_complaint',
  'count_rendered',
  'count_clicked',
] as const;

const Summary = z.object({ results: z.array(z.record(z.string(), z.unknown())) });
const TimeSeries = z.object({ results: z.array(z.object({ ts: z.string() }).catchall(z.unknown())) });

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
    const errors = (body as { errors?: { message?: unknown; description?: unknown }[] } | null)?.errors;
    if (!Array.isArray(errors)) return undefined;
    const texts = errors.map((e) => {
      const message = typeof e?.message === 'string' ? e.message : '';
      const description = typeof e?.description === 'string' ? e.description : '';
      return message && description ? `${message}: ${description}` : message || description || undefined;
    });
    return texts.filter(Boolean).join('; ') || undefined;
  },
  async testConnection(http, config) {
    const now = new Date();
    const query = new URLSearchParams({ from: minute(daysAgo(1, now)), to: minute(now), metrics: 'count_targeted' });
    readAnswer(
      NAME,
      Summary,
      await http.json(`${base(http, config)}/api/v1/metrics/deliverability?${query}`, { headers: headers(config) }),
    );
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
    const { results } = readAnswer(
      NAME,
      TimeSeries,
      await http.json(`${base(http, config)}/api/v1/metrics/deliverability/time-series?${query}`, {
        headers: headers(config),
      }),
    );
    return results.flatMap((r) => {
      const date = utcDayOf(r.ts);
      if (!date || date < from || date > to) return [];
      const n = (metric: (typeof METRICS)[number]) => readAnswer(NAME, Count, r[metric]);
      return [
        dayOf(date, {
          sent: n('count_targeted'),
          delivered: n('count_delivered'),
          bounced: n('count_bounce'),
          hardBounces: n('count_hard_bounce'),
          softBounces: n('count_soft_bounce') + n('count_block_bounce'),
          deferred: n('count_delayed'),
          complaints: n('count_spam_complaint'),
          opens: n('count_rendered'),
          clicks: n('count_clicked'),
        }),
      ];
    });
  },
};
