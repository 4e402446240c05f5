import { z } from 'zod';
import { ESP_WEBHOOK_PROVIDERS } from './esp-webhooks';
import { DateFilter, Id, text } from './input';

/*
 * MTA and ESP delivery events (issue 17): what the inbound webhooks, POST /api/events, POST
 * /api/email-metrics and the /api/v1 and /v1/postfix endpoints take and answer. One delivery event is
 * one outcome for one recipient of one message: delivered, bounced (hard or soft), deferred, or a
 * spam complaint.
 */

/** The MTAs and ESPs that post their own format to /api/webhooks/<source>. */
export const MTA_SOURCES = ['postfix', 'powermta', 'greenarrow', 'halon', 'kumo', 'postal', 'smtp2go'] as const;
export type MtaSource = (typeof MTA_SOURCES)[number];
/**
 * Every `source` a stored event can have: the MTAs, the ESPs' event webhooks, `api` for InboxPulse's own shape, and
 * `fbl` for complaints from feedback loops (ARF reports mailed to fbl@).
 */
export const EVENT_SOURCES = [...MTA_SOURCES, ...ESP_WEBHOOK_PROVIDERS, 'api', 'fbl'] as const;
export type EventSource = (typeof EVENT_SOURCES)[number];

/**
 * `dropped`: an ESP did not send the message at all (a suppressed address, a dropped or blocked send): no mailbox
 * provider saw it, so it is never a sent message, a bounce or a deferral, but the sender sees how many it lost.
 */
export const DELIVERY_EVENT_TYPES = ['delivered', 'bounced', 'deferred', 'complaint', 'dropped'] as const;
export const DeliveryEventType = z.enum(DELIVERY_EVENT_TYPES);
export type DeliveryEventType = z.infer<typeof DeliveryEventType>;
export const BounceClass = z.enum(['hard', 'soft']);
export type BounceClass = z.infer<typeof BounceClass>;

/** Rows (log lines, CSV records, JSON records) one request may carry. */
export const DELIVERY_BATCH_MAX = 1000;
/** Bytes one batch may have: 1,000 rows of the largest records the MTAs write (KumoMTA with headers and meta). */
export const DELIVERY_BATCH_MAX_BYTES = 5 * 1024 * 1024;

/** A row of a batch that could not be read: its 0-based position among the rows sent, and why. */
export const RejectedRow = z.object({ index: z.number().int(), message: z.string() });
export type RejectedRow = z.infer<typeof RejectedRow>;

/**
 * The answer to a batch (200): how many events were stored, how many were already stored (a retried
 * batch: nothing is counted twice), how many rows were read but are not delivery events (a Postfix
 * `cleanup` line, a KumoMTA `Reception`, an open or click), and the rows that could not be read.
 * A batch none of whose rows could be read answers 400 instead.
 */
export const IngestAnswer = z.object({
  accepted: z.number().int(),
  duplicates: z.number().int(),
  ignored: z.number().int(),
  rejected: z.array(RejectedRow),
});
export type IngestAnswer = z.infer<typeof IngestAnswer>;

/** The SMTP2GO account label in /api/webhooks/smtp2go/{account}: which of your SMTP2GO accounts posts there. */
export const Smtp2goParams = z.object({
  account: z
    .string({ error: 'Account must be text' })
    .min(1, 'Account is required')
    .max(64, 'Account must be at most 64 characters')
    .regex(/^[A-Za-z0-9._-]+$/, 'Account may hold letters, digits, dots, dashes and underscores only'),
});

/** The webhook token in the URL, for MTAs that cannot set a header (Postal, SMTP2GO, GreenArrow). */
export const WebhookTokenQuery = z.object({
  token: z
    .string()
    .max(200, 'token must be at most 200 characters')
    .optional()
    .describe('The webhook token (iwt_…), when the MTA cannot send a header'),
});

/** Postfix log lines or a PowerMTA accounting CSV file, as text/plain. */
export const TextBatchBody = z.string().describe('The MTA’s own lines, one row per line (text/plain or text/csv)');
/** A JSON batch: one record, an array of records, or newline-delimited records (the MTA’s own JSON). */
export const JsonBatchBody = z
  .union([z.array(z.unknown()), z.record(z.string(), z.unknown()), z.string()])
  .describe('The MTA’s own JSON: one record, an array of records, or one record per line (NDJSON)');

const when = z.union([z.string().max(64), z.number()]);
const address = (label: string) => text(label, 320, { trim: true });

/** How the public API names event types; what the MTAs and scripts say is read too. */
const EVENT_TYPE_WORDS = z
  .string({ error: 'type must be text' })
  .trim()
  .toLowerCase()
  .pipe(
    z.enum(
      [
        'delivered',
        'delivery',
        'sent',
        'bounced',
        'bounce',
        'failed',
        'deferred',
        'deferral',
        'delayed',
        'complaint',
        'spam',
        'spam_report',
      ],
      'type must be one of delivered, bounced, deferred, complaint',
    ),
  );

