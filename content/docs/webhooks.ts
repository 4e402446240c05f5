/**
 * The Webhook Documentation's content (/webhook-docs). The guide itself is docs/webhooks.md; the
 * receivers shown on the page are read from its marked code blocks (receiverExample), the same blocks
 * the repository's tests run against real signed deliveries. Plain data, no imports.
 */

export type ReceiverLanguage = 'js' | 'python';

const MARKERS: Record<ReceiverLanguage, string> = { js: 'receiver-example', python: 'receiver-example-python' };

/** The receiver code block of docs/webhooks.md (given as text) in a language, or throws when it is missing. */
export function receiverExample(guide: string, language: ReceiverLanguage): string {
  const marker = MARKERS[language].replace(/[-]/g, '\\-');
  const match = new RegExp(`<!-- ${marker}(?::[^>]*)? -->\\s*\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(guide);
  if (!match) throw new Error(`docs/webhooks.md has no ${MARKERS[language]} block`);
  return match[1]!;
}

export interface WebhookEventDoc {
  type: string;
  sentWhen: string;
  /** Whether InboxPulse sends it today. */
  sentToday: boolean;
}

/** Every event a webhook can subscribe to (contracts/webhooks.ts WEBHOOK_EVENTS; a test checks they agree). */
export const WEBHOOK_EVENT_DOCS: WebhookEventDoc[] = [
  {
    type: 'email.delivered',
    sentWhen:
      'an MTA or ESP webhook (or the API) reported a message delivered: once per message and recipient, however often it is reported',
    sentToday: true,
  },
  {
    type: 'email.bounced',
    sentWhen: 'an MTA or ESP webhook (or the API) reported a bounce, hard or soft: once per message and recipient',
    sentToday: true,
  },
  {
    type: 'email.spam_report',
    sentWhen:
      'a feedback loop report (or the API) said a recipient reported a message as spam: once per message and recipient',
    sentToday: true,
  },
  {
    type: 'domain.reputation_changed',
    sentWhen:
      'a blocklist run (or switching a list on or off) moved a domain’s reputation score; a domain’s first score is not a change',
    sentToday: true,
  },
  {
    type: 'dns.validation_failed',
    sentWhen:
      'a check found an SPF, DKIM or DMARC record missing or invalid: once when it starts failing (or fails in another way), not at every hourly check',
    sentToday: true,
  },
  {
    type: 'domain.verified',
    sentWhen: 'a check first found the domain’s ownership record (again after it was lost)',
    sentToday: true,
  },
  {
    type: 'alert.created',
    sentWhen:
      'an alert was raised, or escalated to a higher severity (data.escalated is true); within about a minute, needs the Professional plan',
    sentToday: true,
  },
  {
    type: 'alert.resolved',
    sentWhen: 'an alert’s condition recovered; within about a minute, needs the Professional plan',
    sentToday: true,
  },
  { type: 'webhook.test', sentWhen: 'you asked for a test event', sentToday: true },
];

/** The headers of every delivery. */
export const WEBHOOK_HEADERS = [
  { name: 'Content-Type', value: 'application/json' },
  { name: 'User-Agent', value: 'InboxPulse-Webhooks/1.0' },
  { name: 'InboxPulse-Event', value: 'the event type, e.g. email.bounced' },
  { name: 'InboxPulse-Delivery', value: 'the delivery’s id; a redelivery has a new one (and the same event id)' },
  { name: 'InboxPulse-Signature', value: 't=<unix seconds>,v1=<signature>' },
] as const;

/** A delivery is tried this many times in all. */
export const WEBHOOK_ATTEMPTS = 5;
/** Seconds waited before attempts 2 to 5 (30 s x 4^n; a test checks the server's schedule). */
export const WEBHOOK_RETRY_WAITS_SECONDS = [30, 120, 480, 1920] as const;
/**
 * The circuit breaker (ADR 051): this many failed attempts in a row pause an endpoint's deliveries, first for
 * `firstPauseMinutes`, doubled after each failed try up to `longestPauseMinutes` (a test checks the server's).
 */
export const WEBHOOK_PAUSE = { failuresInARow: 5, firstPauseMinutes: 5, longestPauseMinutes: 60 } as const;
/** A receiver must answer within this many seconds. */
export const WEBHOOK_TIMEOUT_SECONDS = 10;
/** A signature older or newer than this is refused by the example receivers. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** Registration, as POST /api/webhooks takes it. */
export const REGISTRATION_EXAMPLE = {
  url: 'https://hooks.example.com/inboxpulse',
  events: ['email.bounced', 'alert.created'],
  description: 'Production receiver',
};

/** One event envelope: every request body is one. */
export const ENVELOPE_EXAMPLE = {
  id: 'evt_3q2Lw5mV0c1YtQ8r',
  type: 'email.bounced',
  created: 1764151200,
  data: {
    email_id: 'msg_123',
    recipient: 'user@example.com',
    domain: 'example.com',
    bounce_type: 'hard',
    bounce_reason: '550 5.1.1 User unknown',
    bounced_at: '2026-11-26T10:00:00Z',
  },
};

/** The data of the events sent today, by type (docs/webhooks.md). */
export const EVENT_DATA_EXAMPLES: { type: string; data: Record<string, unknown> }[] = [
  {
    type: 'alert.created',
    data: {
      alert_id: 42,
      type: 'blacklist_detection',
      severity: 'critical',
      title: 'example.com listed on Spamhaus DBL',
      message: 'example.com appears on Spamhaus DBL.',
      domain: 'example.com',
      url: 'https://app.example.com/alerts?alertId=42',
      escalated: false,
      occurred_at: '2026-11-26T10:00:00.000Z',
    },
  },
  {
    type: 'dns.validation_failed',
    data: {
      domain: 'example.com',
      record_type: 'SPF',
      error: 'No SPF record found',
      details: 'No SPF record: receivers cannot tell which servers may send mail for this domain.',
      failed_at: '2026-11-26T10:00:00.000Z',
    },
  },
  {
    type: 'domain.reputation_changed',
    data: {
      domain: 'example.com',
      previous_score: 100,
      current_score: 65,
      change_reason: 'Listed on Spamhaus DBL (tier 1)',
      updated_at: '2026-11-26T10:00:00.000Z',
    },
  },
  { type: 'domain.verified', data: { domain: 'example.com', verified_at: '2026-11-26T10:00:00.000Z' } },
];

/** Sign a body yourself to test a receiver (the same scheme: HMAC-SHA256 of "t.body", hex). */
export const SIGN_WITH_OPENSSL = `secret='whsec_your_signing_secret'
body='{"id":"evt_local","type":"webhook.test","created":1764151200,"data":{}}'
t=$(date +%s)
v1=$(printf '%s.%s' "$t" "$body" | openssl dgst -sha256 -hmac "$secret" | sed 's/^.*= //')
curl -X POST http://localhost:3000/ \\
  -H 'Content-Type: application/json' \\
  -H "InboxPulse-Signature: t=$t,v1=$v1" \\
  -d "$body"`;
