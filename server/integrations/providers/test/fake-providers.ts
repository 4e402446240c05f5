import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PluginId } from '@content/integrations';
import { addDays, dayStart, utcDay } from '@contracts/utc-day';

/*
 * Loopback stand-ins for the 13 ESP APIs, for tests. Each answers its provider's documented
 * endpoints with the shapes of that provider's API reference (success bodies, its error body on a
 * wrong key, a 429 with its rate-limit headers), computed from one list of "true" days so a test
 * can check what the client read. Each listens on 127.0.0.1 under a test host name the test's DNS
 * server maps there, so requests go through the outbound guard and Host headers are real.
 */

/** A day of sending as the provider knows it: delivered = sent - hard - soft. */
export interface TruthDay {
  date: string;
  sent: number;
  hard: number;
  soft: number;
  complaints: number;
  opens: number;
  clicks: number;
}
export const delivered = (d: TruthDay) => d.sent - d.hard - d.soft;

/** ok; rate_limited: every request gets the provider's 429; not_json: a 200 with an HTML page; wrong_shape: a 200 with `[{"unexpected": true}]`. */
export type FakeMode = 'ok' | 'rate_limited' | 'not_json' | 'wrong_shape';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
}

interface Answer {
  status: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
}

interface FakeDefinition {
  /** The request carries the key the way the provider's API reference says. */
  authorized(req: FakeRequest, key: string): boolean;
  refused: Answer;
  rateLimited: Answer;
  route(req: FakeRequest, fake: FakeProvider): Answer | undefined;
}

