import { SMS_VERIFICATION_MESSAGES, type AlertSettings } from '@contracts/alert-settings';
import { ALERT_TYPE_LABELS, AlertType } from '@contracts/alerts';
import type { WebhookEvent } from '@contracts/webhooks';
import type { AppContext } from '../../platform/context';
import type { Executor } from '../../platform/db/client';
import { hasFeature, lowestPlanNameWith } from '../../plans/plan-gate.service';
import { queueMail } from '../../platform/mail/outbox';
import { sendEmailJob } from '../../platform/mail/send-email.job';
import { claimItem, exponentialBackoff, failAttempt, type RetryPolicy } from '../../platform/queue/durable-delivery';
import { appOutboundGuard } from '../../platform/security/app-outbound-guard';
import { countAgainst, RATE_RULES, rateLimitUsedUp } from '../../platform/security/rate-limit';
import { enqueueWebhookEvent, hasWebhookFor, newWebhookEventId } from '../../webhooks/webhooks.service';
import { alertDeliverySettings } from '../alert-settings.service';
import { alertLink, alertMail, eventLabel } from '../channels/email';
import {
  postSlackMessage,
  slackAlertMessage,
  slackDigestMessage,
  SlackError,
  type SlackAlert,
} from '../channels/slack';
import { sendSms, twilioSettingsOf, TwilioError } from '../channels/twilio';
import { queueAlertDelivery } from '../deliver-alerts.job';
import {
  alertsAnnouncedBefore,
  finishDigest,
  findRecipient,
  digestItems,
  findStrandedDigests,
  insertDigests,
  insertNotifications,
  lockAlertsToNotify,
  lockPendingDigest,
  lockPendingNotifications,
  markAlertsTaken,
  markNotificationsClaimed,
  pendingNotificationSummary,
  purgeOldDelivery,
  ruleChannels,
  usersWithAlertsToNotify,
  type DigestItem,
  type DigestRow,
  type NewDigestRow,
  type NewNotificationRow,
  type NotificationRow,
  type RuleChannels,
} from './delivery.repo';
import { sendAlertDigestJob } from './send-alert-digest.job';
import { claimable, dueBoundary, inQuietHours, type DeliverySchedule } from './schedule';

/*
 * Alert delivery (issue 15, "Delivery"). Two steps, each one transaction:
 *
 * 1. Take: every alert with something to tell (alerts.notified_at null: raised, or escalated by
 *    evaluation; resolved_at set and resolution_notified_at null) becomes an alert_notifications row
 *    (raised, escalated or resolved, with the alert's words as they are), and the alert is marked.
 *    Webhook events are made here too, one alert_digests row each: machines get them at once, not
 *    by digest and not held by quiet hours.
 * 2. Claim: when the user's frequency and quiet hours let them go (schedule.ts), the pending
 *    notifications are claimed into one alert_digests row per channel (e-mail, Slack, SMS).
 *
 * Each alert_digests row is then sent by its own job (sendDigest). A row is sent once: it is leased
 * before sending and marked when done; e-mail is handed to the outbox in the same transaction that
 * marks the row, so a crash cannot send it twice or lose it. Slack and SMS are HTTP requests with no
 * idempotency key: a process killed after the provider took the message and before the row was
 * marked sends it again when the lease runs out (at least once). A webhook row makes its deliveries
 * under a fixed event id, once per webhook, so a second run adds none.
 */

type DeliveryContext = Pick<AppContext, 'db' | 'env' | 'dns' | 'jobs' | 'log' | 'mailer'>;
type Channel = DigestRow['channel'];
type DeliverySettings = AlertSettings & { slackWebhookUrl: string | null };

/** How long a sender holds a message before another may try it (a send takes at most ~10 s). */
const LEASE_SECONDS = 120;
/** Attempts a Slack or SMS message gets; the waits between them are 1, 2, 4 and 8 minutes (the sweep retries). */
const DIGEST_POLICY: RetryPolicy = { maxAttempts: 5, backoffSeconds: exponentialBackoff(60, 2) };
/** A sweep round queues at most this many stranded messages of one user. */
const STRANDED_PER_USER = 50;

/** Which e-mail toggle of Alert Settings covers an alert type; the types it does not name always go by e-mail. */
export const EMAIL_TOGGLES: Record<
  string,
  keyof Pick<AlertSettings, 'emailDeliverability' | 'emailReputation' | 'emailBounce' | 'emailSpam'>
