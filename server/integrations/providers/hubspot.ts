import { addDays, utcDay } from '@contracts/utc-day';
import { z } from 'zod';
import { Count, dayOf, textAt, type DailyStats, type EspProvider, type PluginConfig } from './provider';

/*
 * HubSpot API (https://developers.hubspot.com/docs/api-reference). Bearer private app token. The
 * test reads the account (GET /account-info/v3/details); a sync reads the marketing email statistics
 * by day (GET /marketing/v3/emails/statistics/histogram?interval=DAY, content scope). HubSpot's days
 * are the portal's time zone; each interval is dated by the UTC day of its middle, which is the
 * portal's own day for any zone within 12 hours of UTC. Errors are {"status", "message", "category", "correlationId"}.
 */

const NAME = 'HubSpot';
const MAX_PAGES = 5;

const Details = z.object({ portalId: z.union([z.number(), z.string()]) }).passthrough();
const Counters = z
  .object({
    sent: Count,
    delivered: Count,
    bounce: Count,
    hardbounced: Count,
    softbounced: Count,
    spamreport: Count,
    open: Count,
    click: Count,
  })
  .partial();
const Histogram = z.object({
  results: z.array(
    z.object({
      interval: z.object({ start: z.string(), end: z.string() }),
      aggregations: z.object({ counters: Counters.optional() }).optional(),
      // Some examples in HubSpot's reference name the object aggregateStatistic.
      aggregateStatistic: z.object({ counters: Counters.optional() }).optional(),
    }),
  ),
  paging: z.object({ next: z.object({ after: z.string() }).optional() }).optional(),
});

const headers = (config: PluginConfig) => ({ authorization: `Bearer ${config.apiKey}` });

export const hubspot: EspProvider = {
  id: 'hubspot',
  name: NAME,
  errorText(body) {
    return textAt(body, 'message');
  },
  async testConnection(http, config) {
    await http.read(Details, `${http.env.HUBSPOT_API_BASE_URL}/account-info/v3/details`, { headers: headers(config) });
  },
  async fetchDailyStats(http, config, from, to) {
    const out: DailyStats[] = [];
    let after: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const query = new URLSearchParams({
        interval: 'DAY',
        startTimestamp: `${from}T00:00:00Z`,
        endTimestamp: `${addDays(to, 1)}T00:00:00Z`,
      });
      if (after) query.set('after', after);
      const answer = await http.read(
        Histogram,
        `${http.env.HUBSPOT_API_BASE_URL}/marketing/v3/emails/statistics/histogram?${query}`,
        { headers: headers(config) },
      );
      for (const r of answer.results) {
        const middle = (Date.parse(r.interval.start) + Date.parse(r.interval.end)) / 2;
        const date = Number.isNaN(middle) ? undefined : utcDay(middle);
        const c = r.aggregations?.counters ?? r.aggregateStatistic?.counters;
        if (!date || !c || date < from || date > to) continue;
        out.push(
          dayOf(date, {
            emailsSent: c.sent,
            delivered: c.delivered,
            bounced: c.bounce,
            hardBounces: c.hardbounced,
            softBounces: c.softbounced,
            complaints: c.spamreport,
            opens: c.open,
            clicks: c.click,
          }),
        );
      }
      after = answer.paging?.next?.after;
      if (!after) break;
    }
    return out;
  },
};
