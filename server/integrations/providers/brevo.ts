import { z } from 'zod';
import { Count, dayOf, readAnswer, utcDayOf, type DailyStats, type EspProvider, type PluginConfig } from './provider';

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
    const message = (body as { message?: unknown } | null)?.message;
    return typeof message === 'string' && message ? message : undefined;
  },
  async testConnection(http, config) {
    readAnswer(
      NAME,
      Account,
      await http.json(`${http.env.BREVO_API_BASE_URL}/v3/account`, { headers: headers(config) }),
    );
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
      const { reports } = readAnswer(
        NAME,
        Reports,
        await http.json(`${http.env.BREVO_API_BASE_URL}/v3/smtp/statistics/reports?${query}`, {
          headers: headers(config),
        }),
      );
      for (const r of reports) {
        const date = utcDayOf(r.date);
        if (!date || date < from || date > to) continue;
        out.push(
          dayOf(date, {
            sent: r.requests,
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