export interface FakeProvider {
  id: PluginId;
  /** The test host name (DNS maps it to 127.0.0.1) and the port. */
  host: string;
  port: number;
  /** The key the fake accepts. */
  key: string;
  mode: FakeMode;
  days: TruthDay[];
  requests: FakeRequest[];
  close(): Promise<void>;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  json: body,
  headers,
});
const inRange = (days: TruthDay[], from: string, to: string) => days.filter((d) => d.date >= from && d.date <= to);
const basic = (req: FakeRequest) => {
  const value = String(req.headers.authorization ?? '');
  if (!value.startsWith('Basic ')) return undefined;
  const decoded = Buffer.from(value.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
};
const dayOfEpoch = (seconds: string | null) => utcDay(Number(seconds) * 1000);

const DEFINITIONS: Record<Exclude<PluginId, 'google-postmaster'>, FakeDefinition> = {
  sendgrid: {
    authorized: (req, key) => req.headers.authorization === `Bearer ${key}`,
    refused: json(401, {
      errors: [{ field: null, message: 'The provided authorization grant is invalid, expired, or revoked' }],
    }),
    rateLimited: json(
      429,
      { errors: [{ field: null, message: 'too many requests' }] },
      {
        'x-ratelimit-limit': '600',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 120),
      },
    ),
    route(req, fake) {
      if (req.path === '/v3/scopes') return json(200, { scopes: ['mail.send', 'stats.read', 'stats.global.read'] });
      if (req.path === '/v3/stats' && req.query.get('aggregated_by') === 'day') {
        return json(
          200,
          inRange(fake.days, req.query.get('start_date')!, req.query.get('end_date')!).map((d) => ({
            date: d.date,
            stats: [
              {
                metrics: {
                  blocks: d.soft,
                  bounce_drops: 0,
                  bounces: d.hard,
                  clicks: d.clicks,
                  deferred: 0,
                  delivered: delivered(d),
                  invalid_emails: 0,
                  opens: d.opens,
                  processed: d.sent,
                  requests: d.sent,
                  spam_report_drops: 0,
                  spam_reports: d.complaints,
                  unique_clicks: d.clicks,
                  unique_opens: d.opens,
                  unsubscribe_drops: 0,
                  unsubscribes: 0,
                },
              },
            ],
          })),
        );
      }
      return undefined;
    },
  },
  mailchimp: {
    authorized: (req, key) => basic(req)?.password === key,
    refused: json(401, {
      type: 'https://mailchimp.com/developer/marketing/docs/errors/',
      title: 'API Key Invalid',
      status: 401,
      detail: "Your API key may be invalid, or you've attempted to access the wrong datacenter.",
      instance: '2b1b7d4c-2a2b-4f4b-9c1d-6c2f6a1b0e11',
    }),
    // Mailchimp's 429 names no wait.
    rateLimited: json(429, {
      type: 'https://mailchimp.com/developer/marketing/docs/errors/',
      title: 'Too Many Requests',
      status: 429,
      detail: 'You have exceeded the limit of 10 simultaneous connections.',
      instance: '7c4f0a0e-0d1e-4d8e-9d2f-3b2f8c1d9e22',
    }),
    route(req, fake) {
      if (req.path === '/3.0/ping') return json(200, { health_status: "Everything's Chimpy!" });
      if (req.path === '/3.0/reports') {
        const from = req.query.get('since_send_time')!.slice(0, 10);
        const before = req.query.get('before_send_time')!.slice(0, 10);
        const days = inRange(fake.days, from, addDays(before, -1));
        return json(200, {
          reports: days.map((d, i) => ({
            id: `c${i}`,
            campaign_title: `Newsletter ${d.date}`,
            type: 'regular',
            send_time: `${d.date}T10:00:00+00:00`,
            emails_sent: d.sent,
            abuse_reports: d.complaints,
            unsubscribed: 0,
            bounces: { hard_bounces: d.hard, soft_bounces: d.soft, syntax_errors: 0 },
            opens: { opens_total: d.opens, unique_opens: d.opens, open_rate: 0.4 },
            clicks: { clicks_total: d.clicks, unique_clicks: d.clicks, click_rate: 0.1 },
          })),
          total_items: days.length,
        });
      }
      return undefined;
    },
  },
  klaviyo: {
    authorized: (req, key) =>
      req.headers.authorization === `Klaviyo-API-Key ${key}` && typeof req.headers.revision === 'string',
    refused: json(401, {
      errors: [
        {
          id: 'c1e6e2a3-4c8e-4a36-9c6b-7d54f0f6d2aa',
          status: 401,
          code: 'not_authenticated',
          title: 'Authentication credentials were not provided.',
          detail: 'Missing or invalid private key.',
          source: { pointer: '/data/' },
        },
      ],
    }),
    rateLimited: json(
      429,
      {
        errors: [
          {
            id: '8d1c7f0e-1b9a-4e2b-8f3c-2a6d5e4f3b21',
            status: 429,
            code: 'throttled',
            title: 'Request was throttled.',
            detail: 'Request was throttled. Expected available in 7 seconds.',
            source: { pointer: '/data/' },
          },
        ],
      },
      { 'retry-after': '7' },
    ),
    route(req, fake) {
      const origin = `http://${req.headers.host}`;
      if (req.path === '/api/accounts')
        return json(200, {
          data: [{ type: 'account', id: 'AbC123', attributes: { contact_information: { organization_name: 'Acme' } } }],
        });
      if (req.path === '/api/metrics') {
        const klaviyo = { object: 'integration', id: '0rG4eQ', key: 'klaviyo', name: 'Klaviyo', category: 'Internal' };
        const metric = (id: string, name: string, integration: unknown = klaviyo) => ({
          type: 'metric',
          id,
          attributes: { name, created: '2023-01-01T00:00:00+00:00', updated: '2023-01-01T00:00:00+00:00', integration },
        });
        // Two pages, to be followed; an integration's metric of the same name as Klaviyo's is not Klaviyo's.
        if (req.query.get('page[cursor]') !== '2') {
          return json(200, {
            data: [
              metric('RcvD01', 'Received Email'),
              metric('Bnc001', 'Bounced Email'),
              metric('Shop01', 'Placed Order', { key: 'shopify', name: 'Shopify' }),
            ],
            links: { self: `${origin}/api/metrics`, next: `${origin}/api/metrics?page%5Bcursor%5D=2`, prev: null },
          });
        }
        return json(200, {
          data: [
            metric('Other1', 'Opened Email', { key: 'mailchimp', name: 'Mailchimp' }),
            metric('Spam01', 'Marked Email as Spam'),
            metric('Open01', 'Opened Email'),
            metric('Clck01', 'Clicked Email'),
          ],
          links: { self: `${origin}/api/metrics?page%5Bcursor%5D=2`, next: null, prev: `${origin}/api/metrics` },
        });
      }
      if (req.path === '/api/metric-aggregates' && req.method === 'POST') {
        const attributes = (req.body as { data: { attributes: { metric_id: string; filter: string[] } } }).data
          .attributes;
        const from = attributes.filter.find((f) => f.startsWith('greater-or-equal'))!.match(/\d{4}-\d{2}-\d{2}/)![0];
        const before = attributes.filter.find((f) => f.startsWith('less-than'))!.match(/\d{4}-\d{2}-\d{2}/)![0];
        const days = inRange(fake.days, from, addDays(before, -1));
        const pick: Record<string, (d: TruthDay) => number> = {
          RcvD01: delivered,
          Bnc001: (d) => d.hard + d.soft,
          Spam01: (d) => d.complaints,
          Open01: (d) => d.opens,
          Clck01: (d) => d.clicks,
        };
        const count = pick[attributes.metric_id];
        if (!count)
          return json(404, {
            errors: [{ status: 404, code: 'not_found', title: 'Not found.', detail: 'Metric not found.' }],
          });
        return json(200, {
          data: {
            type: 'metric-aggregate',
            id: 'a1b2c3',
            attributes: {
              dates: days.map((d) => `${d.date}T00:00:00+00:00`),
              data: [{ dimensions: [], measurements: { count: days.map(count) } }],
            },
          },
          links: { self: `${origin}/api/metric-aggregates`, next: null, prev: null },
        });
      }
      return undefined;
    },
  },
  mailgun: {
    authorized: (req, key) => basic(req)?.user === 'api' && basic(req)?.password === key,
    refused: { status: 401, text: 'Forbidden', headers: { 'content-type': 'text/plain' } },
    rateLimited: json(429, { message: 'Too many requests' }, { 'retry-after': '30' }),
    route(req, fake) {
      const domain = 'mg.example.com';
      if (req.path === '/v3/domains')
        return json(200, {
          total_count: 1,
          items: [{ name: domain, state: 'active', type: 'custom', created_at: 'Mon, 01 Jan 2024 00:00:00 GMT' }],
        });
      if (req.path.startsWith('/v3/domains/')) {
        const name = decodeURIComponent(req.path.slice('/v3/domains/'.length));
        return name === domain
          ? json(200, { domain: { name, state: 'active' }, receiving_dns_records: [], sending_dns_records: [] })
          : json(404, { message: 'Domain not found' });
      }
      if (req.path === `/v3/${domain}/stats/total` && req.query.get('resolution') === 'day') {
        const events = req.query.getAll('event');
        const days = inRange(
          fake.days,
          dayOfEpoch(req.query.get('start')),
          addDays(dayOfEpoch(req.query.get('end')), -1),
        );
        return json(200, {
          description: 'Stats for domain',
          start: new Date(Number(req.query.get('start')) * 1000).toUTCString(),
          end: new Date(Number(req.query.get('end')) * 1000).toUTCString(),
          resolution: 'day',
          stats: days.map((d) => ({
            time: dayStart(d.date).toUTCString().replace('GMT', 'UTC'),
            ...(events.includes('accepted') ? { accepted: { incoming: 0, outgoing: d.sent, total: d.sent } } : {}),
            ...(events.includes('delivered')
              ? { delivered: { smtp: delivered(d), http: 0, optimized: 0, total: delivered(d) } }
              : {}),
            ...(events.includes('failed')
              ? {
                  failed: {
                    temporary: { espblock: 0 },
                    permanent: {
                      'suppress-bounce': 0,
                      'suppress-unsubscribe': 0,
                      'suppress-complaint': 0,
                      bounce: d.hard + d.soft,
                      'delayed-bounce': 0,
                      webhook: 0,
                      optimized: 0,
                      total: d.hard + d.soft,
                    },
                  },
                }
              : {}),
            ...(events.includes('complained') ? { complained: { total: d.complaints } } : {}),
            ...(events.includes('opened') ? { opened: { total: d.opens } } : {}),
            ...(events.includes('clicked') ? { clicked: { total: d.clicks } } : {}),
          })),
        });
      }
      return undefined;
    },
  },
  smtp2go: {
    authorized: (req, key) =>
      req.headers['x-smtp2go-api-key'] === key || (req.body as { api_key?: string } | null)?.api_key === key,
    refused: json(401, {
      request_id: 'aa253464-0bd0-467a-b24b-6159dcd7be60',
      data: { error: 'The API key supplied is not valid', error_code: 'E_ApiResponseCodes.API_EXCEPTION' },
    }),
    // SMTP2GO times an address out for at least a minute and says no more.
    rateLimited: json(429, {
      request_id: 'b1c2d3e4-0bd0-467a-b24b-6159dcd7be61',
      data: { error: 'Too many requests', error_code: 'E_ApiResponseCodes.RATE_LIMITED' },
    }),
    route(req, fake) {
      if (req.method !== 'POST') return undefined;
      if (req.path === '/v3/stats/email_cycle') {
        return json(200, {
          request_id: 'c1',
          data: {
            cycle_start: '2026-11-01 00:00:00+00:00',
            cycle_end: '2026-12-01 00:00:00+00:00',
            cycle_used: 1234,
            cycle_remaining: 8766,
            cycle_max: 10000,
          },
        });
      }
      if (req.path === '/v3/stats/email_history') {
        const body = req.body as { start_date: string; end_date: string };
        const days = inRange(fake.days, body.start_date.slice(0, 10), body.end_date.slice(0, 10));
        // Per sender: each day's mail split over two senders, to be added up.
        const history = days.flatMap((d) => [
          {
            email_address: 'news@example.com',
            lastip: '203.0.113.5',
            used: Math.ceil(d.sent / 2),
            bytecount: 1000,
            avgsize: 20,
            bounces: d.hard + d.soft,
            clicks: d.clicks,
            opens: d.opens,
            rejects: 0,
            spam: d.complaints,
            unsubscribes: 0,
          },
          {
            email_address: 'billing@example.com',
            lastip: '203.0.113.6',
            used: Math.floor(d.sent / 2),
            bytecount: 1000,
            avgsize: 20,
            bounces: 0,
            clicks: 0,
            opens: 0,
            rejects: 0,
            spam: 0,
            unsubscribes: 0,
          },
        ]);
        return json(200, { request_id: 'h1', data: { count: days.reduce((s, d) => s + d.sent, 0), history } });
      }
      return undefined;
    },
  },
  constantcontact: {
    authorized: (req, key) => req.headers.authorization === `Bearer ${key}`,
    refused: json(401, [{ error_key: 'unauthorized', error_message: 'Unauthorized' }]),
    rateLimited: json(429, [{ error_key: 'too_many_requests', error_message: 'Too many requests' }]),
    route(req, fake) {
      if (req.path === '/v3/account/summary') {
        return json(200, {
          contact_email: 'owner@example.com',
          country_code: 'US',
          encoded_account_id: 'a07e1lxqfblb',
          first_name: 'Ada',
          last_name: 'Lovelace',
          organization_name: 'Acme',
        });
      }
      if (req.path === '/v3/reports/summary_reports/email_campaign_summaries') {
        // Newest first, two to a page, then a next link.
        const sorted = [...fake.days].sort((a, b) => b.date.localeCompare(a.date));
        const start = Number(req.query.get('next') ?? 0);
        const page = sorted.slice(start, start + 2);
        return json(200, {
          bulk_email_campaign_summaries: page.map((d, i) => ({
            campaign_id: `9f1e${start + i}`,
            campaign_type: 'NEWSLETTER',
            last_sent_date: `${d.date}T14:00:00.000Z`,
            unique_counts: {
              sends: d.sent,
              opens: d.opens,
              clicks: d.clicks,
              forwards: 0,
              optouts: 0,
              abuse: d.complaints,
              bounces: d.hard + d.soft,
              not_opened: d.sent - d.opens,
            },
          })),
          aggregate_percents: { open: 40, click: 10, bounce: 1, did_not_open: 60 },
          ...(start + 2 < sorted.length
            ? { _links: { next: { href: `/v3/reports/summary_reports/email_campaign_summaries?next=${start + 2}` } } }
            : {}),
        });
      }
      return undefined;
    },
  },
  hubspot: {
    authorized: (req, key) => req.headers.authorization === `Bearer ${key}`,
    refused: json(401, {
      status: 'error',
      message:
        'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview',
      correlationId: '1e6e1b2c-6a0b-4a1e-9f5d-7d2c3b4a5e6f',
      category: 'INVALID_AUTHENTICATION',
    }),
    rateLimited: json(
      429,
      {
        status: 'error',
        message: 'You have reached your secondly limit.',
        errorType: 'RATE_LIMIT',
        correlationId: 'c0ffee00-0000-4000-8000-000000000000',
        policyName: 'SECONDLY',
      },
      { 'retry-after': '1' },
    ),
    route(req, fake) {
      if (req.path === '/account-info/v3/details') {
        return json(200, {
          portalId: 62515,
          accountType: 'STANDARD',
          timeZone: 'US/Eastern',
          companyCurrency: 'USD',
          utcOffset: '-05:00',
          uiDomain: 'app.hubspot.com',
          dataHostingLocation: 'na1',
        });
      }
      if (req.path === '/marketing/v3/emails/statistics/histogram' && req.query.get('interval') === 'DAY') {
        const from = req.query.get('startTimestamp')!.slice(0, 10);
        const before = req.query.get('endTimestamp')!.slice(0, 10);
        // A US/Eastern portal: its days start at 05:00 UTC.
        const results = inRange(fake.days, from, addDays(before, -1)).map((d) => ({
          aggregations: {
            counters: {
              bounce: d.hard + d.soft,
              click: d.clicks,
              contactslost: 0,
              delivered: delivered(d),
              dropped: 0,
              hardbounced: d.hard,
              notsent: 0,
              open: d.opens,
              pending: 0,
              selected: d.sent,
              sent: d.sent,
              softbounced: d.soft,
              spamreport: d.complaints,
              suppressed: 0,
              unsubscribed: 0,
            },
            deviceBreakdown: {},
            qualifierStats: {},
            ratios: {},
          },
          interval: { start: `${d.date}T05:00:00Z`, end: `${addDays(d.date, 1)}T05:00:00Z` },
        }));
        return json(200, { results, total: results.length });
      }
      return undefined;
    },
  },
  brevo: {
    authorized: (req, key) => req.headers['api-key'] === key,
    refused: json(401, { code: 'unauthorized', message: 'Key not found' }),
    rateLimited: json(
      429,
      { code: 'too_many_requests', message: 'The expected rate limit is exceeded.' },
      { 'x-sib-ratelimit-limit': '400', 'x-sib-ratelimit-remaining': '0', 'x-sib-ratelimit-reset': '9' },
    ),
    route(req, fake) {
      if (req.path === '/v3/account')
        return json(200, {
          email: 'owner@example.com',
          firstName: 'Ada',
          lastName: 'Lovelace',
          companyName: 'Acme',
          plan: [{ type: 'free', credits: 300, creditsType: 'sendLimit' }],
        });
      if (req.path === '/v3/smtp/statistics/reports') {
        const days = inRange(fake.days, req.query.get('startDate')!, req.query.get('endDate')!);
        const offset = Number(req.query.get('offset') ?? 0);
        const limit = Number(req.query.get('limit') ?? 10);
        return json(200, {
          reports: days.slice(offset, offset + limit).map((d) => ({
            date: d.date,
            requests: d.sent,
            delivered: delivered(d),
            hardBounces: d.hard,
            softBounces: d.soft,
            clicks: d.clicks,
            uniqueClicks: d.clicks,
            opens: d.opens,
            uniqueOpens: d.opens,
            spamReports: d.complaints,
            blocked: 0,
            invalid: 0,
            unsubscribed: 0,
          })),
        });
      }
      return undefined;
    },
  },
  activecampaign: {
    authorized: (req, key) => req.headers['api-token'] === key,
    refused: json(403, { message: 'No Result found for User with id 0' }),
    rateLimited: json(429, { message: 'Too Many Requests' }, { 'retry-after': '5' }),
    route(req, fake) {
      if (req.path === '/api/3/users/me')
        return json(200, {
          user: { username: 'admin', firstName: 'Ada', lastName: 'Lovelace', email: 'owner@example.com', id: '1' },
        });
      if (req.path === '/api/3/campaigns') {
        const newestFirst = [...fake.days].sort((a, b) => b.date.localeCompare(a.date));
        const campaigns = [
          ...newestFirst.map((d, i) => ({
            type: 'single',
            userid: '1',
            // 09:30 in New York is 14:30 UTC: the same day.
            sdate: `${d.date}T09:30:00-05:00`,
            send_amt: String(d.sent),
            total_amt: String(d.sent),
            opens: String(d.opens),
            uniqueopens: String(d.opens),
            linkclicks: String(d.clicks),
            uniquelinkclicks: String(d.clicks),
            hardbounces: String(d.hard),
            softbounces: String(d.soft),
            status: '5',
            id: String(100 + i),
            name: `Campaign ${d.date}`,
          })),
          // Sent long before any window.
          {
            type: 'single',
            userid: '1',
            sdate: '2020-01-02T09:30:00-05:00',
            send_amt: '999',
            opens: '1',
            linkclicks: '1',
            hardbounces: '1',
            softbounces: '1',
            status: '5',
            id: '7',
            name: 'Old',
          },
        ];
        const offset = Number(req.query.get('offset') ?? 0);
        const limit = Number(req.query.get('limit') ?? 20);
        return json(200, {
          campaigns: campaigns.slice(offset, offset + limit),
          meta: { total: String(campaigns.length) },
        });
      }
      return undefined;
    },
  },
  sparkpost: {
    authorized: (req, key) => req.headers.authorization === key,
    refused: json(401, { errors: [{ message: 'Unauthorized.' }] }),
    rateLimited: json(429, {
      errors: [{ message: 'Too many requests', description: 'Rate limit exceeded for this API key' }],
    }),
    route(req, fake) {
      if (req.path === '/api/v1/metrics/deliverability') return json(200, { results: [{ count_targeted: 1200 }] });
      if (req.path === '/api/v1/metrics/deliverability/time-series' && req.query.get('precision') === 'day') {
        const from = req.query.get('from')!.slice(0, 10);
        const to = req.query.get('to')!;
        // "to" is exclusive at midnight, or a time within the last day.
        const last = to.endsWith('T00:00') ? addDays(to.slice(0, 10), -1) : to.slice(0, 10);
        return json(200, {
          results: inRange(fake.days, from, last).map((d) => ({
            ts: `${d.date}T00:00:00+00:00`,
            count_targeted: d.sent,
            count_delivered: delivered(d),
            count_bounce: d.hard + d.soft,
            count_hard_bounce: d.hard,
            count_soft_bounce: d.soft,
            count_block_bounce: 0,
            count_delayed: 0,
            count_spam_complaint: d.complaints,
            count_rendered: d.opens,
            count_clicked: d.clicks,
          })),
        });
      }
      return undefined;
    },
  },
  omnisend: {
    authorized: (req, key) => req.headers['x-api-key'] === key,
    refused: json(401, {
      type: 'https://problems.omnisend.com/unauthorized',
      title: 'Unauthorized',
      status: 401,
      detail: 'The API key is invalid or was revoked.',
      instance: 'urn:omnisend:request:5f1e',
    }),
    rateLimited: json(
      429,
      {
        type: 'https://problems.omnisend.com/too-many-requests',
        title: 'Too Many Requests',
        status: 429,
        detail: 'Rate limit exceeded.',
      },
      { 'retry-after': '12' },
    ),
    route(req) {
      if (req.path === '/v3/campaigns')
        return json(200, {
          campaigns: [{ campaignID: '5f1e2d3c', name: 'Spring sale', status: 'sent' }],
          paging: { previous: null, next: null, limit: 1, offset: 0 },
        });
      return undefined;
    },
  },
  shopifyemail: {
    authorized: (req, key) => req.headers['x-shopify-access-token'] === key,
    refused: json(401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' }),
    rateLimited: json(
      429,
      { errors: 'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.' },
      { 'retry-after': '2.0' },
    ),
    route(req) {
      if (/^\/admin\/api\/\d{4}-\d{2}\/shop\.json$/.test(req.path)) {
        return json(200, {
          shop: {
            id: 548380009,
            name: 'Acme Store',
            email: 'owner@example.com',
            domain: 'shop.example.com',
            myshopify_domain: String(req.headers.host).split(':')[0],
          },
        });
      }
      return undefined;
    },
  },
  getresponse: {
    authorized: (req, key) => req.headers['x-auth-token'] === `api-key ${key}`,
    refused: json(401, {
      httpStatus: 401,
      code: 1014,
      codeDescription: 'Problem during authentication process, check headers!',
      message: 'Unable to authenticate request. Check credentials or authentication method details',
      moreInfo: 'https://apidocs.getresponse.com/v3/errors/1014',
      context: { authenticationType: 'auth_token' },
      uuid: 'b3f7c1a2-6d4e-4f5a-8b9c-0d1e2f3a4b5c',
    }),
    rateLimited: json(
      429,
      {
        httpStatus: 429,
        code: 1018,
        codeDescription: 'Throttling limit exceeded',
        message: 'Too many requests',
        moreInfo: 'https://apidocs.getresponse.com/v3/errors/1018',
        context: {},
        uuid: 'x',
      },
      { 'x-ratelimit-limit': '30000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '599 seconds' },
    ),
    route(req, fake) {
      if (req.path === '/v3/accounts')
        return json(200, {
          accountId: 'Vp5m',
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: 'owner@example.com',
          companyName: 'Acme',
        });
      if (req.path === '/v3/newsletters/statistics' && req.query.get('query[groupBy]') === 'day') {
        const days = inRange(
          fake.days,
          req.query.get('query[createdOn][from]')!,
          req.query.get('query[createdOn][to]')!,
        );
        return json(
          200,
          days.map((d) => ({
            timeInterval: `${d.date}T00:00:00+0000/P1D`,
            sent: String(d.sent),
            totalOpened: String(d.opens),
            uniqueOpened: String(d.opens),
            totalClicked: String(d.clicks),
            uniqueClicked: String(d.clicks),
            goals: '0',
            uniqueGoals: '0',
            forwarded: '0',
            unsubscribed: '0',
            bounced: String(d.hard + d.soft),
            complaints: String(d.complaints),
          })),
        );
      }
      return undefined;
    },
  },
};

export type FakeProviderId = keyof typeof DEFINITIONS;
export const FAKE_PROVIDER_IDS = Object.keys(DEFINITIONS) as FakeProviderId[];

/** Starts provider `id`'s stand-in on 127.0.0.1; `host` is the name it is reached by. */
export async function startFakeProvider(
  id: FakeProviderId,
  host: string,
  key: string,
  days: TruthDay[] = [],
): Promise<FakeProvider> {
  const definition = DEFINITIONS[id];
  const fake: FakeProvider = { id, host, port: 0, key, mode: 'ok', days, requests: [], close: async () => {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        // not JSON: kept as text
      }
      const request: FakeRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
      };
      fake.requests.push(request);
      let answer: Answer;
      if (fake.mode === 'rate_limited') answer = definition.rateLimited;
      else if (!definition.authorized(request, fake.key)) answer = definition.refused;
      else if (fake.mode === 'not_json')
        answer = {
          status: 200,
          text: '<html><body>Down for maintenance</body></html>',
          headers: { 'content-type': 'text/html' },
        };
      else if (fake.mode === 'wrong_shape') answer = json(200, [{ unexpected: true }]);
      else
        answer =
          definition.route(request, fake) ?? json(404, { message: `No route ${request.method} ${request.path}` });
      const text = answer.text ?? JSON.stringify(answer.json);
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.port = (server.address() as AddressInfo).port;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

/** Test host names per provider, all mapped to 127.0.0.1 by the test's DNS server. */
export const FAKE_HOSTS: Record<FakeProviderId, string> = {
  sendgrid: 'api.sendgrid.test',
  mailchimp: 'us21.api.mailchimp.test',
  klaviyo: 'a.klaviyo.test',
  mailgun: 'api.mailgun.test',
  smtp2go: 'api.smtp2go.test',
  constantcontact: 'api.cc.test',
  hubspot: 'api.hubapi.test',
  brevo: 'api.brevo.test',
  activecampaign: 'acme.api-us1.test',
  sparkpost: 'api.sparkpost.test',
  omnisend: 'api.omnisend.test',
  shopifyemail: 'acme-store.myshopify.test',
  getresponse: 'api.getresponse.test',
};

/** The env variable of each provider's base URL, pointed at its stand-in (ActiveCampaign and Shopify take the user's host). */
export function fakeProviderEnv(fakes: FakeProvider[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const fake of fakes) {
    const origin = `http://${fake.host}:${fake.port}`;
    const names: Record<FakeProviderId, [string, string]> = {
      sendgrid: ['SENDGRID_API_BASE_URL', origin],
      mailchimp: ['MAILCHIMP_API_BASE_URL', `http://{dc}.api.mailchimp.test:${fake.port}`],
      klaviyo: ['KLAVIYO_API_BASE_URL', origin],
      mailgun: ['MAILGUN_API_BASE_URL', origin],
      smtp2go: ['SMTP2GO_API_BASE_URL', origin],
      constantcontact: ['CONSTANTCONTACT_API_BASE_URL', origin],
      hubspot: ['HUBSPOT_API_BASE_URL', origin],
      brevo: ['BREVO_API_BASE_URL', origin],
      activecampaign: ['ACTIVECAMPAIGN_API_BASE_URL', `http://{host}:${fake.port}`],
      sparkpost: ['SPARKPOST_API_BASE_URL', origin],
      omnisend: ['OMNISEND_API_BASE_URL', origin],
      shopifyemail: ['SHOPIFY_API_BASE_URL', `http://{host}:${fake.port}`],
      getresponse: ['GETRESPONSE_API_BASE_URL', origin],
    };
    const [name, value] = names[fake.id as FakeProviderId];
    env[name] = value;
  }
  return env;
}

/** A config each plugin accepts, with `key` as its secret. */
export function fakeConfig(id: FakeProviderId, key: string): Record<string, string> {
  switch (id) {
    case 'mailchimp':
      return { apiKey: `${key}-us21` };
    case 'klaviyo':
      return { privateKey: key, publicKey: 'AbC123' };
    case 'mailgun':
      return { apiKey: key };
    case 'activecampaign':
      return { apiKey: key, additionalConfig: `https://${FAKE_HOSTS.activecampaign}` };
    case 'shopifyemail':
      return { apiKey: key, additionalConfig: FAKE_HOSTS.shopifyemail };
    default:
      return { apiKey: key };
  }
}

/** The key the stand-in accepts for a config made by fakeConfig (Mailchimp's carries its datacenter). */
export const acceptedKey = (id: FakeProviderId, key: string) => (id === 'mailchimp' ? `${key}-us21` : key);

/** Each provider's error text for a wrong key, as the client should report it. */
export const REFUSED_TEXT: Record<FakeProviderId, string> = {
  sendgrid: 'The provided authorization grant is invalid, expired, or revoked (HTTP 401)',
  mailchimp:
    "API Key Invalid: Your API key may be invalid, or you've attempted to access the wrong datacenter. (HTTP 401)",
  klaviyo: 'Missing or invalid private key. (HTTP 401)',
  mailgun: 'Forbidden (HTTP 401)',
  smtp2go: 'The API key supplied is not valid (E_ApiResponseCodes.API_EXCEPTION) (HTTP 401)',
  constantcontact: 'Unauthorized (HTTP 401)',
  hubspot:
    'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview (HTTP 401)',
  brevo: 'Key not found (HTTP 401)',
  activecampaign: 'No Result found for User with id 0 (HTTP 403)',
  sparkpost: 'Unauthorized. (HTTP 401)',
  omnisend: 'The API key is invalid or was revoked. (HTTP 401)',
  shopifyemail: '[API] Invalid API key or access token (unrecognized login or wrong password) (HTTP 401)',
  getresponse: 'Unable to authenticate request. Check credentials or authentication method details (HTTP 401)',
};

/** What each provider's 429 asks to wait, in seconds, as the client should read it. */
export const RETRY_AFTER: Record<FakeProviderId, number | 'reset'> = {
  sendgrid: 'reset',
  mailchimp: 60,
  klaviyo: 7,
  mailgun: 30,
  smtp2go: 60,
  constantcontact: 60,
  hubspot: 1,
  brevo: 9,
  activecampaign: 5,
  sparkpost: 60,
  omnisend: 12,
  shopifyemail: 2,
  getresponse: 599,
};
