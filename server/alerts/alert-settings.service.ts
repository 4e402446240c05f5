import type { z } from 'zod';
import {
  AlertSettings,
  SMS_UNAVAILABLE,
  UNSAVED_ALERT_SETTINGS,
  type SavedAlertSettings,
  type UpdateAlertSettings,
} from '@contracts/alert-settings';
import { requireFeature } from '../plans/plan-gate.service';
import type { AppContext } from '../platform/context';
import type { Executor } from '../platform/db/client';
import type { UserRow } from '../platform/db/schema/index';
import { AppError } from '../platform/errors';
import { refusedHost } from '../platform/security/app-outbound-guard';
import { decryptSecret, encryptSecret } from '../platform/security/secret-box';
import { syncAlertSettingsWebhook } from '../webhooks/webhooks.service';
import { twilioSettingsOf } from './channels/twilio';
import {
  findAlertSettings,
  lockAlertSettings,
  saveAlertSettings,
  type AlertSettingsValues,
} from './alert-settings.repo';
import { queueAlertEvaluation } from './evaluate-alerts.job';

type SettingsUpdate = z.output<typeof UpdateAlertSettings>;

export const publicHostMessage = (field: string) =>
  `${field} must point to a public address: its host is private, reserved or does not resolve`;

const UNVERIFIED = { smsVerifiedAt: null, smsCodeHash: null, smsCodeExpiresAt: null, smsCodeTries: 0 };
const DEFAULTS: AlertSettingsValues = { ...UNSAVED_ALERT_SETTINGS, slackWebhookUrlEncrypted: null, ...UNVERIFIED };

/** The channels behind advanced_alerting: the switch, the fields that say where it sends, the one it cannot send without. */
const CHANNELS = [
  { name: 'Slack', enabled: 'slackEnabled', fields: ['slackWebhookUrl', 'slackChannel'], target: 'slackWebhookUrl' },
  { name: 'SMS', enabled: 'smsEnabled', fields: ['smsNumber'], target: 'smsNumber' },
  { name: 'webhook', enabled: 'webhookEnabled', fields: ['webhookUrl'], target: 'webhookUrl' },
] as const;

function toSettings(values: AlertSettingsValues, updatedAt: Date | null): AlertSettings {
  const { slackWebhookUrlEncrypted: _secret, smsCodeHash: _code, ...shown } = values;
  return AlertSettings.parse({
    ...shown,
    smsVerified: values.smsNumber !== null && values.smsVerifiedAt !== null,
    updatedAt: updatedAt?.toISOString() ?? null,
  });
}

/**
 * Enough to recognise a Slack webhook URL (scheme, host, the path's first 8 characters) without the
 * token in its path: whoever holds the whole URL can post to the channel.
 */
