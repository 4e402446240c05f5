import { addDays, dayStart } from '@contracts/utc-day';
import { z } from 'zod';
import {
  addUpByDay,
  basicAuth,
  Count,
  dayOf,
  dayWithin,
  ProviderError,
  readAnswer,
  textAt,
  type EspProvider,
  type PluginConfig,
  type ProviderHttp,
} from './provider';

/*
 * Mailgun API (https://documentation.mailgun.com/docs/mailgun/api-reference/). HTTP Basic with the
 * user "api" and the key. An account lives in the US or the EU region, each with its own host and
 * keys: a key the US host refuses (401) is tried on the EU host. The test lists the domains (GET
 * /v3/domains), or reads the one given (GET /v3/domains/{domain}); a sync reads each domain's daily
 * totals (GET /v3/{domain}/stats/total?resolution=day). Errors are {"message": ...}; a wrong key gets
 * a plain-text "Forbidden".
 */

const NAME = 'Mailgun';
/** Without a domain, the account's domains are added up, at most this many. */
const MAX_DOMAINS = 20;

const Domains = z.object({ items: z.array(z.object({ name: z.string() })) });
const OneDomain = z.object({ domain: z.object({ name: z.string() }) });
const total = z.object({ total: Count }).optional();
const Stats = z.object({
  stats: z.array(
    z.object({
      time: z.string(),
      accepted: z.object({ outgoing: z.number().optional(), total: z.number().optional() }).optional(),
      delivered: total,
      failed: z
        .object({
          temporary: z.record(z.string(), Count).optional(),
          permanent: z.record(z.string(), Count).optional(),
        })
        .optional(),
      complained: total,
      opened: total,
      clicked: total,
    }),
  ),
});

const headers = (config: PluginConfig) => ({ authorization: basicAuth('api', config.apiKey ?? '') });

/** The region's base URL that accepts the key, and what the first call answered there. */
async function signIn(
  http: ProviderHttp,
  config: PluginConfig,
  path: string,
): Promise<{ base: string; answer: unknown }> {
  try {
    return {
      base: http.env.MAILGUN_API_BASE_URL,
      answer: await http.json(`${http.env.MAILGUN_API_BASE_URL}${path}`, { headers: headers(config) }),
    };
  } catch (usError) {
    if (!(usError instanceof ProviderError) || usError.status !== 401) throw usError;
    try {
      return {
        base: http.env.MAILGUN_EU_API_BASE_URL,
        answer: await http.json(`${http.env.MAILGUN_EU_API_BASE_URL}${path}`, { headers: headers(config) }),
      };
    } catch (euError) {
      // The EU host answered something else than a refusal (a missing domain, a 429): that is the account's answer.
      // Otherwise (refused there too, or not reached) the US answer says why.
      const answered = euError instanceof ProviderError && euError.status !== null && euError.status !== 401;
      throw answered ? euError : usError;
    }
  }
}

/** The domains to read: the one given (checked to exist), or the account's. */
async function domainsOf(http: ProviderHttp, config: PluginConfig): Promise<{ base: string; domains: string[] }> {
  const domain = config.domain?.trim().toLowerCase();
  if (domain) {
    const { base, answer } = await signIn(http, config, `/v3/domains/${encodeURIComponent(domain)}`);
    return { base, domains: [readAnswer(NAME, OneDomain, answer).domain.name] };
  }
  const { base, answer } = await signIn(http, config, `/v3/domains?limit=${MAX_DOMAINS}`);
  return { base, domains: readAnswer(NAME, Domains, answer).items.map((d) => d.name) };
}

/** A failure group's total, or its parts added up when it gives none. */
const sum = (counts: Record<string, number> | undefined) =>
  counts?.total ?? Object.values(counts ?? {}).reduce((s, n) => s + n, 0);

export const mailgun: EspProvider = {
  id: 'mailgun',
  name: NAME,
  errorText(body) {
    if (typeof body === 'string') return body.trim() || undefined;
    return textAt(body, 'message');
  },
  async testConnection(http, config) {
    await domainsOf(http, config);
  },
  async fetchDailyStats(http, config, from, to) {
    const { base, domains } = await domainsOf(http, config);
    const query = new URLSearchParams({
      start: String(dayStart(from).getTime() / 1000),
      end: String(dayStart(addDays(to, 1)).getTime() / 1000),
      resolution: 'day',
    });
    for (const event of ['accepted', 'delivered', 'failed', 'complained', 'opened', 'clicked'])
      query.append('event', event);
    const days = [];
    for (const domain of domains) {
      const answer = await http.read(Stats, `${base}/v3/${encodeURIComponent(domain)}/stats/total?${query}`, {
        headers: headers(config),
      });
      for (const s of answer.stats) {
        const date = dayWithin(s.time, from, to);
        if (!date) continue;
        // Temporary failures are retried (deferred); permanent ones are bounces, suppressed addresses included.
        days.push(
          dayOf(date, {
            emailsSent: s.accepted?.outgoing ?? s.accepted?.total,
            delivered: s.delivered?.total,
            hardBounces: sum(s.failed?.permanent),
            deferred: sum(s.failed?.temporary),
            complaints: s.complained?.total,
            opens: s.opened?.total,
            clicks: s.clicked?.total,
          }),
        );
      }
    }
    return addUpByDay(days);
  },
};