> = {
  deliverability_drop: 'emailDeliverability',
  deliverability: 'emailDeliverability',
  reputation: 'emailReputation',
  reputation_decline: 'emailReputation',
  blacklist_detection: 'emailReputation',
  bounce: 'emailBounce',
  spam: 'emailSpam',
};

const ALERT_WEBHOOK_EVENTS: WebhookEvent[] = ['alert.created', 'alert.resolved'];

/** The deliver-alerts job for one user: take what alerts have to tell, claim what is due, queue the sends. */
export async function deliverUserAlerts(
  ctx: DeliveryContext,
  userId: number,
  now: Date = new Date(),
): Promise<number[]> {
  const webhookRows = await takeAlertNotifications(ctx.db, userId, now);
  const messageRows = await claimDueNotifications(ctx, userId, now);
  const ids = [...webhookRows, ...messageRows];
  for (const digestId of ids) await ctx.jobs.send(sendAlertDigestJob, { digestId });
  return ids;
}

/** Step 1, one transaction: alerts with something to tell become notifications; webhook events are made at once. Returns the webhook rows' ids. */
export async function takeAlertNotifications(db: AppContext['db'], userId: number, now: Date): Promise<number[]> {
  // Outside the transaction: which events the user's webhooks take (nothing is locked by asking).
  const webhooksListen = await hasWebhookFor(db, userId, ALERT_WEBHOOK_EVENTS);
  return db.transaction(async (tx) => {
    const due = await lockAlertsToNotify(tx, userId);
    if (due.length === 0) return [];
    const announced = await alertsAnnouncedBefore(
      tx,
      due.filter((a) => a.notifiedAt === null).map((a) => a.id),
    );
    const rows: NewNotificationRow[] = [];
    for (const alert of due) {
      const words = {
        userId,
        alertId: alert.id,
        type: alert.type,
        severity: alert.severity,
        title: alert.title,
        message: alert.message,
        domain: alert.domain,
        ruleId: ruleIdOf(alert.metadata),
      };
      if (alert.notifiedAt === null) {
        const escalated = announced.has(alert.id);
        rows.push({
          ...words,
          event: escalated ? 'escalated' : 'raised',
          occurredAt: notAfter(escalated ? (alert.updatedAt ?? now) : alert.createdAt, now),
        });
      }
      if (alert.resolvedAt !== null && alert.resolutionNotifiedAt === null)
        rows.push({ ...words, event: 'resolved', occurredAt: notAfter(alert.resolvedAt, now) });
    }
    const notifications = await insertNotifications(tx, rows);
    await markAlertsTaken(
      tx,
      due.map((a) => a.id),
      now,
    );
    if (!webhooksListen) return [];
    const rules = await ruleChannels(tx, userId, ruleIdsOf(notifications));
    const webhookRows: NewDigestRow[] = notifications
      .filter((n) => channelsOfRule(n, rules).webhook)
      .map((n) => ({
        userId,
        channel: 'webhook',
        frequency: 'immediate',
        items: [toItem(n)],
        eventId: newWebhookEventId(),
      }));
    return (await insertDigests(tx, webhookRows)).map((r) => r.id);
  });
}

/** Step 2, one transaction: the notifications the schedule lets go now, claimed into one message per channel. Returns the messages' ids. */
export async function claimDueNotifications(
  ctx: Pick<DeliveryContext, 'db' | 'env'>,
  userId: number,
  now: Date,
): Promise<number[]> {
  return ctx.db.transaction(async (tx) => {
    const pending = await lockPendingNotifications(tx, userId);
    if (pending.length === 0) return [];
    const settings = await alertDeliverySettings(tx, ctx.env.APP_SECRET, userId);
    const take = claimable(pending, settings, now);
    if (take.length === 0) return [];
    await markNotificationsClaimed(
      tx,
      take.map((n) => n.id),
      now,
    );
    const rules = await ruleChannels(tx, userId, ruleIdsOf(take));
    const byChannel: Record<Exclude<Channel, 'webhook'>, NotificationRow[]> = { email: [], slack: [], sms: [] };
    for (const n of take) {
      const rule = channelsOfRule(n, rules);
      if (rule.email && emailWanted(n.type, settings)) byChannel.email.push(n);
      if (rule.slack && settings.slackEnabled && settings.slackWebhookUrl) byChannel.slack.push(n);
      // SMS: critical alerts only, as documented; a resolution is not worth a text message.
      if (rule.sms && settings.smsEnabled && settings.smsNumber && n.severity === 'critical' && n.event !== 'resolved')
        byChannel.sms.push(n);
    }
    const rows: NewDigestRow[] = (Object.keys(byChannel) as (keyof typeof byChannel)[])
      .filter((channel) => byChannel[channel].length > 0)
      .map((channel) => ({
        userId,
        channel,
        frequency: settings.frequency,
        items: mergeItems(byChannel[channel].map(toItem)),
      }));
    return (await insertDigests(tx, rows)).map((r) => r.id);
  });
}