/** POST /api/events: one event in the documented shape. */
export const ApiEventBody = z.object({
  type: EVENT_TYPE_WORDS,
  message_id: text('message_id', 500, { trim: true }).min(1, 'message_id is required'),
  recipient: address('recipient').min(1, 'recipient is required'),
  /** The receiving server's answer ("550 5.1.1 User unknown"), or just "sent". */
  status: text('status', 2000).optional(),
  timestamp: when.optional(),
  sender_ip: text('sender_ip', 64, { trim: true }).optional(),
  /** Accepted as the documentation shows it; InboxPulse checks listings itself (IP monitoring). */
  blacklist_count: z.number().int().min(0).max(1000).optional(),
  /** The sending domain, when the caller knows it. */
  domain: text('domain', 253, { trim: true }).optional(),
  bounce_type: BounceClass.optional(),
});
export type ApiEventBody = z.input<typeof ApiEventBody>;

/** POST /api/v1/events: up to 1,000 such events. */
export const ApiEventBatchBody = z.object({
  events: z
    .array(z.unknown(), { error: 'events must be a list' })
    .max(DELIVERY_BATCH_MAX, `A batch holds at most ${DELIVERY_BATCH_MAX} events`),
});

/** POST /api/email-metrics: one delivery event as the documentation's email metric entity names it. */
export const EmailMetricEventBody = z.object({
  eventType: EVENT_TYPE_WORDS,
  messageId: text('messageId', 500, { trim: true }).min(1, 'messageId is required'),
  recipient: address('recipient').min(1, 'recipient is required'),
  timestamp: when.optional(),
  domain: text('domain', 253, { trim: true }).optional(),
  ipAddress: text('ipAddress', 64, { trim: true }).optional(),
  smtpResponse: text('smtpResponse', 2000).optional(),
  bounceType: BounceClass.optional(),
  /** Accepted as the documentation shows them; listings and reputation come from InboxPulse's own checks. */
  blacklistStatus: z.unknown().optional(),
  reputationData: z.unknown().optional(),
});
export type EmailMetricEventBody = z.input<typeof EmailMetricEventBody>;

/** POST /api/postfix/events: one Postfix log line with what the shipper read of it. */
export const PostfixEventBody = z.object({
  event: text('event', 40, { trim: true }).optional(),
  timestamp: when.optional(),
  log_entry: text('log_entry', 8192).min(1, 'log_entry is required'),
});

/** POST /api/v1/metrics: a day's totals of a source that has no per-message events (a script's own counts). */
export const DailyMetricsBody = z.object({
  provider: z
    .string({ error: 'provider must be text' })
    .trim()
    .toLowerCase()
    .min(1, 'provider is required')
    .max(40, 'provider must be at most 40 characters')
    .regex(/^[a-z0-9][a-z0-9._-]*$/, 'provider may hold letters, digits, dots, dashes and underscores')
    .refine(
      (p) => !(EVENT_SOURCES as readonly string[]).includes(p),
      'That provider is filled from its delivery events: report totals under another name',
    ),
  date: DateFilter('date'),
  emailsSent: z.number().int().min(0).max(1e9),
  delivered: z.number().int().min(0).max(1e9).default(0),
  bounced: z.number().int().min(0).max(1e9).default(0),
  hardBounces: z.number().int().min(0).max(1e9).default(0),
  softBounces: z.number().int().min(0).max(1e9).default(0),
  deferred: z.number().int().min(0).max(1e9).default(0),
  complaints: z.number().int().min(0).max(1e9).default(0),
  opens: z.number().int().min(0).max(1e9).default(0),
  clicks: z.number().int().min(0).max(1e9).default(0),
});

/** POST /api/v1/authentication: who the key belongs to. */
export const AuthenticationAnswer = z.object({
  authenticated: z.literal(true),
  userId: z.number().int(),
  username: z.string(),
  plan: z.string(),
  hasWebhookToken: z.boolean(),
});

export const DomainStatusParams = z.object({ id: Id('Domain id') });

/** Sending figures of a window, from stored delivery events. */
export const DeliveryFigures = z.object({
  sent: z.number().int(),
  delivered: z.number().int(),
  bounced: z.number().int(),
  hardBounces: z.number().int(),
  softBounces: z.number().int(),
  deferred: z.number().int(),
  complaints: z.number().int(),
  /** Percent of sent (delivered + bounced), one decimal; null when nothing was sent. */
  deliveryRate: z.number().nullable(),
  bounceRate: z.number().nullable(),
  complaintRate: z.number().nullable(),
});
export type DeliveryFigures = z.infer<typeof DeliveryFigures>;

