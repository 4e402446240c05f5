import { z } from 'zod';
import { addUpByDay, Count, dayOf, dayWithin, textAt, type EspProvider, type PluginConfig } from './provider';

/*
 * Constant Contact V3 API (https://developer.constantcontact.com/api_reference/index.html). Bearer
 * OAuth 2 access token. The test reads the account summary (GET /v3/account/summary, account_read);
 * there are no account-wide daily statistics, so a sync reads the email campaign summaries (GET
 * /v3/reports/summary_reports/email_campaign_summaries, campaign_data) and adds up those last sent in
 * the window by that day. Errors are a list [{"error_key", "error_message"}].
 */

const NAME = 'Constant Contact';
const PAGE = 500;
const MAX_PAGES = 5;

const Summary = z
  .object({ encoded_account_id: z.string().optional(), organization_name: z.string().optional() })
  .passthrough();
const Campaigns = z.object({
  bulk_email_campaign_summaries: z
    .array(
      z.object({
        last_sent_date: z.string().nullish(),
        unique_counts: z.object({ sends: Count, bounces: Count, abuse: Count, opens: Count, clicks: Count }).optional(),
      }),
    )
    .optional()
    .default([]),
  _links: z.object({ next: z.object({ href: z.string() }).optional() }).optional(),
});

const headers = (config: PluginConfig) => ({ authorization: `Bearer ${config.apiKey}` });

export const constantcontact: EspProvider = {
  id: 'constantcontact',
  name: NAME,
  errorText(body) {
    const list = Array.isArray(body) ? body : [body];
    const texts = list.map((e) => textAt(e, 'error_message'));
    return texts.filter(Boolean).join('; ') || undefined;
  },
  async testConnection(http, config) {
    await http.read(Summary, `${http.env.CONSTANTCONTACT_API_BASE_URL}/v3/account/summary`, {
      headers: headers(config),
    });
  },
  async fetchDailyStats(http, config, from, to) {
    const origin = http.env.CONSTANTCONTACT_API_BASE_URL;
    let path: string | undefined = `/v3/reports/summary_reports/email_campaign_summaries?limit=${PAGE}`;
    const days = [];
    for (let page = 0; path && page < MAX_PAGES; page++) {
      const answer: z.infer<typeof Campaigns> = await http.read(Campaigns, `${origin}${path}`, {
        headers: headers(config),
      });
      for (const campaign of answer.bulk_email_campaign_summaries) {
        const date = dayWithin(campaign.last_sent_date, from, to);
        if (!date) continue;
        const c = campaign.unique_counts ?? { sends: 0, bounces: 0, abuse: 0, opens: 0, clicks: 0 };
        days.push(
          dayOf(date, {
            emailsSent: c.sends,
            delivered: Math.max(0, c.sends - c.bounces),
            bounced: c.bounces,
            complaints: c.abuse,
            opens: c.opens,
            clicks: c.clicks,
          }),
        );
      }
      // The next page's link is a path on the same API ("/v3/reports/...?next=..."): nothing else is followed.
      const next: string | undefined = answer._links?.next?.href;
      path = next && next.startsWith('/v3/') ? next : undefined;
    }
    return addUpByDay(days);
  },
};
