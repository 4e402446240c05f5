import { z } from 'zod';
import { Count, dayOf, textAt, type DailyStats, type EspProvider, type PluginConfig } from './provider';

/*
 * GetResponse API v3 (https://apidocs.getresponse.com/v3). Header `X-Auth-Token: api-key <key>`.
 * The test reads the account (GET /v3/accounts); a sync reads the newsletter statistics grouped by
 * day (GET /v3/newsletters/statistics?query[groupBy]=day), whose periods are UTC and whose counts
 * are strings. Errors are {"httpStatus", "code", "codeDescription", "message", "moreInfo", "context", "uuid"}.
 */

const NAME = 'GetResponse';
const PAGE = 100;
const MAX_PAGES = 5;

const Account = z.object({ accountId: z.string() }).passthrough();
const Statistics = z.array(
  z.object({
    timeInterval: z.string(),
    sent: Count,
    totalOpened: Count,
    totalClicked: Count,
    bounced: Count,
    complaints: Count,
  }),
);

const headers = (config: PluginConfig) => ({ 'x-auth-token': `api-key ${config.apiKey}` });

export const getresponse: EspProvider = {
  id: 'getresponse',
  name: NAME,
  errorText(body) {
    return textAt(body, 'message') ?? textAt(body, 'codeDescription');
  },
  async testConnection(http, config) {
    await http.read(Account, `${http.env.GETRESPONSE_API_BASE_URL}/v3/accounts`, { headers: headers(config) });
  },
  async fetchDailyStats(http, config, from, to) {
    const byDay = new Map<string, DailyStats>();
    for (let page = 1; page <= MAX_PAGES; page++) {
      const query = new URLSearchParams({
        'query[groupBy]': 'day',
        'query[createdOn][from]': from,
        'query[createdOn][to]': to,
        page: String(page),
        perPage: String(PAGE),
      });
      const rows = await http.read(
        Statistics,
        `${http.env.GETRESPONSE_API_BASE_URL}/v3/newsletters/statistics?${query}`,
        { headers: headers(config) },
      );
      for (const r of rows) {
        // "2024-03-01T00:00:00+0000/P1D": the period's start, in UTC.
        const date = r.timeInterval.slice(0, 10);
        if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || date < from || date > to) continue;
        const day = dayOf(date, {
          emailsSent: r.sent,
          delivered: Math.max(0, r.sent - r.bounced),
          bounced: r.bounced,
          complaints: r.complaints,
          opens: r.totalOpened,
          clicks: r.totalClicked,
        });
        const seen = byDay.get(date);
        if (seen)
          for (const key of ['emailsSent', 'delivered', 'bounced', 'complaints', 'opens', 'clicks'] as const)
            seen[key] += day[key];
        else byDay.set(date, day);
      }
      if (rows.length < PAGE) break;
    }
    return [...byDay.values()].sort((a, b) => a.date.localeCompare(b.date));
  },
};