function emailWanted(type: string, settings: AlertSettings): boolean {
  const toggle = EMAIL_TOGGLES[type];
  return toggle ? settings[toggle] : true;
}

/** A rule's channels; an alert no rule raised (or whose rule is gone) goes wherever the settings send. */
function channelsOfRule(n: Pick<NotificationRow, 'ruleId'>, rules: Map<number, RuleChannels>): RuleChannels {
  return (n.ruleId !== null && rules.get(n.ruleId)) || { email: true, webhook: true, slack: true, sms: true };
}

function ruleIdOf(metadata: Record<string, unknown> | null): number | null {
  const id = metadata?.ruleId;
  return typeof id === 'number' && Number.isInteger(id)
    ? id
    : typeof id === 'string' && /^\d+$/.test(id)
      ? Number(id)
      : null;
}

function ruleIdsOf(rows: Pick<NotificationRow, 'ruleId'>[]): number[] {
  return [...new Set(rows.map((r) => r.ruleId).filter((id): id is number => id !== null))];
}

function notAfter(at: Date, now: Date): Date {
  return at.getTime() > now.getTime() ? now : at;
}

function toItem(n: NotificationRow): DigestItem {
  return {
    notificationId: n.id,
    alertId: n.alertId,
    event: n.event,
    type: n.type,
    severity: n.severity,
    title: n.title,
    message: n.message,
    domain: n.domain,
    at: n.occurredAt.toISOString(),
  };
}

/**
 * One line per alert and event: an alert raised and escalated before its message went out is told
 * once, as raised, in its latest words; a resolution keeps its own line.
 */
export function mergeItems(items: DigestItem[]): DigestItem[] {
  const out: DigestItem[] = [];
  const open = new Map<number, number>();
  for (const item of items) {
    const at = item.event === 'resolved' ? undefined : open.get(item.alertId);
    if (at === undefined) {
      if (item.event !== 'resolved') open.set(item.alertId, out.length);
      out.push(item);
    } else {
      out[at] = { ...item, event: out[at]!.event };
    }
  }
  return out;
}

/** Whether the user's pending notifications have something the schedule lets go at `now` (the sweep's question). */
export function hasDue(
  summary: { oldest: Date; oldestCritical: Date | null },
  schedule: DeliverySchedule,
  now: Date,
): boolean {
  const boundary = dueBoundary(now, schedule).getTime();
  const first = inQuietHours(now, schedule.quietHours) ? summary.oldestCritical : summary.oldest;
  return first !== null && first.getTime() <= boundary;
}

/**
 * The per-minute sweep: queues deliver-alerts for every user with alerts to take (raised anywhere:
 * domain checks, blocklist runs, DMARC reporters, evaluation; or missed after a crash) or with
 * notifications now due, queues again messages whose job was lost or whose retry time has come, and
 * forgets what is older than 30 days.
 */
export async function sweepAlertDelivery(
  ctx: DeliveryContext,
  now: Date = new Date(),
): Promise<{ users: number; messages: number }> {
  const users = new Set(await usersWithAlertsToNotify(ctx.db, 5000));
  for (const summary of await pendingNotificationSummary(ctx.db, 5000)) {
    const schedule: DeliverySchedule = {
      frequency: (summary.frequency ?? 'immediate') as DeliverySchedule['frequency'],
      quietHours: summary.quietHours,
    };
    if (hasDue(summary, schedule, now)) users.add(summary.userId);
  }
  for (const userId of users) await queueAlertDelivery(ctx.jobs, userId);
  const stranded = await findStrandedDigests(ctx.db, 500, STRANDED_PER_USER);
  for (const digestId of stranded) await ctx.jobs.send(sendAlertDigestJob, { digestId });
  await purgeOldDelivery(ctx.db);
  return { users: users.size, messages: stranded.length };
}

