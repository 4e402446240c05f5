import { z } from 'zod';

/*
 * ESP event webhooks (issue 37): the providers that post their own signed events to
 * /api/esp-webhooks/<provider>?token=<webhook token>, the secret each one is verified with, and what the
 * Integrations screen shows of each.
 */

/** The ESPs whose event webhooks InboxPulse receives; each is also the `source` of the events it posts. */
export const ESP_WEBHOOK_PROVIDERS = [
  'sendgrid',
  'mailgun',
  'postmark',
  'ses',
  'sparkpost',
  'mailjet',
  'brevo',
] as const;
export type EspWebhookProvider = (typeof ESP_WEBHOOK_PROVIDERS)[number];

export const EspWebhookParams = z.object({
  provider: z.enum(ESP_WEBHOOK_PROVIDERS, {
    error: `Provider must be one of ${ESP_WEBHOOK_PROVIDERS.join(', ')}`,
  }),
});

/** Longest secret accepted: a SendGrid verification key is 124 characters, Postmark credentials at most 2 × 255 + 1. */
export const ESP_WEBHOOK_SECRET_MAX = 1024;

/**
 * The provider's verification secret: SendGrid's verification key (base64), Mailgun's HTTP webhook signing key,
 * or the basic-auth credentials (user:password) Postmark, SparkPost, Mailjet or Brevo send. Amazon SES needs none (SNS signs with AWS's certificate).
 */
export const EspWebhookSecretBody = z.object({
  secret: z
    .string({ error: 'Secret must be text' })
    .trim()
    .min(1, 'Secret is required')
    .max(ESP_WEBHOOK_SECRET_MAX, `Secret must be at most ${ESP_WEBHOOK_SECRET_MAX} characters`),
});

/** One provider's receiver as the Integrations screen shows it: where to point the ESP, and what arrived. */
export const EspWebhookStatus = z.object({
  provider: z.enum(ESP_WEBHOOK_PROVIDERS),
  /** The URL path to give the ESP, after the app's address; the webhook token goes in its `token` parameter. */
  path: z.string(),
  /** Whether the verification secret is set (never the secret itself). */
  secretSet: z.boolean(),
  /** Whether the provider needs a secret before any event is accepted. */
  secretRequired: z.boolean(),
  /** When its last verified event arrived (ISO 8601), or null for never. */
  lastEventAt: z.string().nullable(),
  /** Messages the ESP reported it did not send (dropped, suppressed, refused) in the last 30 days. */
  droppedLast30Days: z.number().int().optional(),
});
export type EspWebhookStatus = z.infer<typeof EspWebhookStatus>;
export const EspWebhookList = z.array(EspWebhookStatus);