export function slackWebhookPreview(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}/${parsed.pathname.slice(1, 9)}…`;
}

/** GET /api/alert-settings: the saved settings (the defaults until saved), and whether this server can send SMS. */
export async function getAlertSettings(ctx: Pick<AppContext, 'db' | 'env'>, userId: number): Promise<AlertSettings> {
  const row = await findAlertSettings(ctx.db, userId);
  return {
    ...(row ? toSettings(row, row.updatedAt) : toSettings(DEFAULTS, null)),
    smsAvailable: twilioSettingsOf(ctx.env) !== null,
  };
}

/** For the notification senders: the settings and the Slack webhook URL itself, opened from its box. */
export async function alertDeliverySettings(
  ex: Executor,
  appSecret: string,
  userId: number,
): Promise<AlertSettings & { slackWebhookUrl: string | null }> {
  const row = await findAlertSettings(ex, userId);
  const settings = row ? toSettings(row, row.updatedAt) : toSettings(DEFAULTS, null);
  return {
    ...settings,
    slackWebhookUrl: row?.slackWebhookUrlEncrypted ? decryptSecret(row.slackWebhookUrlEncrypted, appSecret) : null,
  };
}

/**
 * PUT /api/alert-settings: the fields given change, the others keep their value; `{}` changes nothing.
 * The webhook URL, when turned on, is one webhook of the user's (signed, retried, in GET /api/webhooks
 * as "Alert Settings") subscribed to alert.created and alert.resolved; its signing secret comes back
 * once, when it is made. Turning it off or clearing the URL removes it.
 */
export async function updateAlertSettings(
  ctx: AppContext,
  user: UserRow,
  update: SettingsUpdate,
): Promise<SavedAlertSettings> {
  if (Object.keys(update).length === 0) return getAlertSettings(ctx, user.id);
  const smsAvailable = twilioSettingsOf(ctx.env) !== null;
  const saved = await ctx.db.transaction(async (tx) => {
    const current = await lockAlertSettings(tx, user.id);
    const next = applyUpdate(current, update, ctx.env.APP_SECRET);
    checkChannels(user, current, update, next);
    if (next.smsEnabled && !current.smsEnabled && !smsAvailable) throw new AppError('conflict', SMS_UNAVAILABLE);
    if (update.webhookUrl) await checkPublicHost(ctx, 'webhookUrl', update.webhookUrl);
    if (update.slackWebhookUrl) await checkPublicHost(ctx, 'slackWebhookUrl', update.slackWebhookUrl);
    const saved = await saveAlertSettings(tx, user.id, next);
    const webhook =
      'webhookEnabled' in update || 'webhookUrl' in update
        ? await syncAlertSettingsWebhook(
            tx,
            ctx.env.APP_SECRET,
            user.id,
            saved.webhookEnabled ? saved.webhookUrl : null,
          )
        : null;
    return {
      ...toSettings(saved, saved.updatedAt),
      smsAvailable,
      ...(webhook ? { webhookSigningSecret: webhook.secret } : {}),
    };
  });
  // thresholds may have changed: after the commit, so the evaluation reads them
  await queueAlertEvaluation(ctx.jobs, user.id);
  return saved;
}

function applyUpdate(current: AlertSettingsValues, update: SettingsUpdate, appSecret: string): AlertSettingsValues {
  const { slackWebhookUrl, ...plain } = update;
  const next: AlertSettingsValues = { ...pickValues(current), ...stripUndefined(plain) };
  if (next.slackChannel === '') next.slackChannel = null;
  // A new number is unproven: it gets no alert until its own code comes back (sms-verification.service.ts).
  if (next.smsNumber !== current.smsNumber) Object.assign(next, UNVERIFIED);
  if (slackWebhookUrl !== undefined) {
    next.slackWebhookUrlEncrypted = slackWebhookUrl === null ? null : encryptSecret(slackWebhookUrl, appSecret);
    next.slackWebhookPreview = slackWebhookUrl === null ? null : slackWebhookPreview(slackWebhookUrl);
  }
  return next;
}

function pickValues(row: AlertSettingsValues & { userId?: number; updatedAt?: Date }): AlertSettingsValues {
  const { userId: _userId, updatedAt: _updatedAt, ...values } = row;
  return values;
}

function stripUndefined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}

/**
 * Turning a paid channel on, or changing where an enabled one sends, needs advanced_alerting; every
 * other field stays open to any plan, and so does turning a channel off (a downgraded account must
 * be able to). An enabled channel needs somewhere to send.
 */
function checkChannels(
  user: UserRow,
  current: AlertSettingsValues,
  update: SettingsUpdate,
  next: AlertSettingsValues,
): void {
  for (const channel of CHANNELS) {
    if (!next[channel.enabled]) continue;
    const turnedOn = !current[channel.enabled];
    const retargeted = channel.fields.some(
      (field) => field in update && (field === 'slackWebhookUrl' || update[field] !== current[field]),
    );
    if (turnedOn || retargeted) requireFeature(user, 'advanced_alerting');
  }
  for (const channel of CHANNELS) {
    const target = channel.target === 'slackWebhookUrl' ? next.slackWebhookUrlEncrypted : next[channel.target];
    if (next[channel.enabled] && !target)
      throw new AppError('validation_error', `${channel.target} is required to turn on ${channel.name} alerts`);
  }
}

/**
 * A URL the senders will call (the webhook's, Slack's) must have a host that resolves to public addresses only, as
 * the senders check again before every request. One message whatever the reason: telling "private" from "does not
 * resolve" would let anyone map which internal names exist.
 */
async function checkPublicHost(ctx: AppContext, field: 'webhookUrl' | 'slackWebhookUrl', url: string): Promise<void> {
  const refused = await refusedHost(ctx.env, ctx.dns, new URL(url));
  if (!refused) return;
  ctx.log.info({ field, reason: refused.reason, detail: refused.message }, 'alert channel URL refused');
  throw new AppError('validation_error', publicHostMessage(field));
}
