import { addDays } from '@contracts/utc-day';
import { z } from 'zod';
import {
  addUpByDay,
  basicAuth,
  Count,
  dayOf,
  dayWithin,
  fillBase,
  ProviderError,
  textAt,
  type EspProvider,
  type PluginConfig,
} from './provider';

/*
 * Mailchimp Marketing API 3.0 (https://mailchimp.com/developer/marketing/api/). HTTP Basic with any
 * user name and the API key, on the account's datacenter host (https://<dc>.api.mailchimp.com, the
 * key's suffix or the server prefix). The test is GET /3.0/ping. Mailchimp has no account-wide
 * daily statistics: a sync reads the reports of campaigns sent in the window (GET /3.0/reports) and
 * adds them up by the UTC day each was sent. Errors are RFC 7807 problems {type, title, status, detail}.
 */

const NAME = 'Mailchimp';
const PAGE = 1000;
const MAX_PAGES = 5;

const Ping = z.object({ health_status: z.string() });
const Reports = z.object({
  reports: z.array(
    z.object({
      send_time: z.string(),
      emails_sent: Count,
      abuse_reports: Count,
      bounces: z.object({ hard_bounces: Count, soft_bounces: Count, syntax_errors: Count }).optional(),
      opens: z.object({ opens_total: Count }).optional(),
      clicks: z.object({ clicks_total: Count }).optional(),
    }),
  ),
  total_items: Count,
});

/** The datacenter: the server prefix when given, else the key's suffix ("…-us21"). */
function datacenter(config: PluginConfig): string {
  const dc = config.serverPrefix?.trim() || config.apiKey?.split('-').pop() || '';
  if (!/^[a-z]{2,4}\d{1,3}$/.test(dc)) {
    throw new ProviderError('The API key has no datacenter suffix such as -us21: enter the server prefix', 'refused');
  }
  return dc;
}

function request(config: PluginConfig) {
  return {
    base: (template: string) => fillBase(template, { dc: datacenter(config) }),
    headers: { authorization: basicAuth('inboxpulse', config.apiKey ?? '') },
  };
}

export const mailchimp: EspProvider = {
  id: 'mailchimp',
  name: NAME,
  errorText(body) {
    const problem = body as { title?: unknown; detail?: unknown } | null;
    if (typeof problem?.detail !== 'string') return undefined;
    const title = textAt(problem, 'title');
    return title ? `${title}: ${problem.detail}` : problem.detail;
  },
  async testConnection(http, config) {
    const { base, headers } = request(config);
    await http.read(Ping, `${base(http.env.MAILCHIMP_API_BASE_URL)}/3.0/ping`, { headers });
  },
  async fetchDailyStats(http, config, from, to) {
    const { base, headers } = request(config);
    const days = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const query = new URLSearchParams({
        since_send_time: `${from}T00:00:00+00:00`,
        before_send_time: `${addDays(to, 1)}T00:00:00+00:00`,
        count: String(PAGE),
        offset: String(page * PAGE),
        fields:
          'reports.send_time,reports.emails_sent,reports.abuse_reports,reports.bounces,reports.opens.opens_total,reports.clicks.clicks_total,total_items',
      });
      const answer = await http.read(Reports, `${base(http.env.MAILCHIMP_API_BASE_URL)}/3.0/reports?${query}`, {
        headers,
      });
      for (const report of answer.reports) {
        const date = dayWithin(report.send_time, from, to);
        if (!date) continue;
        const hard = (report.bounces?.hard_bounces ?? 0) + (report.bounces?.syntax_errors ?? 0);
        const soft = report.bounces?.soft_bounces ?? 0;
        days.push(
          dayOf(date, {
            emailsSent: report.emails_sent,
            delivered: Math.max(0, report.emails_sent - hard - soft),
            hardBounces: hard,
            softBounces: soft,
            complaints: report.abuse_reports,
            opens: report.opens?.opens_total,
            clicks: report.clicks?.clicks_total,
          }),
        );
      }
      if ((page + 1) * PAGE >= answer.total_items || answer.reports.length < PAGE) break;
    }
    return addUpByDay(days);
  },
};
