import { addDays } from '@contracts/utc-day';
import { z } from 'zod';
import {
  dayOf,
  jsonApiErrorText,
  utcDayOf,
  type DailyStats,
  type EspProvider,
  type PluginConfig,
  type ProviderHttp,
} from './provider';

/*
 * Klaviyo REST API (https://developers.klaviyo.com/en/reference/api_overview). Header
 * `Authorization: Klaviyo-API-Key <private key>` and a `revision` header naming the API version. The
 * test is GET /api/accounts (Accounts: read). A sync finds the ids of Klaviyo's own email metrics
 * (GET /api/metrics) and asks each one's daily count (POST /api/metric-aggregates, Metrics: read).
 * Errors are JSON:API {"errors": [{"status", "code", "title", "detail"}]}.
 */

const NAME = 'Klaviyo';
/** The API version this client was written against; Klaviyo keeps a revision for two years. */
export const KLAVIYO_REVISION = '2026-10-15';
const MAX_METRIC_PAGES = 10;

/** Klaviyo's native email metrics and what each counts here. */
const METRICS = {
  'Received Email': 'delivered',
  'Bounced Email': 'bounced',
  'Marked Email as Spam': 'complaints',
  'Opened Email': 'opens',
  'Clicked Email': 'clicks',
} as const;
type Measure = (typeof METRICS)[keyof typeof METRICS];

const Accounts = z.object({ data: z.array(z.object({ id: z.string() })) });
const Metrics = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      attributes: z.object({
        name: z.string(),
        integration: z.object({ name: z.string().optional(), key: z.string().optional() }).nullish(),
      }),
    }),
  ),
  links: z.object({ next: z.string().nullish() }).nullish(),
});
const Aggregate = z.object({
  data: z.object({
    attributes: z.object({
      dates: z.array(z.string()),
      data: z.array(z.object({ measurements: z.object({ count: z.array(z.number().nullable()) }) })),
    }),
  }),
});

const headers = (config: PluginConfig) => ({
  authorization: `Klaviyo-API-Key ${config.privateKey}`,
  revision: KLAVIYO_REVISION,
  accept: 'application/vnd.api+json',
});

/** The ids of Klaviyo's own email metrics by what they count (an integration's metric of the same name is not Klaviyo's). */
async function emailMetricIds(http: ProviderHttp, config: PluginConfig): Promise<Map<Measure, string>> {
  const ids = new Map<Measure, string>();
  let url: string | null | undefined = `${http.env.KLAVIYO_API_BASE_URL}/api/metrics`;
  for (let page = 0; url && page < MAX_METRIC_PAGES; page++) {
    const answer: z.infer<typeof Metrics> = await http.read(Metrics, url, { headers: headers(config) });
    for (const metric of answer.data) {
      const measure = METRICS[metric.attributes.name as keyof typeof METRICS];
      const integration = metric.attributes.integration;
      const native = !integration || integration.key === 'klaviyo' || integration.name === 'Klaviyo';
      if (measure && native && !ids.has(measure)) ids.set(measure, metric.id);
    }
    // Only follow Klaviyo's own next link on the same host: it is absolute.
    url =
      answer.links?.next && new URL(answer.links.next).origin === new URL(http.env.KLAVIYO_API_BASE_URL).origin
        ? answer.links.next
        : null;
  }
  return ids;
}

async function dailyCounts(
  http: ProviderHttp,
  config: PluginConfig,
  metricId: string,
  from: string,
  to: string,
): Promise<Map<string, number>> {
  const body = {
    data: {
      type: 'metric-aggregate',
      attributes: {
        metric_id: metricId,
        measurements: ['count'],
        interval: 'day',
        timezone: 'UTC',
        page_size: 500,
        filter: [`greater-or-equal(datetime,${from}T00:00:00)`, `less-than(datetime,${addDays(to, 1)}T00:00:00)`],
      },
    },
  };
  const answer = await http.read(Aggregate, `${http.env.KLAVIYO_API_BASE_URL}/api/metric-aggregates`, {
    method: 'POST',
    headers: { ...headers(config), 'content-type': 'application/vnd.api+json' },
    json: body,
  });
  const { dates, data } = answer.data.attributes;
  const counts = new Map<string, number>();
  dates.forEach((date, i) => {
    const day = utcDayOf(date);
    if (!day) return;
    counts.set(
      day,
      (counts.get(day) ?? 0) + data.reduce((sum, series) => sum + (series.measurements.count[i] ?? 0), 0),
    );
  });
  return counts;
}

export const klaviyo: EspProvider = {
  id: 'klaviyo',
  name: NAME,
  errorText: jsonApiErrorText,
  async testConnection(http, config) {
    await http.read(Accounts, `${http.env.KLAVIYO_API_BASE_URL}/api/accounts`, { headers: headers(config) });
  },
  async fetchDailyStats(http, config, from, to) {
    const ids = await emailMetricIds(http, config);
    const byMeasure = new Map<Measure, Map<string, number>>();
    // One at a time: the aggregates endpoint allows 3 requests a second.
    for (const [measure, id] of ids) byMeasure.set(measure, await dailyCounts(http, config, id, from, to));
    const days = new Set([...byMeasure.values()].flatMap((counts) => [...counts.keys()]));
    const out: DailyStats[] = [];
    for (const date of [...days].sort()) {
      const get = (measure: Measure) => byMeasure.get(measure)?.get(date) ?? 0;
      const figures = {
        delivered: get('delivered'),
        bounced: get('bounced'),
        complaints: get('complaints'),
        opens: get('opens'),
        clicks: get('clicks'),
      };
      if (Object.values(figures).every((n) => n === 0)) continue;
      // A message Klaviyo sent was either received or bounced.
      out.push(dayOf(date, { ...figures, emailsSent: figures.delivered + figures.bounced }));
    }
    return out;
  },
};