export type SendOutcome = 'sent' | 'skipped' | 'failed' | 'retrying' | 'busy';

/** Sends one message (the send-alert-digest job), checking the channel and the plan as they are now. */
export async function sendDigest(ctx: DeliveryContext, digestId: number): Promise<SendOutcome> {
  const leased = await claimItem(ctx.db, digestItems, digestId, LEASE_SECONDS);
  if (!leased) return 'busy';
  if (leased.channel === 'email') return sendEmail(ctx, leased);
  const recipient = await findRecipient(ctx.db, leased.userId);
  if (!recipient) return finish(ctx.db, leased, 'skipped', 'The account no longer exists');
  // Slack, SMS and webhooks are advanced_alerting: a downgraded account's messages stop here.
  if (!hasFeature(recipient, 'advanced_alerting'))
    return finish(ctx.db, leased, 'skipped', `Requires ${lowestPlanNameWith('advanced_alerting')} plan`);
  if (leased.channel === 'webhook') return sendWebhook(ctx, leased);
  const settings = await alertDeliverySettings(ctx.db, ctx.env.APP_SECRET, leased.userId);
  return leased.channel === 'slack' ? sendSlack(ctx, leased, settings) : sendText(ctx, leased, settings);
}

async function finish(
  db: Executor,
  row: DigestRow,
  status: 'sent' | 'skipped' | 'failed',
  lastError: string | null = null,
): Promise<SendOutcome> {
  await finishDigest(db, row.id, { status, lastError });
  return status;
}

/** A failed attempt: tried again after 1, 2, 4, 8 minutes (the sweep queues it), failed for good after the fifth or when it cannot work. */
async function failed(ctx: DeliveryContext, row: DigestRow, error: string, permanent: boolean): Promise<SendOutcome> {
  ctx.log.warn({ digestId: row.id, channel: row.channel, attempt: row.attempts, error }, 'alert message not sent');
  return failAttempt(ctx.db, digestItems, DIGEST_POLICY, row, error, permanent);
}

/** E-mail goes to the outbox in the transaction that marks the message: exactly one outbox row per message, sent (and retried) by send-email. */
async function sendEmail(ctx: DeliveryContext, leased: DigestRow): Promise<SendOutcome> {
  const outcome = await ctx.db.transaction(async (tx) => {
    const row = await lockPendingDigest(tx, leased.id);
    if (!row) return { status: 'busy' as const };
    const recipient = await findRecipient(tx, row.userId);
    if (!recipient) {
      await finishDigest(tx, row.id, { status: 'skipped', lastError: 'The account no longer exists' });
      return { status: 'skipped' as const };
    }
    const mail = alertMail(row.items, { appUrl: ctx.env.APP_URL, frequency: row.frequency });
    const outboxId = await queueMail(
      tx,
      ctx.mailer,
      { userId: row.userId, kind: 'alert_notification', to: recipient.email, ...mail },
      ctx.log,
    );
    await finishDigest(
      tx,
      row.id,
      outboxId === null
        ? { status: 'skipped', lastError: 'SMTP_URL is not set', outboxId }
        : { status: 'sent', outboxId },
    );
    return { status: outboxId === null ? ('skipped' as const) : ('sent' as const), outboxId };
  });
  // A crash before this line leaves the outbox row pending: the maintenance job hands it to send-email within a minute
  // or two.
  if (outcome.status === 'sent' && outcome.outboxId) await ctx.jobs.send(sendEmailJob, { outboxId: outcome.outboxId });
  return outcome.status;
}

function slackAlertOf(item: DigestItem): SlackAlert {
  return {
    id: item.alertId,
    severity: item.severity as SlackAlert['severity'],
    title: item.title,
    message: item.message,
    domain: item.domain,
    createdAt: item.at,
    event: item.event,
  };
}

const DIGEST_NAME = {
  immediate: '',
  hourly: 'hourly digest',
  daily: 'daily digest',
  weekly: 'weekly summary',
} as const;

