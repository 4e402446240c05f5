import { ESP_WEBHOOK_PROVIDERS, type EspWebhookProvider, type EspWebhookStatus } from '@contracts/esp-webhooks';
import type { AppContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { encryptSecret } from '../../platform/security/secret-box';
import { countDroppedSince, listSettings, saveSealedSecret } from './esp-webhooks.repo';
import { credentialsValid } from './basic-auth';
import { sendgridKey } from './sendgrid';

/** Providers whose posts are refused until their secret is saved (the credentials of those that sign nothing are optional). */
const SECRET_REQUIRED: Record<EspWebhookProvider, boolean> = {
  sendgrid: true,
  mailgun: true,
  postmark: false,
  ses: false,
  sparkpost: false,
  mailjet: false,
  brevo: false,
};

/** Why `secret` cannot be this provider's, or null when it can. */
function secretProblem(provider: EspWebhookProvider, secret: string): string | null {
  switch (provider) {
    case 'sendgrid':
      return sendgridKey(secret)
        ? null
        : 'That is not a SendGrid verification key: copy the key SendGrid shows under Signed Event Webhook Requests (it starts with MFkw)';
    case 'mailgun':
      return /^[A-Za-z0-9_-]{8,200}$/.test(secret)
        ? null
        : 'That is not a Mailgun signing key: copy the HTTP webhook signing key from Mailgun (Sending, Webhooks)';
    case 'postmark':
    case 'sparkpost':
    case 'mailjet':
    case 'brevo':
      return credentialsValid(secret)
        ? null
        : 'Credentials are written user:password, without spaces, both parts filled in';
    case 'ses':
      return 'Amazon SES needs no secret: every SNS message is checked against AWS’s own signing certificate';
  }
}

/** Saves the provider's secret, sealed with APP_SECRET; a bad one is refused with what to copy instead. */
export async function saveEspSecret(ctx: AppContext, userId: number, provider: EspWebhookProvider, secret: string) {
  const problem = secretProblem(provider, secret);
  if (problem) throw new AppError('validation_error', problem);
  await saveSealedSecret(ctx.db, userId, provider, encryptSecret(secret, ctx.env.APP_SECRET));
}

export async function removeEspSecret(ctx: AppContext, userId: number, provider: EspWebhookProvider) {
  await saveSealedSecret(ctx.db, userId, provider, null);
}

const DROPPED_WINDOW_DAYS = 30;

/**
 * Each provider's receiver: its URL path, whether its secret is set, when its last verified post arrived, and how
 * many messages it reported not sending in the last 30 days.
 */
export async function listEspWebhooks(ctx: AppContext, userId: number): Promise<EspWebhookStatus[]> {
  const saved = new Map((await listSettings(ctx.db, userId)).map((row) => [row.provider, row]));
  const since = new Date(Date.now() - DROPPED_WINDOW_DAYS * 24 * 3600 * 1000);
  const dropped = new Map((await countDroppedSince(ctx.db, userId, since)).map((row) => [row.provider, row.count]));
  return ESP_WEBHOOK_PROVIDERS.map((provider) => ({
    provider,
    path: `/api/esp-webhooks/${provider}`,
    secretSet: saved.get(provider)?.secretSet ?? false,
    secretRequired: SECRET_REQUIRED[provider],
    lastEventAt: saved.get(provider)?.lastEventAt?.toISOString() ?? null,
    droppedLast30Days: dropped.get(provider) ?? 0,
  }));
}
