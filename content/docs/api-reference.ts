/**
 * The API documentation's content (/api-docs): its sections, and for every endpoint a request
 * example and an answer example. server/docs-examples.test.ts sends every request example to the
 * real app and checks the answer example against the real answer and the route's schema, so what
 * this file says stays true of the server. Plain data, no imports beyond constants.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiEndpoint {
  /** Stable id: the anchor of the endpoint on the page and the key the server test uses. */
  id: string;
  method: HttpMethod;
  /** As documented, with `{id}` for a path parameter. */
  path: string;
  title: string;
  description: string;
  /** Query parameters of the example request. */
  query?: Record<string, string>;
  /** The JSON body of the example request. */
  body?: unknown;
  /** A non-JSON body (a report file), sent as is with its content type. */
  rawBody?: { contentType: string; fileName: string; text: string };
  /** Creates something: an `Idempotency-Key` header makes a retried request safe. */
  creates?: boolean;
  /** The status the example answers with. */
  status: number;
  /** The example answer (JSON); absent for 204. */
  response?: unknown;
}

export interface ApiSection {
  /** The anchor (#authentication, #domains, ...). */
  id: string;
  title: string;
  paragraphs: string[];
  endpoints: ApiEndpoint[];
}

/** Requests an hour by plan (part 2, section 9); the free plan's figure is ADR'd by the API-keys work. */
export const RATE_LIMITS = [
  { plan: 'Starter', perHour: 1_000 },
  { plan: 'Professional', perHour: 10_000 },
  { plan: 'Enterprise', perHour: 100_000 },
] as const;

export const RATE_LIMIT_HEADERS = [
  { name: 'X-RateLimit-Limit', meaning: 'Requests your plan allows in the current hour.' },
  { name: 'X-RateLimit-Remaining', meaning: 'Requests left in the current hour.' },
  { name: 'X-RateLimit-Reset', meaning: 'When the current window ends, in seconds since the epoch.' },
] as const;

/** Where the machine-readable description of every route is served. */
export const OPENAPI_PATH = '/api/openapi.json';

/** What a request without a valid key or session answers (the one error body of every failure). */
export const UNAUTHORIZED_EXAMPLE = {
  status: 401,
  body: { code: 'unauthorized', message: 'Please sign in to continue' },
} as const;

/** An API key as Settings shows it once (contracts/api-keys.ts: every key starts with ipk_). */
export const EXAMPLE_API_KEY = 'ipk_your_api_key';

const REPORT_XML = `<?xml version="1.0" encoding="UTF-8"?>
<feedback>
  <report_metadata>
    <org_name>google.com</org_name>
    <email>noreply-dmarc-support@google.com</email>
    <report_id>14412256483158137211</report_id>
    <date_range><begin>1764028800</begin><end>1764115199</end></date_range>
  </report_metadata>
  <policy_published>
    <domain>example.com</domain>
    <adkim>r</adkim><aspf>r</aspf><p>none</p><sp>none</sp><pct>100</pct>
  </policy_published>
  <record>
    <row>
      <source_ip>198.51.100.23</source_ip>
      <count>12</count>
      <policy_evaluated><disposition>none</disposition><dkim>pass</dkim><spf>pass</spf></policy_evaluated>
    </row>
    <identifiers><header_from>example.com</header_from></identifiers>
    <auth_results>
      <dkim><domain>example.com</domain><selector>s1</selector><result>pass</result></dkim>
      <spf><domain>example.com</domain><result>pass</result></spf>
    </auth_results>
  </record>
</feedback>
`;

/** The one alert the alerts examples show: as raised, then as read and acknowledged. */
const RAISED_ALERT = {
  id: 1,
  type: 'blacklist_detection',
  severity: 'critical',
  title: '149.72.120.130 listed on Spamhaus ZEN',
  message: '149.72.120.130 appears on Spamhaus ZEN.',
  domain: 'example.com',
  metadata: { ipAddress: '149.72.120.130', listedCount: 1, totalProviders: 47 },
  isRead: false,
  createdAt: '2026-11-27T10:00:00.000Z',
  updatedAt: null,
  resolvedAt: null,
  acknowledgedAt: null,
  history: [{ at: '2026-11-27T10:00:00.000Z', event: 'raised', message: 'Listed on Spamhaus ZEN' }],
};
const ACKNOWLEDGED_ALERT = {
  ...RAISED_ALERT,
  isRead: true,
  acknowledgedAt: '2026-11-27T10:00:00.000Z',
  history: [
    ...RAISED_ALERT.history,
    { at: '2026-11-27T10:00:00.000Z', event: 'acknowledged', message: 'Acknowledged' },
  ],
};