/** GET /api/v1/domains/{id}/status: a domain's authentication status and its last 7 days of delivery events. */
export const DomainStatus = z.object({
  id: z.number().int(),
  domain: z.string(),
  status: z.string(),
  isVerified: z.boolean(),
  spfStatus: z.string().nullable(),
  dkimStatus: z.string().nullable(),
  dmarcStatus: z.string().nullable(),
  lastCheckedAt: z.string().nullable(),
  delivery: DeliveryFigures.extend({ days: z.number().int() }),
});

export const DaysQuery = z.object({
  days: z.coerce
    .number({ error: 'days must be a number' })
    .int('days must be a whole number')
    .min(1)
    .max(90)
    .default(30),
});

export const BOUNCE_CAUSES = [
  'blocklist',
  'policy',
  'mailbox_full',
  'unknown_user',
  'rate_limited',
  'reputation_throttled',
  'other',
] as const;
export const BounceCause = z.enum(BOUNCE_CAUSES);
export type BounceCause = z.infer<typeof BounceCause>;

/** A blocklist-caused failure's IP, with what InboxPulse's own monitoring found for it. */
export const BlocklistFinding = z.object({
  ip: z.string(),
  /** Failures (bounces and deferrals) blamed on a blocklist that named or came from this IP. */
  failures: z.number().int(),
  /** Whether the IP is one of yours under monitoring (Blacklist Monitoring). */
  monitored: z.boolean(),
  /** The lists that list it at the last check, by name. */
  listedOn: z.array(z.string()),
  lastChecked: z.string().nullable(),
});

/** A domain whose authentication was failing while policy failures came back for its mail. */
export const AuthenticationFinding = z.object({
  domain: z.string(),
  failures: z.number().int(),
  spfStatus: z.string().nullable(),
  dkimStatus: z.string().nullable(),
  dmarcStatus: z.string().nullable(),
});

export const CauseCount = z.object({
  cause: BounceCause,
  label: z.string(),
  count: z.number().int(),
  /** What the sender can do about this cause, in a sentence or two. */
  advice: z.string().optional(),
});

/** GET /api/delivery-events/bounce-causes: bounces and deferrals of the window grouped into plain causes. */
export const BounceCauses = z.object({
  days: z.number().int(),
  since: z.string(),
  total: z.number().int(),
  causes: z.array(CauseCount),
  byMailboxProvider: z.array(
    z.object({ mailboxProvider: z.string(), total: z.number().int(), causes: z.array(CauseCount) }),
  ),
  blocklistFindings: z.array(BlocklistFinding),
  authenticationFindings: z.array(AuthenticationFinding),
});
export type BounceCauses = z.infer<typeof BounceCauses>;

/** One stored event, as GET /api/delivery-events lists them. */
export const StoredDeliveryEvent = z.object({
  id: z.number().int(),
  source: z.string(),
  messageId: z.string(),
  recipient: z.string(),
  eventType: DeliveryEventType,
  bounceClass: BounceClass.nullable(),
  enhancedStatus: z.string().nullable(),
  smtpResponse: z.string().nullable(),
  domain: z.string().nullable(),
  recipientDomain: z.string(),
  mailboxProvider: z.string(),
  sendingIp: z.string(),
  occurredAt: z.string(),
  receivedAt: z.string(),
});
export type StoredDeliveryEvent = z.infer<typeof StoredDeliveryEvent>;

export const DeliveryEventsQuery = z.object({
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(500).default(100),
  eventType: DeliveryEventType.optional(),
  source: z.enum(EVENT_SOURCES).optional(),
});

/** POST /v1/postfix/queue: what `postqueue -j` printed, summed, and the deferred recipients recorded. */
export const PostfixQueueAnswer = z.object({
  messages: z.number().int(),
  recipients: z.number().int(),
  byQueue: z.record(z.string(), z.number().int()),
  /** The oldest message's arrival, ISO 8601; null for an empty queue. */
  oldestArrival: z.string().nullable(),
  deferred: IngestAnswer,
});

/** GET /v1/postfix/analytics: the Postfix events of the window. */
export const PostfixAnalytics = z.object({
  days: z.number().int(),
  since: z.string(),
  figures: DeliveryFigures,
  byMailboxProvider: z.array(z.object({ mailboxProvider: z.string(), figures: DeliveryFigures })),
  bounceCauses: z.array(CauseCount),
  /** The receiving servers' most frequent deferral answers. */
  topDeferrals: z.array(z.object({ response: z.string(), count: z.number().int() })),
});

/** GET /v1/postfix/config: what to put on the mail server to ship its log here. */
export const PostfixConfig = z.object({
  logsEndpoint: z.string(),
  webhookEndpoint: z.string(),
  queueEndpoint: z.string(),
  hasWebhookToken: z.boolean(),
  batchMax: z.number().int(),
  mainCf: z.string(),
  logFile: z.string(),
});