async function sendSlack(ctx: DeliveryContext, row: DigestRow, settings: DeliverySettings): Promise<SendOutcome> {
  if (!settings.slackEnabled || !settings.slackWebhookUrl)
    return finish(ctx.db, row, 'skipped', 'Slack notifications are off');
  const message =
    row.items.length === 1
      ? slackAlertMessage(slackAlertOf(row.items[0]!), ctx.env.APP_URL)
      : slackDigestMessage(row.items.map(slackAlertOf), ctx.env.APP_URL, DIGEST_NAME[row.frequency]);
  try {
    await postSlackMessage(appOutboundGuard(ctx.env, ctx.dns), settings.slackWebhookUrl, message);
  } catch (err) {
    if (!(err instanceof SlackError)) throw err;
    return failed(ctx, row, err.message, err.permanent);
  }
  return finish(ctx.db, row, 'sent');
}

/**
 * The SMS: one critical alert's type, domain and link, or the count and a link to the list (cut to 320 characters).
 * No text the account wrote (a rule's name, a title made from it) goes into an SMS: the server's number is not a
 * relay for the account's words.
 */
export function smsBody(items: DigestItem[], appUrl: string): string {
  const typeLabel = (type: string) => {
    const known = AlertType.safeParse(type);
    return known.success ? ALERT_TYPE_LABELS[known.data] : 'Alert';
  };
  if (items.length === 1) {
    const [item] = items;
    const about = item!.domain ? ` for ${item!.domain}` : '';
    return `InboxPulse ${eventLabel(item!)}: ${typeLabel(item!.type)}${about} ${alertLink(appUrl, item!.alertId)}`;
  }
  return `InboxPulse: ${items.length} critical alerts ${appUrl.replace(/\/$/, '')}/alerts`;
}

async function sendText(ctx: DeliveryContext, row: DigestRow, settings: DeliverySettings): Promise<SendOutcome> {
  if (!settings.smsEnabled || !settings.smsNumber) return finish(ctx.db, row, 'skipped', 'SMS notifications are off');
  if (!settings.smsVerified) return finish(ctx.db, row, 'skipped', SMS_VERIFICATION_MESSAGES.notVerified);
  const today = await rateLimitUsedUp(ctx.db, RATE_RULES.smsPerUserPerDay, String(row.userId));
  if (today.usedUp)
    return finish(
      ctx.db,
      row,
      'skipped',
      `This account has had its ${RATE_RULES.smsPerUserPerDay.limit} SMS of the last 24 hours: the alert went by the other channels`,
    );
  const twilio = twilioSettingsOf(ctx.env);
  if (!twilio)
    return finish(
      ctx.db,
      row,
      'skipped',
      'SMS is not set up on this server (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM)',
    );
  try {
    await countAgainst(ctx.db, RATE_RULES.smsPerUserPerDay, String(row.userId));
    await sendSms(twilio, settings.smsNumber, smsBody(row.items, ctx.env.APP_URL));
  } catch (err) {
    if (!(err instanceof TwilioError)) throw err;
    // A 4xx (a bad number, an unverified sender) stays wrong; 429 and 5xx may pass.
    const permanent =
      err.httpStatus !== null && err.httpStatus >= 400 && err.httpStatus < 500 && err.httpStatus !== 429;
    return failed(ctx, row, err.message, permanent);
  }
  return finish(ctx.db, row, 'sent');
}

/** The alert.created / alert.resolved envelope's data. */
export function alertWebhookData(item: DigestItem, appUrl: string) {
  const alert = {
    alert_id: item.alertId,
    type: item.type,
    severity: item.severity,
    title: item.title,
    message: item.message,
    domain: item.domain,
    url: alertLink(appUrl, item.alertId),
  };
  return item.event === 'resolved'
    ? { ...alert, resolved_at: item.at }
    : { ...alert, escalated: item.event === 'escalated', occurred_at: item.at };
}

async function sendWebhook(ctx: DeliveryContext, row: DigestRow): Promise<SendOutcome> {
  const [item] = row.items;
  if (!item || !row.eventId) return finish(ctx.db, row, 'skipped', 'Nothing to send');
  const type: WebhookEvent = item.event === 'resolved' ? 'alert.resolved' : 'alert.created';
  // The same event id and time on every run: each webhook gets one delivery of it (webhooks.service).
  await enqueueWebhookEvent(ctx.db, ctx.jobs, row.userId, type, alertWebhookData(item, ctx.env.APP_URL), {
    id: row.eventId,
    created: Math.floor(row.createdAt.getTime() / 1000),
  });
  return finish(ctx.db, row, 'sent');
}
