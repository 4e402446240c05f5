import { listDays } from '@contracts/utc-day';
import { z } from 'zod';
import { Count, dayOf, textAt, type DailyStats, type EspProvider, type PluginConfig } from './provider';

/*
 * SMTP2GO API v3 (https://developers.smtp2go.com/reference/introduction-1). Every call is a POST
 * with a JSON body; the key goes in the X-Smtp2go-Api-Key header. The test reads the email cycle
 * (POST /v3/stats/email_cycle, Read Stats permission). SMTP2GO's statistics are summaries of a date
 * range per sender, not a series: a sync asks the email history (POST /v3/stats/email_history) of
 * one day at a time and adds up the senders. Errors are {"request_id", "data": {"error", "error_code"}}.
 */

const NAME = 'SMTP2GO';

const Cycle = z.object({ data: z.object({ cycle_used: Count }) });
const History = z.object({
  data: z.object({
    history: z.array(
      z.object({
        used: Count,
        bounces: Count,
        rejects: Count,
        spam: Count,
        opens: Count,
        clicks: Count,
      }),
    ),
  }),
});

const headers = (config: PluginConfig) => ({ 'x-smtp2go-api-key': config.apiKey ?? '' });

export const smtp2go: EspProvider = {
  id: 'smtp2go',
  name: NAME,
  // One request a day of history: a first sync reads a week, not a month.
  maxDaysPerSync: 7,
  errorText(body) {
    const data = (body as { data?: unknown } | null)?.data;
    const [error, code] = [textAt(data, 'error'), textAt(data, 'error_code')];
    if (!error) return undefined;
    return code ? `${error} (${code})` : error;
  },
  async testConnection(http, config) {
    await http.read(Cycle, `${http.env.SMTP2GO_API_BASE_URL}/v3/stats/email_cycle`, {
      method: 'POST',
      headers: headers(config),
      json: {},
    });
  },
  async fetchDailyStats(http, config, from, to) {
    const out: DailyStats[] = [];
    for (const date of listDays(from, to)) {
      const answer = await http.read(History, `${http.env.SMTP2GO_API_BASE_URL}/v3/stats/email_history`, {
        method: 'POST',
        headers: headers(config),
        json: { start_date: `${date}T00:00:00Z`, end_date: `${date}T23:59:59Z` },
      });
      const t = answer.data.history.reduce(
        (sum, h) => ({
          used: sum.used + h.used,
          bounces: sum.bounces + h.bounces,
          rejects: sum.rejects + h.rejects,
          spam: sum.spam + h.spam,
          opens: sum.opens + h.opens,
          clicks: sum.clicks + h.clicks,
        }),
        { used: 0, bounces: 0, rejects: 0, spam: 0, opens: 0, clicks: 0 },
      );
      if (t.used === 0 && t.bounces === 0) continue;
      // SMTP2GO does not tell hard from soft here; rejected messages never left, so they are not delivered.
      out.push(
        dayOf(date, {
          emailsSent: t.used,
          delivered: Math.max(0, t.used - t.bounces - t.rejects),
          bounced: t.bounces,
          complaints: t.spam,
          opens: t.opens,
          clicks: t.clicks,
        }),
      );
    }
    return out;
  },
};
