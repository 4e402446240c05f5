import { z } from 'zod';
import { Count, dayOf, ProviderError, textAt, type EspProvider } from './provider';

/*
 * Twilio SendGrid Web API v3 (https://www.twilio.com/docs/sendgrid/api-reference). Bearer API key.
 * The test reads the key's scopes (GET /v3/scopes) and requires stats.read, the one a sync needs;
 * a sync reads the global stats per day (GET /v3/stats?aggregated_by=day). Errors are
 * {"errors": [{"field": ..., "message": ...}]}.
 */

const NAME = 'SendGrid';

const Scopes = z.object({ scopes: z.array(z.string()) });

const Metrics = z.object({
  requests: Count,
  delivered: Count,
  bounces: Count,
  blocks: Count,
  deferred: Count,
  spam_reports: Count,
  opens: Count,
  clicks: Count,
});
const GlobalStats = z.array(
  z.object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), stats: z.array(z.object({ metrics: Metrics })) }),
);

const headers = (config: Record<string, string>) => ({ authorization: `Bearer ${config.apiKey}` });

export const sendgrid: EspProvider = {
  id: 'sendgrid',
  name: NAME,
  errorText(body) {
    const errors = (body as { errors?: unknown } | null)?.errors;
    if (!Array.isArray(errors)) return undefined;
    const texts = errors.map((e) => textAt(e, 'message')).filter(Boolean);
    return texts.length ? texts.join('; ') : undefined;
  },
  async testConnection(http, config) {
    const { scopes } = await http.read(Scopes, `${http.env.SENDGRID_API_BASE_URL}/v3/scopes`, {
      headers: headers(config),
    });
    if (!scopes.includes('stats.read')) {
      throw new ProviderError(
        'The API key works but may not read statistics: give it Read Access to Stats (scope stats.read)',
        'refused',
      );
    }
  },
  async fetchDailyStats(http, config, from, to) {
    const query = new URLSearchParams({ start_date: from, end_date: to, aggregated_by: 'day' });
    const days = await http.read(GlobalStats, `${http.env.SENDGRID_API_BASE_URL}/v3/stats?${query}`, {
      headers: headers(config),
    });
    return days.map(({ date, stats }) => {
      // One entry for global stats; a parent account's answer may hold several: they add up.
      const m = stats.reduce(
        (sum, { metrics }) => {
          for (const key of Object.keys(sum) as (keyof typeof sum)[]) sum[key] += metrics[key];
          return sum;
        },
        { requests: 0, delivered: 0, bounces: 0, blocks: 0, deferred: 0, spam_reports: 0, opens: 0, clicks: 0 },
      );
      // SendGrid's bounces are permanent; blocks are temporary refusals by the receiving server.
      return dayOf(date, {
        emailsSent: m.requests,
        delivered: m.delivered,
        hardBounces: m.bounces,
        softBounces: m.blocks,
        deferred: m.deferred,
        complaints: m.spam_reports,
        opens: m.opens,
        clicks: m.clicks,
      });
    });
  },
};
