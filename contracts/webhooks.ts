import { z } from 'zod';
import { IdParams, text } from './input';

/** Every event a webhook can subscribe to (part 2, section 3), plus the test event. */
export const WEBHOOK_EVENTS = [
  'email.delivered',
  'email.bounced',
  'email.spam_report',
  'domain.reputation_changed',
  'dns.validation_failed',
  'domain.verified',
  'alert.created',
  'alert.resolved',
  'webhook.test',
] as const;
export const WebhookEvent = z.enum(WEBHOOK_EVENTS);
export type WebhookEvent = z.infer<typeof WebhookEvent>;

export const WEBHOOK_URL_MAX = 2000;
/** An account's webhooks; each event is sent to every one subscribed to it. */
export const WEBHOOKS_PER_ACCOUNT = 20;
/** Attempts a delivery gets in all before it is failed (part 2, section 9: "retry up to 5 attempts"). */
export const WEBHOOK_MAX_ATTEMPTS = 5;

export const CreateWebhookBody = z.object({
  url: text('URL', WEBHOOK_URL_MAX, {
    trim: true,
    required: 'URL is required',
    tooLong: `Webhook URLs must be at most ${WEBHOOK_URL_MAX} characters`,
  })
    .min(1, 'URL is required')
    .refine((value) => URL.canParse(value), 'URL must be a full URL such as https://example.com/webhooks/inboxpulse')
    .refine((value) => !URL.canParse(value) || new URL(value).protocol === 'https:', 'Webhook URLs must use HTTPS'),
  events: z
    .array(z.string({ error: 'Each event must be text' }), { error: 'Events must be a list of event names' })
    .min(1, 'Choose at least one event')
    .max(50, 'Events must list at most 50 names')
    .superRefine((events, ctx) => {
      const unknown = events.filter((e) => !(WEBHOOK_EVENTS as readonly string[]).includes(e));
      if (unknown.length > 0)
        ctx.addIssue({
          code: 'custom',
          message: `Unknown event: ${unknown.map((e) => e.slice(0, 60)).join(', ')} (events: ${WEBHOOK_EVENTS.join(', ')})`,
        });
    })
    .transform((events) => [...new Set(events)] as WebhookEvent[]),
  description: text('Description', 500, { trim: true }).optional(),
});
export type CreateWebhookBody = z.input<typeof CreateWebhookBody>;

export const Webhook = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(WebhookEvent),
  description: z.string().nullable(),
  /** The secret's first characters ("whsec_ab12…"): enough to tell which one a receiver holds. */
  secretPreview: z.string(),
  createdAt: z.string(),
  /**
   * Set while deliveries are paused because the endpoint kept failing (the circuit breaker): when the
   * endpoint is tried again. In the past, the next delivery is that try.
   */
  pausedUntil: z.string().optional(),
  /** The last failed attempt's error, said with the pause. */
  pauseReason: z.string().optional(),
});
export type Webhook = z.infer<typeof Webhook>;

/** The answer to a registration: the only time the signing secret is shown. */
export const CreatedWebhook = Webhook.extend({ secret: z.string() });
export type CreatedWebhook = z.infer<typeof CreatedWebhook>;

export const WebhookList = z.array(Webhook);

export const WebhookAttempt = z.object({
  at: z.string(),
  /** The receiver's HTTP status; null when it gave none (timeout, connection error, refused address). */
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
});
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

export const WebhookDeliveryStatus = z.enum(['pending', 'retrying', 'delivered', 'failed']);
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatus>;

export const WebhookDelivery = z.object({
  id: z.number().int(),
  webhookId: z.number().int(),
  eventId: z.string(),
  eventType: WebhookEvent,
  status: WebhookDeliveryStatus,
  /** "retrying (3 of 5)" is attempts.length of maxAttempts. */
  attempts: z.array(WebhookAttempt),
  maxAttempts: z.number().int(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryList = z.array(WebhookDelivery);

export const WebhookIdParams = IdParams('Webhook id');
export const WebhookDeliveryIdParams = IdParams('Delivery id');