export const API_SECTIONS: ApiSection[] = [
  {
    id: 'domains',
    title: 'Domains',
    paragraphs: [
      'Register the domains you send from; InboxPulse checks their SPF, DKIM, DMARC, MX, MTA-STS, TLS-RPT and BIMI records every hour and on demand. A domain is verified once the TXT record in verificationRecord is published at its name.',
    ],
    endpoints: [
      {
        id: 'create-domain',
        method: 'POST',
        path: '/api/domains',
        title: 'Add a domain',
        description:
          'The name is trimmed and lower-cased. type is sending (the default) or mta (an MTA’s own host domain). With verifyDns true the DNS checks run at once and the answer carries their outcome; otherwise the first check runs within a minute, and until then the status is pending and checks is null.',
        body: { domain: 'example.com', type: 'sending' },
        creates: true,
        status: 200,
        response: {
          id: 1,
          domain: 'example.com',
          type: 'sending',
          status: 'pending',
          isVerified: false,
          verificationRecord: {
            name: '_inboxpulse.example.com',
            value: 'inboxpulse-verification=873614abc332d7a1a0ab32ad284eec91',
          },
          dkimSelectors: [],
          notes: null,
          spfRecord: null,
          dkimRecord: null,
          dmarcRecord: null,
          spfStatus: null,
          dkimStatus: null,
          dmarcStatus: null,
          reputationScore: null,
          lastCheckedAt: null,
          createdAt: '2026-11-27T10:00:00.000Z',
          checks: null,
        },
      },
      {
        id: 'list-domains',
        method: 'GET',
        path: '/api/domains',
        title: 'List domains',
        description: 'Every domain of the account, newest first.',
        status: 200,
        response: [
          {
            id: 1,
            domain: 'example.com',
            type: 'sending',
            status: 'pending',
            isVerified: false,
            verificationRecord: {
              name: '_inboxpulse.example.com',
              value: 'inboxpulse-verification=873614abc332d7a1a0ab32ad284eec91',
            },
            dkimSelectors: [],
            notes: null,
            spfRecord: null,
            dkimRecord: null,
            dmarcRecord: null,
            spfStatus: null,
            dkimStatus: null,
            dmarcStatus: null,
            reputationScore: null,
            lastCheckedAt: null,
            createdAt: '2026-11-27T10:00:00.000Z',
          },
        ],
      },
      {
        id: 'get-domain',
        method: 'GET',
        path: '/api/domains/{id}',
        title: 'Get a domain',
        description: 'One domain with the findings of its last check (checks is null until the first check has run).',
        status: 200,
        response: {
          id: 1,
          domain: 'example.com',
          type: 'sending',
          status: 'pending',
          isVerified: false,
          verificationRecord: {
            name: '_inboxpulse.example.com',
            value: 'inboxpulse-verification=873614abc332d7a1a0ab32ad284eec91',
          },
          dkimSelectors: [],
          notes: null,
          spfRecord: null,
          dkimRecord: null,
          dmarcRecord: null,
          spfStatus: null,
          dkimStatus: null,
          dmarcStatus: null,
          reputationScore: null,
          lastCheckedAt: null,
          createdAt: '2026-11-27T10:00:00.000Z',
          checks: null,
        },
      },
      {
        id: 'verify-domain',
        method: 'POST',
        path: '/api/domains/{id}/verify',
        title: 'Check a domain now',
        description:
          'Looks the records up again (without any cache) and answers with the new status and findings. At most 10 checks per 10 minutes.',
        status: 200,
        response: {
          id: 1,
          domain: 'example.com',
          type: 'sending',
          status: 'error',
          isVerified: false,
          verificationRecord: {
            name: '_inboxpulse.example.com',
            value: 'inboxpulse-verification=873614abc332d7a1a0ab32ad284eec91',
          },
          dkimSelectors: [],
          notes: null,
          spfRecord: null,
          dkimRecord: null,
          dmarcRecord: null,
          spfStatus: 'missing',
          dkimStatus: 'missing',
          dmarcStatus: 'missing',
          reputationScore: null,
          lastCheckedAt: '2026-11-27T10:00:00.000Z',
          createdAt: '2026-11-27T10:00:00.000Z',
          checks: {
            checkedAt: '2026-11-27T10:00:00.000Z',
            resolves: false,
            ownershipVerified: false,
            spf: {
              status: 'missing',
              record: null,
              findings: [
                {
                  severity: 'error',
                  message: 'No SPF record: receivers cannot tell which servers may send mail for this domain.',
                  fix: 'Publish one TXT record at example.com, e.g. "v=spf1 include:_spf.google.com -all" with your provider\'s include.',
                },
              ],
              lookupCount: 0,
              voidLookupCount: 0,
              tree: null,
            },
            dkim: {
              status: 'missing',
              record: null,
              findings: [
                {
                  severity: 'error',
                  message:
                    'We tried 13 common selectors (default, google, selector1, selector2, k1, k2, s1, s2, dkim, mail, smtp, mandrill, mxvault) and found no DKIM key.',
                  fix: 'Find the selector in a message you sent (the s= tag of its DKIM-Signature header) and add it under Edit Domain. If your messages carry no DKIM-Signature, turn on DKIM signing at your email provider first.',
                },
              ],
              selectors: [],
              triedSelectors: [
                'default',
                'google',
                'selector1',
                'selector2',
                'k1',
                'k2',
                's1',
                's2',
                'dkim',
                'mail',
                'smtp',
                'mandrill',
                'mxvault',
              ],
            },
            dmarc: {
              status: 'missing',
              record: null,
              findings: [
                {
                  severity: 'error',
                  message:
                    'No DMARC record: receivers apply no policy to mail that fails SPF and DKIM, and you get no reports.',
                  fix: 'Publish a TXT record at _dmarc.example.com: "v=DMARC1; p=none; rua=mailto:<your InboxPulse report address>" (Show DMARC reports on this domain gives the rua= tag to copy), then move to p=quarantine.',
                },
              ],
              foundAt: null,
              tags: {},
              externalReportDestinations: [],
            },
            mx: {
              status: 'missing',
              record: null,
              findings: [
                {
                  severity: 'warning',
                  message: 'No MX record: this domain cannot receive mail, including replies and bounces.',
                  fix: 'Publish MX records for your mailbox provider.',
                },
              ],
              hosts: [],
            },
            mtaSts: {
              status: 'missing',
              record: null,
              findings: [
                {
                  severity: 'info',
                  message: 'No MTA-STS: senders may deliver to you without TLS.',
                  fix: 'Publish _mta-sts.example.com and a policy at https://mta-sts.example.com/.well-known/mta-sts.txt.',
                },
              ],
              policy: null,
            },
            tlsRpt: {
              status: 'missing',
              record: null,
              findings: [
                {
                  severity: 'info',
                  message: 'No TLS-RPT: you get no reports of TLS failures delivering to you.',
                  fix: 'Publish "v=TLSRPTv1; rua=mailto:tls-reports@example.com" at _smtp._tls.example.com.',
                },
              ],
            },
            bimi: {
              status: 'missing',
              record: null,
              findings: [
                {
                  severity: 'info',
                  message: 'No BIMI record: mailbox providers show no brand logo.',
                  fix: 'Publish "v=BIMI1; l=https://.../logo.svg" at default._bimi.example.com.',
                },
              ],
            },
          },
        },
      },
      {
        id: 'domain-timeline',
        method: 'GET',
        path: '/api/domains/{id}/timeline',
        title: 'Get a domain’s deliverability timeline',
        description:
          'Everything InboxPulse holds about the domain on one time axis, for the last `days` days (1-365, default 30): series in percent (inbox placement per mailbox provider and overall, DMARC pass rate, bounce and complaint rates, Gmail spam rate; only those with data), each point with the number of messages or seeds behind it, and events (DNS record changes and failing checks, blocklist listings and delistings, new sources failing DMARC, placement tests, integration errors, your notes, detected drops), oldest first.',
        query: { days: '30' },
        status: 200,
        response: {
          domain: { id: 1, name: 'example.com' },
          from: '2026-10-28T10:00:00.000Z',
          to: '2026-11-27T10:00:00.000Z',
          series: [
            {
              key: 'placement:gmail',
              label: 'Inbox placement at Gmail',
              unit: 'percent',
              points: [
                { at: '2026-11-20T09:12:00.000Z', value: 92, sample: 25 },
                { at: '2026-11-26T09:40:00.000Z', value: 61, sample: 25 },
              ],
            },
          ],
          events: [
            {
              id: 'listing:41',
              at: '2026-11-26T05:40:00.000Z',
              kind: 'listing',
              title: '198.51.100.23 listed on Spamhaus ZEN',
              detail: 'SBL: a known spam source',
              severity: 'critical',
              link: '/blacklist-monitoring',
            },
          ],
        },
      },
      {
        id: 'domain-diagnosis',
        method: 'GET',
        path: '/api/domains/{id}/diagnosis',
        title: 'Get a domain’s diagnosis',
        description:
          'The drops found in the domain’s series over the last `days` days, newest first, each with its likely causes ranked by score (0 to 1): the events of the 72 hours before it, weighed by how strongly their kind explains that kind of drop and by how long before it they happened. causes is empty, and the summary says so, when nothing explains a drop.',
        query: { days: '30' },
        status: 200,
        response: {
          drops: [
            {
              id: 'placement:gmail@2026-11-26T09:40:00.000Z',
              series: 'placement:gmail',
              label: 'Inbox placement at Gmail',
              at: '2026-11-26T09:40:00.000Z',
              before: 92,
              after: 61,
              summary:
                'Inbox placement at Gmail fell from 92% to 61% on 26 November; most likely cause: listed on Spamhaus ZEN since 26 November, 4 h before',
              causes: [
                {
                  kind: 'listing',
                  title: '198.51.100.23 listed on Spamhaus ZEN',
                  at: '2026-11-26T05:40:00.000Z',
                  hoursBefore: 4,
                  score: 0.9,
                  evidence:
                    '198.51.100.23 was found on Spamhaus ZEN (zen.spamhaus.org) at 26 November 05:40 UTC: SBL: a known spam source.',
                  fix: 'Find out why 198.51.100.23 is on Spamhaus ZEN (its lookup page gives the reason), remove the cause (a compromised account or sign-up form, spam trap hits, an old or bought list), then request removal at https://check.spamhaus.org/.',
                  link: '/blacklist-monitoring',
                },
              ],
            },
          ],
        },
      },
      {
        id: 'domain-compliance',
        method: 'GET',
        path: '/api/domains/{id}/compliance',
        title: 'Get a domain’s bulk-sender compliance',
        description:
          'Gmail’s, Yahoo’s, Microsoft’s and Apple’s published sender rules, one per provider and rule, each with the provider’s wording and page, a verdict (met, not_met or unknown), the evidence it rests on with its date (the DNS check, an inbox-test message, Postmaster Tools, complaint events, SMTP replies) and the fix. A rule without evidence is unknown, never guessed. smtpReplies counts the replies of the last 30 days that cite a rule.',
        status: 200,
        response: {
          domainId: 1,
          domain: 'example.com',
          evaluatedAt: '2026-11-27T10:00:00.000Z',
          counts: { met: 14, notMet: 1, unknown: 9 },
          rules: [
            {
              id: 'gmail-bulk:one-click-unsubscribe',
              provider: 'gmail-bulk',
              requirement: 'one-click-unsubscribe',
              title: 'One-click unsubscribe',
              wording: 'Marketing messages and subscribed messages must support one-click unsubscribe.',
              sourceUrl: 'https://support.google.com/a/answer/81126',
              verdict: 'not_met',
              evidence: [
                {
                  source: 'inbox-test',
                  text: 'Test message of inbox test 12: no passing DKIM signature covers both List-Unsubscribe and List-Unsubscribe-Post.',
                  at: '2026-11-27T09:12:00.000Z',
                },
              ],
              fix: 'Add "List-Unsubscribe: <https://…>" and "List-Unsubscribe-Post: List-Unsubscribe=One-Click", list both in the DKIM signature\'s h= tag, answer the POST with 200 at once, and keep a visible unsubscribe link in the body.',
            },
          ],
          smtpReplies: [
            {
              provider: 'gmail',
              code: '5.7.26',
              meaning: 'The sender is unauthenticated: neither SPF nor DKIM passed.',
              requirement: 'spf-or-dkim',
              count: 3,
              lastSeenAt: '2026-11-26T18:40:00.000Z',
              example:
                '550-5.7.26 This mail has been blocked because the sender is unauthenticated. Gmail requires all senders to authenticate with either SPF or DKIM. - gsmtp',
            },
          ],
        },
      },
      {
        id: 'delete-domain',
        method: 'DELETE',
        path: '/api/domains/{id}',
        title: 'Delete a domain',
        description: 'Removes the domain and its check history.',
        status: 204,
      },
    ],
  },
  {
    id: 'email-metrics',
    title: 'Email metrics',
    paragraphs: [
      'Daily sending figures per provider (UTC days), as synced from your connected ESPs and summed from your MTAs’ delivery events: messages sent (delivered or bounced), delivered, bounced and spam complaints. The latest 2,000 rows are returned; date=YYYY-MM-DD gives one day, from and to a range.',
      'A delivery event is one outcome for one recipient of one message: delivered, bounced (hard or soft, with the enhanced status code read from the server’s answer), deferred, or a spam complaint. Each is stored once per message id, recipient and outcome: sending the same event again changes nothing, so a script may retry freely. The answer says how many events were stored (accepted), how many were stored before (duplicates), how many rows were not delivery events (ignored) and which rows could not be read (rejected, by index); a request none of whose rows can be read answers 400. POST /api/v1/events takes up to 1,000 events at once ({"events": [...]}).',
      'Your plan’s e-mails a month (GET /api/usage) count what was sent this UTC month, each message once, your ESPs’ synced figures included. Once they are reached, a request carrying delivery events or a day’s figures answers 429 rate_limited with the limit, the month’s count and the upgrade page, and Retry-After until the month ends: nothing of it is stored, and Integrations lists what was refused. A request with no delivery event in it is answered as usual.',
      'MTAs post their own formats (Postfix log lines, PowerMTA accounting CSV, KumoMTA, Halon, GreenArrow, Postal and SMTP2GO events) to /api/webhooks/postfix, /powermta, /greenarrow, /halon, /kumo, /postal and /smtp2go/{account} with your webhook token from Settings instead of the API key: Authorization: Bearer iwt_…, the X-Webhook-Token header, or ?token=iwt_… for an MTA that can only set a URL. See the MTA integration guide.',
    ],
    endpoints: [
      {
        id: 'list-email-metrics',
        method: 'GET',
        path: '/api/email-metrics',
        title: 'List email metrics',
        description: 'One row per provider and day.',
        status: 200,
        response: [
          {
            id: 1,
            provider: 'sendgrid',
            date: '2026-11-26',
            emailsSent: 12000,
            delivered: 11850,
            bounced: 150,
            complaints: 3,
          },
        ],
      },
      {
        id: 'record-delivery-event',
        method: 'POST',
        path: '/api/email-metrics',
        title: 'Record a delivery event',
        description:
          'eventType is delivered, bounced, deferred or complaint; domain is your sending domain; ipAddress the IP it was sent from. The event is added to the day’s figures of the provider "api".',
        body: {
          domain: 'example.com',
          eventType: 'delivered',
          recipient: 'user@example.com',
          timestamp: '2026-11-26T10:00:00Z',
          messageId: 'msg_123',
          ipAddress: '198.51.100.23',
        },
        status: 200,
        response: { accepted: 1, duplicates: 0, ignored: 0, rejected: [] },
      },
      {
        id: 'record-event',
        method: 'POST',
        path: '/api/events',
        title: 'Record an event',
        description:
          'The same, in the shape MTA scripts send: type, message_id, recipient, status (the receiving server’s answer), timestamp and sender_ip. A bounce is hard or soft by the answer’s status code.',
        body: {
          type: 'bounced',
          message_id: 'msg_124',
          recipient: 'old-address@example.com',
          status: '550 5.1.1 The email account that you tried to reach does not exist',
          timestamp: '2026-11-26T10:05:00Z',
          sender_ip: '198.51.100.23',
          blacklist_count: 0,
        },
        status: 200,
        response: { accepted: 1, duplicates: 0, ignored: 0, rejected: [] },
      },
      {
        id: 'push-smtp2go-stats',
        method: 'POST',
        path: '/api/smtp2go/sync',
        title: 'Push SMTP2GO statistics',
        description:
          'For a script of your own that reads SMTP2GO’s statistics (instead of the SMTP2GO plugin’s daily sync): the figures of the UTC day of timestamp, written over that day’s SMTP2GO figures. data.total_sent is required; delivered, bounces, spam_complaints, opens and clicks are counts, and a figure sent only as delivery_rate, bounce_rate, spam_rate, open_rate or click_rate is that percent of total_sent (98.5, not 0.985).',
        body: {
          provider: 'smtp2go',
          timestamp: '2026-11-26T23:00:00Z',
          data: { total_sent: 2000, delivery_rate: 97.5, bounce_rate: 2, open_rate: 31.2 },
        },
        status: 200,
        response: {
          provider: 'smtp2go',
          date: '2026-11-26',
          emailsSent: 2000,
          delivered: 1950,
          bounced: 40,
          complaints: 0,
          opens: 624,
          clicks: 0,
        },
      },
      {
        id: 'bounce-causes',
        method: 'GET',
        path: '/api/delivery-events/bounce-causes',
        title: 'Bounce causes',
        description:
          'Bounces and deferrals of the last `days` days (1-90, default 30) in plain causes (blocklist, policy, mailbox_full, unknown_user, rate_limited, reputation_throttled, other), each with a label and advice, overall and per mailbox provider, with what explains them: the listings of the IPs a blocklist refusal named, from IP monitoring, and the SPF, DKIM and DMARC status of the domains policy refusals came back for.',
        query: { days: '30' },
        status: 200,
        response: {
          days: 30,
          since: '2026-10-28T10:00:00.000Z',
          total: 3,
          causes: [
            { cause: 'unknown_user', label: 'Unknown user', count: 2 },
            { cause: 'blocklist', label: 'Blocked by a blocklist', count: 1 },
          ],
          byMailboxProvider: [
            {
              mailboxProvider: 'gmail',
              total: 3,
              causes: [{ cause: 'unknown_user', label: 'Unknown user', count: 2 }],
            },
          ],
          blocklistFindings: [
            {
              ip: '198.51.100.23',
              failures: 1,
              monitored: true,
              listedOn: ['Spamhaus ZEN'],
              lastChecked: '2026-11-26T09:00:00.000Z',
            },
          ],
          authenticationFindings: [
            { domain: 'example.com', failures: 1, spfStatus: 'valid', dkimStatus: 'valid', dmarcStatus: 'missing' },
          ],
        },
      },
    ],
  },
  {
    id: 'inbox-tests',
    title: 'Inbox tests',
    paragraphs: [
      'An inbox test gives you an address: send one real message to it (and to the seed addresses, when a seed network is configured) with the subject tag in the subject, and InboxPulse reports where it landed and what in the message costs deliverability. Creating a test needs at least one domain that passes its DNS checks.',
    ],
    endpoints: [
      {
        id: 'create-inbox-test',
        method: 'POST',
        path: '/api/inbox-tests',
        title: 'Create an inbox test',
        description:
          'testType is "automatic". oneClickUnsubscribeTest (true unless given) lets InboxPulse try the message’s one-click unsubscribe link as Gmail does: the RFC 8058 POST "List-Unsubscribe=One-Click", with no cookies, within 10 s, redirects recorded; the answer (accepted, refused, required a GET, a confirmation or a login, redirected, timed out, blocked) is oneClickUnsubscribe in the test’s report. The answer carries the address to send to and the subject tag.',
        body: { testType: 'automatic', oneClickUnsubscribeTest: true },
        creates: true,
        status: 200,
        response: {
          id: 1,
          status: 'awaiting_email',
          testType: 'automatic',
          testEmailAddress: 'test-1-b540e918e8c38f01@inbox.inboxpulse.example',
          subject: 'Inbox Test 1',
          subjectTag: '[TEST-1]',
          seedAddresses: [],
          provider: null,
          totalSeeds: 1,
          inboxCount: 0,
          spamCount: 0,
          missingCount: 0,
          score: null,
          receivedAt: null,
          failureReason: null,
          createdAt: '2026-11-27T10:00:00.000Z',
          completedAt: null,
          oneClickUnsubscribeTest: true,
        },
      },
      {
        id: 'get-inbox-test',
        method: 'GET',
        path: '/api/inbox-tests/{id}',
        title: 'Get an inbox test',
        description: 'One test: its status (awaiting_email, running, completed, failed), its address and its totals.',
        status: 200,
        response: {
          id: 1,
          status: 'awaiting_email',
          testType: 'automatic',
          testEmailAddress: 'test-1-b540e918e8c38f01@inbox.inboxpulse.example',
          subject: 'Inbox Test 1',
          subjectTag: '[TEST-1]',
          seedAddresses: [],
          provider: null,
          totalSeeds: 1,
          inboxCount: 0,
          spamCount: 0,
          missingCount: 0,
          score: null,
          receivedAt: null,
          failureReason: null,
          createdAt: '2026-11-27T10:00:00.000Z',
          completedAt: null,
        },
      },
      {
        id: 'list-inbox-tests',
        method: 'GET',
        path: '/api/inbox-tests',
        title: 'List inbox tests',
        description: 'Every test with its totals over the seeds.',
        status: 200,
        response: [
          {
            id: 1,
            status: 'awaiting_email',
            testType: 'automatic',
            testEmailAddress: 'test-1-b540e918e8c38f01@inbox.inboxpulse.example',
            subject: 'Inbox Test 1',
            subjectTag: '[TEST-1]',
            seedAddresses: [],
            provider: null,
            totalSeeds: 1,
            inboxCount: 0,
            spamCount: 0,
            missingCount: 0,
            score: null,
            receivedAt: null,
            failureReason: null,
            createdAt: '2026-11-27T10:00:00.000Z',
            completedAt: null,
          },
        ],
      },
      {
        id: 'inbox-test-results',
        method: 'GET',
        path: '/api/inbox-tests/{id}/results',
        title: 'Get a test’s results',
        description:
          'One row per provider, region and country: where the message landed (inbox, spam, missing, pending).',
        status: 200,
        response: [
          {
            provider: 'InboxPulse analyser (no seed network)',
            region: 'InboxPulse',
            country: 'N/A',
            mailboxSystem: 'InboxPulse',
            isAnalyser: true,
            inboxCount: 0,
            spamCount: 0,
            missingCount: 0,
            pendingCount: 1,
            seedsUsed: 1,
            notes: [],
          },
        ],
      },
      {
        id: 'delete-inbox-test',
        method: 'DELETE',
        path: '/api/inbox-tests/{id}',
        title: 'Delete an inbox test',
        description: 'Removes the test, its placements and its report.',
        status: 204,
      },
    ],
  },
  {
    id: 'ip-monitoring',
    title: 'IP blacklist monitoring',
    paragraphs: [
      'Monitored IP addresses are checked against the DNS blocklists every 2 hours; trigger a run to check them now. Each address carries its status, how many lists list it, a sender score (0-100) and every list’s answer.',
    ],
    endpoints: [
      {
        id: 'create-ip-address',
        method: 'POST',
        path: '/api/ip-addresses',
        title: 'Monitor an IP address',
        description:
          'type is dedicated (the default) or shared; associatedDomains are the domains that send from a shared address.',
        body: { ipAddress: '149.72.120.130', label: 'Primary MTA', type: 'dedicated' },
        creates: true,
        status: 200,
        response: {
          id: 1,
          ipAddress: '149.72.120.130',
          label: 'Primary MTA',
          type: 'dedicated',
          associatedDomains: [],
          status: 'pending',
          blacklistCount: 0,
          totalProviders: 0,
          senderScore: null,
          scoreFactors: [],
          reverseDns: null,
          reverseDnsConfirmed: null,
          lastChecked: null,
          reputationDetails: [],
          createdAt: '2026-11-27T10:00:00.000Z',
        },
      },
      {
        id: 'list-ip-addresses',
        method: 'GET',
        path: '/api/ip-addresses',
        title: 'List IP addresses',
        description: 'Every monitored address with its latest results.',
        status: 200,
        response: [
          {
            id: 1,
            ipAddress: '149.72.120.130',
            label: 'Primary MTA',
            type: 'dedicated',
            associatedDomains: [],
            status: 'pending',
            blacklistCount: 0,
            totalProviders: 0,
            senderScore: null,
            scoreFactors: [],
            reverseDns: null,
            reverseDnsConfirmed: null,
            lastChecked: null,
            reputationDetails: [],
            createdAt: '2026-11-27T10:00:00.000Z',
          },
        ],
      },
      {
        id: 'trigger-ip-monitoring',
        method: 'POST',
        path: '/api/ip-monitoring/trigger',
        title: 'Check now',
        description:
          'Queues a run over every address and domain of the account. started is false when a run is already queued or running (it is not run twice).',
        status: 200,
        response: {
          started: false,
          status: {
            totalProviders: 38,
            totalDomainProviders: 10,
            isRunning: true,
            lastRun: null,
            nextRun: '2026-11-27T12:00:00.000Z',
            lastError: null,
          },
        },
      },
      {
        id: 'ip-monitoring-status',
        method: 'GET',
        path: '/api/ip-monitoring/status',
        title: 'Monitoring status',
        description:
          'How many lists are asked, whether a run is going, when the last one ended and when the next one is due.',
        status: 200,
        response: {
          totalProviders: 38,
          totalDomainProviders: 10,
          isRunning: true,
          lastRun: null,
          nextRun: '2026-11-27T12:00:00.000Z',
          lastError: null,
        },
      },
      {
        id: 'delete-ip-address',
        method: 'DELETE',
        path: '/api/ip-addresses/{id}',
        title: 'Stop monitoring an address',
        description: 'Removes the address and its results.',
        status: 204,
      },
    ],
  },
  {
    id: 'dmarc',
    title: 'DMARC monitoring',
    paragraphs: [
      'Upload DMARC aggregate reports (XML, gzip, zip or the e-mail that carried them), or have reporters send them to your report address; read them back one by one or as analytics over 7, 30 or 90 days.',
    ],
    endpoints: [
      {
        id: 'upload-dmarc-report',
        method: 'POST',
        path: '/api/dmarc/upload',
        title: 'Upload a report',
        description:
          'Send the file itself as the body (application/xml, application/gzip, application/zip, message/rfc822 or application/octet-stream), or report files as a multipart/form-data form. At most 10 MB. A report that is not well-formed is read as parsedmarc reads it (bad UTF-8 bytes replaced, a bare "&" or "<" in a value read as text, a zip entry with no name): it is imported with `warnings` saying what was recovered. A report that cannot be read at all is listed as failed, and its file is kept as it was received.',
        query: { filename: 'google.com!example.com!1764028800!1764115199.xml' },
        rawBody: { contentType: 'application/xml', fileName: 'report.xml', text: REPORT_XML },
        creates: true,
        status: 200,
        response: {
          imported: 1,
          duplicates: 0,
          failed: [],
          reports: [
            {
              id: 1,
              status: 'imported',
              error: null,
              fileName: 'google.com!example.com!1764028800!1764115199.xml',
              rawSize: 950,
              domain: 'example.com',
              schema: 'rfc7489',
              version: null,
              orgName: 'google.com',
              reportId: '14412256483158137211',
              email: 'noreply-dmarc-support@google.com',
              dateBegin: '2025-11-25T00:00:00.000Z',
              dateEnd: '2025-11-25T23:59:59.000Z',
              generator: null,
              policyPublished: {
                p: 'none',
                sp: 'none',
                np: null,
                adkim: 'r',
                aspf: 'r',
                pct: 100,
                fo: null,
                testing: null,
                discoveryMethod: null,
              },
              recordCount: 1,
              messageCount: 12,
              passCount: 12,
              compliance: 100,
              senderAuthenticated: null,
              unauthenticatedReason: null,
              createdAt: '2026-11-27T10:00:00.000Z',
            },
          ],
        },
      },
      {
        id: 'list-dmarc-reports',
        method: 'GET',
        path: '/api/dmarc/reports',
        title: 'List reports',
        description:
          'Paged (page, pageSize), optionally filtered by domain, status (imported, failed) and sender (authenticated, unauthenticated: reports whose mail did not prove their reporter, kept apart and not counted in the analytics). A report read with recoveries carries `warnings`. A failed import whose file was kept carries `rawKept: true`: GET /api/dmarc/reports/{id}/raw downloads that file as it was received (compressed as it came), until the reports are purged.',
        query: { page: '1', pageSize: '20' },
        status: 200,
        response: {
          items: [
            {
              id: 1,
              status: 'imported',
              error: null,
              fileName: 'google.com!example.com!1764028800!1764115199.xml',
              rawSize: 950,
              domain: 'example.com',
              schema: 'rfc7489',
              version: null,
              orgName: 'google.com',
              reportId: '14412256483158137211',
              email: 'noreply-dmarc-support@google.com',
              dateBegin: '2025-11-25T00:00:00.000Z',
              dateEnd: '2025-11-25T23:59:59.000Z',
              generator: null,
              policyPublished: {
                p: 'none',
                sp: 'none',
                np: null,
                adkim: 'r',
                aspf: 'r',
                pct: 100,
                fo: null,
                testing: null,
                discoveryMethod: null,
              },
              recordCount: 1,
              messageCount: 12,
              passCount: 12,
              compliance: 100,
              senderAuthenticated: null,
              unauthenticatedReason: null,
              createdAt: '2026-11-27T10:00:00.000Z',
            },
          ],
          total: 1,
          page: 1,
          pageSize: 20,
        },
      },
      {
        id: 'dmarc-analytics',
        method: 'GET',
        path: '/api/dmarc/analytics',
        title: 'Analytics',
        description:
          'Compliance, volume and compliance trends, threats, sending sources and reporters over days (7, 30 or 90), optionally for one domain.',
        query: { days: '30' },
        status: 200,
        response: {
          days: 30,
          domain: null,
          totalReports: 1,
          totalMessages: 12,
          averageCompliance: 100,
          threatSummary: { low: 0, medium: 0, high: 0, critical: 0 },
          trends: { volume: [{ date: '2026-11-25', value: 12 }], compliance: [{ date: '2026-11-25', value: 100 }] },
          topThreats: [],
          recommendations: ['Every message passed DMARC: you can move your policy from p=none to p=quarantine.'],
          sources: [
            {
              ips: ['149.72.120.130'],
              reverseDns: 'o1.ptr1234.example.com',
              organisation: 'example.com',
              provider: null,
              authDomains: [],
              count: 12,
              spfAligned: 12,
              dkimAligned: 12,
              failed: 0,
              dispositions: { none: 12 },
            },
          ],
          reporters: [
            {
              orgName: 'google.com',
              lastReportAt: '2026-11-25T23:59:59.000Z',
              reports: 1,
              silentDays: 1,
              daily: true,
              stopped: false,
            },
          ],
        },
      },
    ],
  },
  {
    id: 'alerts',
    title: 'Alerts',
    paragraphs: [
      'Alerts are raised from your data (placement, bounces, complaints, volume, sender score, authentication, DNS changes, blocklist listings), updated while their condition lasts and resolved when it recovers. Rules add thresholds of your own.',
    ],
    endpoints: [
      {
        id: 'list-alerts',
        method: 'GET',
        path: '/api/alerts',
        title: 'List alerts',
        description: 'The latest 200 alerts, newest first, each with its history.',
        status: 200,
        response: [RAISED_ALERT],
      },
      {
        id: 'create-alert-rule',
        method: 'POST',
        path: '/api/alerts/rules',
        title: 'Create an alert rule',
        description:
          'type is one of inboxRate, deliveryRate, bounceRate, complaintRate, senderScore, volumeIncrease, volumeDecrease; timeWindow one of 10m, 1h, 6h, 24h, 7d: the rule is judged on that window ending at each evaluation, and a rule for one domain on the MTA and ESP events sent from it; judgedOn says which figures it is judged on. Slack, SMS and webhook notifications need the Professional plan.',
        body: {
          name: 'Bounce rate',
          type: 'bounceRate',
          domain: null,
          threshold: { warning: 5, critical: 10 },
          notifications: { email: true },
          timeWindow: '1h',
        },
        creates: true,
        status: 200,
        response: {
          id: 1,
          name: 'Bounce rate',
          type: 'bounceRate',
          domain: null,
          threshold: { warning: 5, critical: 10 },
          notifications: { email: true, webhook: false, slack: false, sms: false },
          timeWindow: '1h',
          enabled: true,
          createdAt: '2026-11-27T10:00:00.000Z',
          judgedOn:
            'Judged on the MTA and ESP delivery events of the last hour, all domains. Statistics imported per day from an ESP cannot be split into hours, so they count only in 24-hour and 7-day rules.',
        },
      },
      {
        id: 'list-alert-rules',
        method: 'GET',
        path: '/api/alerts/rules',
        title: 'List alert rules',
        description: 'The account’s rules.',
        status: 200,
        response: [
          {
            id: 1,
            name: 'Bounce rate',
            type: 'bounceRate',
            domain: null,
            threshold: { warning: 5, critical: 10 },
            notifications: { email: true, webhook: false, slack: false, sms: false },
            timeWindow: '1h',
            enabled: true,
            createdAt: '2026-11-27T10:00:00.000Z',
            judgedOn:
              'Judged on the MTA and ESP delivery events of the last hour, all domains. Statistics imported per day from an ESP cannot be split into hours, so they count only in 24-hour and 7-day rules.',
          },
        ],
      },
      {
        id: 'acknowledge-alert',
        method: 'POST',
        path: '/api/alerts/{id}/acknowledge',
        title: 'Acknowledge an alert',
        description: 'Says someone is on it; the alert stays open until its condition recovers.',
        status: 200,
        response: ACKNOWLEDGED_ALERT,
      },
      {
        id: 'read-alert',
        method: 'PATCH',
        path: '/api/alerts/{id}/read',
        title: 'Mark an alert read',
        description: 'Moves it from Active Alerts to Alert History.',
        status: 200,
        response: ACKNOWLEDGED_ALERT,
      },
    ],
  },
  {
    id: 'webhooks',
    title: 'Webhooks',
    paragraphs: [
      'Register HTTPS endpoints to receive events as they happen. The answer to a registration carries the endpoint’s signing secret, shown this once. The Webhook Documentation explains the events, the signature and the retries.',
    ],
    endpoints: [
      {
        id: 'create-webhook',
        method: 'POST',
        path: '/api/webhooks',
        title: 'Register a webhook',
        description:
          'url must use HTTPS and resolve to public addresses; events are the types to receive. At most 20 webhooks an account.',
        body: {
          url: 'https://hooks.example.com/inboxpulse',
          events: ['email.bounced', 'alert.created'],
          description: 'Production receiver',
        },
        creates: true,
        status: 200,
        response: {
          id: 1,
          url: 'https://hooks.example.com/inboxpulse',
          events: ['email.bounced', 'alert.created'],
          description: 'Production receiver',
          secretPreview: 'whsec_3V-H…',
          createdAt: '2026-11-27T10:00:00.000Z',
          secret: 'whsec_3V-HoYwFu0ejc7cJtlnIsU8It39uMIjyA8Xv0A_UMkI',
        },
      },
      {
        id: 'list-webhooks',
        method: 'GET',
        path: '/api/webhooks',
        title: 'List webhooks',
        description: 'Every webhook with the first characters of its secret.',
        status: 200,
        response: [
          {
            id: 1,
            url: 'https://hooks.example.com/inboxpulse',
            events: ['email.bounced', 'alert.created'],
            description: 'Production receiver',
            secretPreview: 'whsec_3V-H…',
            createdAt: '2026-11-27T10:00:00.000Z',
          },
        ],
      },
      {
        id: 'test-webhook',
        method: 'POST',
        path: '/api/webhooks/{id}/test',
        title: 'Send a test event',
        description: 'Queues a webhook.test event to the endpoint now; the answer is its delivery.',
        status: 200,
        response: {
          id: 1,
          webhookId: 1,
          eventId: 'evt_lyXm34-DwhByGjaT',
          eventType: 'webhook.test',
          status: 'pending',
          attempts: [],
          maxAttempts: 5,
          deliveredAt: null,
          createdAt: '2026-11-27T10:00:00.000Z',
        },
      },
      {
        id: 'webhook-deliveries',
        method: 'GET',
        path: '/api/webhooks/{id}/deliveries',
        title: 'List deliveries',
        description: 'The latest 50 deliveries with every attempt (time, status code, error, duration).',
        status: 200,
        response: [
          {
            id: 1,
            webhookId: 1,
            eventId: 'evt_lyXm34-DwhByGjaT',
            eventType: 'webhook.test',
            status: 'pending',
            attempts: [],
            maxAttempts: 5,
            deliveredAt: null,
            createdAt: '2026-11-27T10:00:00.000Z',
          },
        ],
      },
      {
        id: 'redeliver-webhook',
        method: 'POST',
        path: '/api/webhooks/deliveries/{id}/redeliver',
        title: 'Redeliver an event',
        description: 'Sends a delivery’s event again as a new delivery: the same event id, a new delivery id.',
        status: 200,
        response: {
          id: 2,
          webhookId: 1,
          eventId: 'evt_lyXm34-DwhByGjaT',
          eventType: 'webhook.test',
          status: 'pending',
          attempts: [],
          maxAttempts: 5,
          deliveredAt: null,
          createdAt: '2026-11-27T10:00:00.000Z',
        },
      },
      {
        id: 'delete-webhook',
        method: 'DELETE',
        path: '/api/webhooks/{id}',
        title: 'Delete a webhook',
        description: 'Stops deliveries to it.',
        status: 204,
      },
    ],
  },
];

