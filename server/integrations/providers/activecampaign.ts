import { z } from 'zod';
import { hostOfField } from '@contracts/integrations';
import {
  addUpByDay,
  Count,
  dayOf,
  fillBase,
  jsonApiErrorText,
  ProviderError,
  textAt,
  utcDayOf,
  type EspProvider,
  type PluginConfig,
  type ProviderHttp,
} from './provider';

/*
 * ActiveCampaign API v3 (https://developers.activecampaign.com/reference/overview). Each account has
 * its own API URL (https://<account>.api-us1.com), which the user gives: the request goes through
 * the outbound guard like any user-given host. Header `Api-Token`. The test reads the key's user
 * (GET /api/3/users/me); a sync reads the campaigns newest first (GET /api/3/campaigns) and adds up
 * those sent in the window by their send day. ActiveCampaign reports no spam complaints per
 * campaign. Errors are {"message": ...} or {"errors": [{"title", "detail"}]}.
 */

const NAME = 'ActiveCampaign';
const PAGE = 100;
const MAX_PAGES = 5;

const Me = z.object({ user: z.object({ id: z.union([z.string(), z.number()]) }).passthrough() });
const Campaigns = z.object({
  campaigns: z.array(
    z.object({
      sdate: z.string().nullish(),
      send_amt: Count,
      opens: Count,
      linkclicks: Count,
      hardbounces: Count,
      softbounces: Count,
    }),
  ),
});

function base(http: ProviderHttp, config: PluginConfig): string {
  const host = hostOfField(config.additionalConfig ?? '');
  if (!host)
    throw new ProviderError(
      'The API URL must be your ActiveCampaign API URL, such as https://youraccount.api-us1.com',
      'refused',
    );
  return fillBase(http.env.ACTIVECAMPAIGN_API_BASE_URL, { host });
}
const headers = (config: PluginConfig) => ({ 'api-token': config.apiKey ?? '' });

export const activecampaign: EspProvider = {
  id: 'activecampaign',
  name: NAME,
  errorText(body) {
    return textAt(body, 'message') ?? jsonApiErrorText(body);
  },
  async testConnection(http, config) {
    await http.read(Me, `${base(http, config)}/api/3/users/me`, { headers: headers(config) });
  },
  async fetchDailyStats(http, config, from, to) {
    const days = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const query = new URLSearchParams({ 'orders[sdate]': 'DESC', limit: String(PAGE), offset: String(page * PAGE) });
      const { campaigns } = await http.read(Campaigns, `${base(http, config)}/api/3/campaigns?${query}`, {
        headers: headers(config),
      });
      let older = false;
      for (const c of campaigns) {
        const date = c.sdate ? utcDayOf(c.sdate) : undefined;
        if (!date) continue;
        if (date < from) older = true;
        if (date < from || date > to) continue;
        const bounced = c.hardbounces + c.softbounces;
        days.push(
          dayOf(date, {
            emailsSent: c.send_amt,
            delivered: Math.max(0, c.send_amt - bounced),
            hardBounces: c.hardbounces,
            softBounces: c.softbounces,
            opens: c.opens,
            clicks: c.linkclicks,
          }),
        );
      }
      // Newest first: once a page reaches campaigns sent before the window, the rest are older still.
      if (older || campaigns.length < PAGE) break;
    }
    return addUpByDay(days);
  },
};
