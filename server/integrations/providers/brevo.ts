import { z } from 'zod';
import { Count, dayOf, dayWithin, textAt, type DailyStats, type EspProvider, type PluginConfig } from './provider';

/*
 * Brevo API v3 (https://developers.brevo.com/reference). Header `api-key`. The test reads the
 * account (GET /v3/account); a sync reads the transactional email reports per day (GET
 * /v3/smtp/statistics/reports?startDate&endDate, 30 days at most a page). Errors are {"code", "message"}.
 */

const NAME = 'Brevo';
const PAGE = 30;
const MAX_PAGES = 5;

const Account = z.object({ email: z.string() });
const Reports = z.object({
  reports: z
    .array(
      z.object({
        date: z.string(),
        requests: Count,
        delivered: Count,
        hardBounces: Count,
        softBounces: Count,
        spamReports: Count,
        opens: Count,
        clicks: Count,
      }),
    )
    .optional()
    .default([]),
});

const headers = (config: PluginConfig) => ({ 'api-key': config.apiKey ?? '' });

export const brevo: EspProvider = {
  id: 'brevo',
  name: NAME,
  errorText(body) {
    return textAt(body, 'message');
  },
  async testConnection(http, config) {
    await http.read(Account, `${http.env.BREVO_API_BASE_URL}/v3/account`, { headers: headers(config) });
  },
  async fetchDailyStats(http, config, from, to) {
    const out: DailyStats[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const query = new URLSearchParams({
        startDate: from,
        endDate: to,
        limit: String(PAGE),
        offset: String(page * PAGE),
        sort: 'asc',
      });
      const { reports } = await http.read(
        Reports,
        `${http.env.BREVO_API_BASE_URL}/v3/smtp/statistics/reports?${query}`,
        { headers: headers(config) },
      );
      for (const r of reports) {
        const date = dayWithin(r.date, from, to);
        if (!date) continue;
        out.push(
          dayOf(date, {
            emailsSent: r.requests,
            delivered: r.delivered,
            hardBounces: r.hardBounces,
            softBounces: r.softBounces,
            complaints: r.spamReports,
            opens: r.opens,
            clicks: r.clicks,
          }),
        );
      }
      if (reports.length < PAGE) break;
    }
    return out;
  },
};