/** Every endpoint of every section, in page order. */
export const API_ENDPOINTS: ApiEndpoint[] = API_SECTIONS.flatMap((section) => section.endpoints);

/** The documented request as a curl command a reader can paste (the key and base URL are theirs). */
export function curlExample(endpoint: ApiEndpoint, baseUrl: string, apiKey = EXAMPLE_API_KEY): string {
  const query = endpoint.query ? `?${new URLSearchParams(endpoint.query).toString()}` : '';
  const url = `${baseUrl}${endpoint.path.replace('{id}', '1')}${query}`;
  const lines = [`curl -X ${endpoint.method} "${url}"`, `  -H "Authorization: Bearer ${apiKey}"`];
  if (endpoint.creates) lines.push(`  -H "Idempotency-Key: $(uuidgen)"`);
  if (endpoint.rawBody) {
    lines.push(`  -H "Content-Type: ${endpoint.rawBody.contentType}"`, `  --data-binary @${endpoint.rawBody.fileName}`);
  } else if (endpoint.body !== undefined) {
    lines.push(`  -H "Content-Type: application/json"`, `  -d '${JSON.stringify(endpoint.body)}'`);
  }
  return lines.join(' \\\n');
}

/** The documented answer as the page shows it: the status line, then the JSON. */
export function answerExample(endpoint: ApiEndpoint): string {
  const status = `HTTP/1.1 ${endpoint.status} ${endpoint.status === 204 ? 'No Content' : 'OK'}`;
  return endpoint.response === undefined ? status : `${status}\n\n${JSON.stringify(endpoint.response, null, 2)}`;
}
