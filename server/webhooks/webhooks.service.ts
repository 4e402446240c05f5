import { randomBytes } from 'node:crypto';
import {
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOKS_PER_ACCOUNT,
  type CreatedWebhook,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
} from '@contracts/webhooks';
import type { AppContext } from '../platform/context';
import type { Executor } from '../platform/db/client';
import { AppError } from '../platform/errors';
import type { JobSender } from '../platform/job-sender';
import { OutboundRequestError, type OutboundGuard } from '../platform/security/outbound-address';
import { decryptSecret, encryptSecret, SecretBoxError } from '../platform/security/secret-box';
import { appOutboundGuard, refusedHost } from '../platform/security/app-outbound-guard';
import {
  claimWithinLimits,
  exponentialBackoff,
  findStranded,
  nextRetry,
  releaseItem,
  wakeWaiting,
  type RetryPolicy,
} from '../platform/queue/durable-delivery';
import { queueMail } from '../platform/mail/outbox';
import { sendEmailJob } from '../platform/mail/send-email.job';
import { queueWebhookAttempt } from './deliver-webhook.job';
import {
  closeEndpointBreaker,
  countSubscribedWebhooks,
  deliveryLimits,
  endPauseNow,
  deleteSourceWebhook,
  findDelivery,
  findOwnerEmail,
  findSourceWebhook,
  findWebhook,
  insertDeliveries,
  insertDeliveriesOnce,
  insertWebhook,
  insertWebhookWithin,
  listSubscribedWebhooks,
  ofWebhook,
  recordAttempt,
  recordEndpointFailure,
  updateWebhook,
  webhookDeliveryItems,
  type WebhookAttemptRow,
  type WebhookDeliveryRow,
  type WebhookRow,
} from './webhooks.repo';
import { signWebhook } from './webhook-signature';
import { webhookPausedMail } from './webhook-paused-mail';

const SECRET_PREFIX = 'whsec_';
/** A receiver's answer is read this far (to finish the exchange cleanly) and never stored. */
const RESPONSE_MAX_BYTES = 64 * 1024;
const USER_AGENT = 'InboxPulse-Webhooks/1.0';

/** The spec's envelope (part 2, section 3): the same id on every attempt and redelivery. */
export interface WebhookEnvelope {
  id: string;
  type: WebhookEvent;
  created: number;
  data: unknown;
}

const SECRET_UNREADABLE =
  'The signing secret cannot be read: APP_SECRET is not the one it was stored with. Delete this webhook and register it again';

/** The signing secret, or undefined when the secret box cannot open it (APP_SECRET was changed). */
function readSecret(row: WebhookRow, appSecret: string): string | undefined {
  try {
    return decryptSecret(row.secretEncrypted, appSecret);
  } catch (err) {
    if (err instanceof SecretBoxError) return undefined;
    throw err;
  }
}

export function toWebhook(row: WebhookRow, appSecret: string): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEvent[],
    description: row.description,
    secretPreview: `${readSecret(row, appSecret)?.slice(0, SECRET_PREFIX.length + 4) ?? SECRET_PREFIX}…`,
    createdAt: row.createdAt.toISOString(),
    ...(row.pausedUntil && {
      pausedUntil: row.pausedUntil.toISOString(),
      pauseReason: row.lastError ?? 'The endpoint kept failing',
    }),
  };
}

export function toDelivery(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.webhookId,
    eventId: row.eventId,
    eventType: row.eventType as WebhookEvent,
    status: row.status,
    attempts: row.attempts,
    maxAttempts: WEBHOOK_MAX_ATTEMPTS,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export interface NewWebhook {
  url: string;
  events: WebhookEvent[];
  description?: string;
}

/** Registers a webhook whose host resolves to public addresses only; the answer carries the secret, once. */
export async function createWebhook(
  ctx: Pick<AppContext, 'db' | 'env' | 'dns'>,
  userId: number,
  input: NewWebhook,
): Promise<CreatedWebhook> {
  const url = new URL(input.url);
  if (url.username || url.password)
    throw new AppError('validation_error', 'Webhook URLs must not contain a user name or password');
  if (await refusedHost(ctx.env, ctx.dns, url))
    throw new AppError('validation_error', refusedHostMessage(url.hostname));
  const secret = newSecret();
  const row = await insertWebhookWithin(
    ctx.db,
    {
      userId,
      url: url.href,
      events: input.events,
      description: input.description || null,
      secretEncrypted: encryptSecret(secret, ctx.env.APP_SECRET),
    },
    WEBHOOKS_PER_ACCOUNT,
  );
  if (!row)
    throw new AppError(
      'conflict',
      `An account can have at most ${WEBHOOKS_PER_ACCOUNT} webhooks: delete one to add another`,
    );
  return { ...toWebhook(row, ctx.env.APP_SECRET), secret };
}

function newSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** What Alert Settings' webhook URL subscribes to, and how the list names it. */
export const ALERT_SETTINGS_WEBHOOK = {
  events: ['alert.created', 'alert.resolved'] as WebhookEvent[],
  description: 'Alert Settings',
};

/**
 * Keeps the one webhook Alert Settings manages in line with its URL, inside the settings' own
 * transaction: made (with a new signing secret) when a URL is turned on, re-pointed with a new secret
 * when the URL changes (a new receiver gets its own), removed when it is turned off or cleared. The
 * answer carries the new secret when one was made, the only time it is shown. The URL was checked by
 * the caller (https, public host); this webhook does not count toward the 20 the user registers.
 */
export async function syncAlertSettingsWebhook(
  ex: Executor,
  appSecret: string,
  userId: number,
  url: string | null,
): Promise<{ secret: string } | null> {
  const current = await findSourceWebhook(ex, userId, 'alert_settings');
  if (url === null) {
    if (current) await deleteSourceWebhook(ex, userId, 'alert_settings');
    return null;
  }
  const href = new URL(url).href;
  if (current && current.url === href) {
    // The same URL saved again keeps its secret; the events follow the definition.
    await updateWebhook(ex, current.id, {
      events: ALERT_SETTINGS_WEBHOOK.events,
      description: ALERT_SETTINGS_WEBHOOK.description,
    });
    return null;
  }
  const secret = newSecret();
  const secretEncrypted = encryptSecret(secret, appSecret);
  if (current)
    await updateWebhook(ex, current.id, { url: href, secretEncrypted, events: ALERT_SETTINGS_WEBHOOK.events });
  else
    await insertWebhook(ex, {
      userId,
      url: href,
      events: ALERT_SETTINGS_WEBHOOK.events,
      description: ALERT_SETTINGS_WEBHOOK.description,
      secretEncrypted,
      source: 'alert_settings',
    });
  return { secret };
}

/** Whether any of the user's webhooks subscribes to one of `types`. */
export async function hasWebhookFor(db: Executor, userId: number, types: WebhookEvent[]): Promise<boolean> {
  return (await countSubscribedWebhooks(db, userId, types)) > 0;
}

/**
 * One message whether the host is private or does not resolve: telling the two apart would let anyone map which
 * internal names exist.
 */
export const refusedHostMessage = (host: string) =>
  `Webhook URLs must point to a public address: ${host} is private, reserved or does not resolve`;

/**
 * Sends `type` with `data` to every webhook of the user subscribed to it: one delivery row and one
 * durable job per webhook. What other capabilities call when something happens.
 */
export async function enqueueWebhookEvent(
  db: Executor,
  jobs: JobSender,
  userId: number,
  type: WebhookEvent,
  data: unknown,
  /**
   * A caller that may run again for the same event (a retried job) names it: the same id and time
   * make the same envelope, each webhook gets one delivery of it, and deliveries a dead run left
   * unqueued are queued. Receivers dedupe on the id.
   */
  event?: { id: string; created: number },
): Promise<WebhookDelivery[]> {
  const subscribed = await listSubscribedWebhooks(db, userId, type);
  if (!event) return queueDeliveries(db, jobs, subscribed, newEnvelope(type, data));
  const envelope: WebhookEnvelope = { id: event.id, type, created: event.created, data };
  const body = JSON.stringify(envelope);
  const rows = await insertDeliveriesOnce(
    db,
    envelope.id,
    subscribed.map((w) => ({
      webhookId: w.id,
      userId: w.userId,
      eventId: envelope.id,
      eventType: envelope.type,
      body,
    })),
  );
  for (const row of rows) await queueWebhookAttempt(jobs, row.id, { eventType: row.eventType });
  return rows.map(toDelivery);
}

/**
 * An event that happened inside the caller's transaction: its deliveries are written there, so they
 * exist exactly when what caused them committed. The caller queues the returned ids with
 * queueWebhookDeliveries after the commit (a job queued before it could run first and find nothing);
 * if the process dies in between, the sweep queues them (sweepStrandedDeliveries).
 */
export async function recordWebhookEvent(
  tx: Executor,
  userId: number,
  type: WebhookEvent,
  data: unknown,
): Promise<number[]> {
  const subscribed = await listSubscribedWebhooks(tx, userId, type);
  const envelope = newEnvelope(type, data);
  const body = JSON.stringify(envelope);
  const rows = await insertDeliveries(
    tx,
    subscribed.map((w) => ({ webhookId: w.id, userId: w.userId, eventId: envelope.id, eventType: type, body })),
  );
  return rows.map((row) => row.id);
}

/**
 * Many events of one type in the caller's transaction (a batch of MTA delivery events): as
 * recordWebhookEvent for each, with the subscribed webhooks read once and the deliveries written in
 * one statement. Each event gets its own envelope and id.
 */
export async function recordWebhookEvents(
  tx: Executor,
  userId: number,
  type: WebhookEvent,
  data: readonly unknown[],
): Promise<number[]> {
  if (data.length === 0) return [];
  const subscribed = await listSubscribedWebhooks(tx, userId, type);
  if (subscribed.length === 0) return [];
  const values = data.flatMap((d) => {
    const envelope = newEnvelope(type, d);
    const body = JSON.stringify(envelope);
    return subscribed.map((w) => ({ webhookId: w.id, userId: w.userId, eventId: envelope.id, eventType: type, body }));
  });
  const ids: number[] = [];
  // A statement holds at most 65,535 parameters: 5 a row.
  for (let i = 0; i < values.length; i += 5000)
    ids.push(...(await insertDeliveries(tx, values.slice(i, i + 5000))).map((row) => row.id));
  return ids;
}

/** Queues the first attempt of deliveries recorded in a committed transaction. */
export async function queueWebhookDeliveries(jobs: JobSender, deliveryIds: number[]): Promise<void> {
  for (const deliveryId of deliveryIds) await queueWebhookAttempt(jobs, deliveryId);
}

/** How late a delivery's next attempt must be before the sweep queues it again: far past any normal queue wait. */
const STRANDED_AFTER_SECONDS = 15 * 60;
/** A sweep round queues at most 500 deliveries, at most 50 of one account's. */
const SWEEP_LIMITS = { limit: 500, perAccount: 50 };

/** WEBHOOK_MAX_ATTEMPTS attempts, WEBHOOK_RETRY_SECONDS x 4^n apart. */
function retryPolicy(env: Pick<AppContext['env'], 'WEBHOOK_RETRY_SECONDS'>): RetryPolicy {
  return { maxAttempts: WEBHOOK_MAX_ATTEMPTS, backoffSeconds: exponentialBackoff(env.WEBHOOK_RETRY_SECONDS, 4) };
}

/**
 * Queues deliveries whose next attempt is long overdue: written by a transaction whose process died
 * before queueing them, or waiting for a retry whose job was lost. Returns how many it queued.
 */
export async function sweepStrandedDeliveries(ctx: Pick<AppContext, 'db' | 'env' | 'jobs'>): Promise<number> {
  const ids = await findStranded(ctx.db, deliveryItems(ctx.env), SWEEP_LIMITS);
  await queueWebhookDeliveries(ctx.jobs, ids);
  return ids.length;
}

/** A new event id, for a caller that keeps it to send the event again under the same id. */
export function newWebhookEventId(): string {
  return `evt_${randomBytes(12).toString('base64url')}`;
}

/** A webhook.test event to this one webhook, whatever it subscribes to; a paused endpoint is tried with it at once. */
export async function sendTestEvent(db: Executor, jobs: JobSender, webhook: WebhookRow): Promise<WebhookDelivery> {
  const data = { webhook_id: webhook.id, message: 'This is a test event from InboxPulse.' };
  await endPauseNow(db, webhook.id);
  const [delivery] = await queueDeliveries(db, jobs, [webhook], newEnvelope('webhook.test', data));
  return delivery!;
}

/** A new delivery of the same event: same event id and body, fresh attempts; a paused endpoint is tried with it at once. */
export async function redeliver(db: Executor, jobs: JobSender, delivery: WebhookDeliveryRow): Promise<WebhookDelivery> {
  await endPauseNow(db, delivery.webhookId);
  const [row] = await insertDeliveries(db, [
    {
      webhookId: delivery.webhookId,
      userId: delivery.userId,
      eventId: delivery.eventId,
      eventType: delivery.eventType,
      body: delivery.body,
    },
  ]);
  await queueWebhookAttempt(jobs, row!.id, { eventType: row!.eventType });
  return toDelivery(row!);
}

function newEnvelope(type: WebhookEvent, data: unknown): WebhookEnvelope {
  return { id: newWebhookEventId(), type, created: Math.floor(Date.now() / 1000), data };
}

async function queueDeliveries(
  db: Executor,
  jobs: JobSender,
  targets: WebhookRow[],
  envelope: WebhookEnvelope,
): Promise<WebhookDelivery[]> {
  const body = JSON.stringify(envelope);
  const rows = await insertDeliveries(
    db,
    targets.map((w) => ({ webhookId: w.id, userId: w.userId, eventId: envelope.id, eventType: envelope.type, body })),
  );
  for (const row of rows) await queueWebhookAttempt(jobs, row.id, { eventType: row.eventType });
  return rows.map(toDelivery);
}

/**
 * Fair delivery (ADR 051): at most this many attempts of one account, and of one endpoint, in flight at
 * once; the others wait their turn without using an attempt, and the worker's other slots serve other accounts.
 */
export const WEBHOOK_IN_FLIGHT = { perAccount: 4, perEndpoint: 2 };
/** The circuit breaker: paused after 5 failed attempts in a row, for 5 minutes, doubled after each failed probe up to an hour. */
export const WEBHOOK_BREAKER = { threshold: 5, pauseSeconds: 5 * 60, maxPauseSeconds: 60 * 60 };

type AttemptContext = Pick<AppContext, 'db' | 'env' | 'dns' | 'jobs' | 'log' | 'mailer'>;

/**
 * One attempt of a delivery: a 2xx delivers it; anything else is logged and, before the last
 * attempt, the next is queued after an exponential wait (WEBHOOK_RETRY_SECONDS x 4^n). The retries
 * are new jobs rather than pg-boss retries, so the wait comes from the environment and a failed
 * attempt is not a failed job; pg-boss still retries a job whose process died mid-attempt.
 *
 * An attempt starts only while its account and endpoint are under their in-flight limits and its
 * endpoint is not paused; otherwise the delivery waits, with no attempt counted, until a finished
 * attempt of its account (or its endpoint's probe) wakes it.
 */
export async function attemptDelivery(ctx: AttemptContext, deliveryId: number): Promise<void> {
  const found = await findDelivery(ctx.db, deliveryId);
  if (!found || found.status === 'delivered' || found.status === 'failed') return;
  const webhook = await findWebhook(ctx.db, found.webhookId);
  if (!webhook) return; // deleted since: its deliveries went with it
  const items = deliveryItems(ctx.env);
  const pauseLeft = webhook.pausedUntil ? Math.ceil((webhook.pausedUntil.getTime() - Date.now()) / 1000) : 0;
  if (pauseLeft > 0) {
    // Back to the queue for when the pause ends, with no attempt used: one job a pause, not a spin.
    await queueWebhookAttempt(ctx.jobs, deliveryId, { eventType: found.eventType, startAfterSeconds: pauseLeft });
    return;
  }
  // Past its pause the endpoint is tried by one attempt alone (the probe) until one is delivered.
  const limits = deliveryLimits(WEBHOOK_IN_FLIGHT.perAccount, webhook.pausedUntil ? 1 : WEBHOOK_IN_FLIGHT.perEndpoint);
  const leaseSeconds = Math.ceil(ctx.env.WEBHOOK_TIMEOUT_MS / 1000) + 60;
  const delivery = await claimWithinLimits(ctx.db, items, deliveryId, leaseSeconds, limits);
  if (!delivery || delivery === 'waiting') return;

  const guard = appOutboundGuard(ctx.env, ctx.dns);
  const secret = readSecret(webhook, ctx.env.APP_SECRET);
  const attempt = secret
    ? await post(guard, webhook, delivery, secret, ctx.env.WEBHOOK_TIMEOUT_MS)
    : { at: new Date().toISOString(), statusCode: null, error: SECRET_UNREADABLE, durationMs: 0 };
  const number = delivery.attempts.length + 1;
  const delivered = attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300;
  // An unreadable secret stays unreadable: retrying would only send nothing four more times.
  const retryIn = delivered ? null : nextRetry(retryPolicy(ctx.env), number, !secret);
  const status = delivered ? 'delivered' : retryIn === null ? 'failed' : 'retrying';
  const recorded = await recordAttempt(ctx.db, delivery.id, delivery.attempts.length, attempt, status);
  ctx.log.info(
    {
      deliveryId,
      webhookId: webhook.id,
      attempt: number,
      status,
      statusCode: attempt.statusCode,
      error: attempt.error,
    },
    'webhook attempt',
  );
  let pausedFor = 0;
  if (delivered) await closeEndpointBreaker(ctx.db, webhook.id);
  // An unreadable secret is this server's failure, not the endpoint's: it does not count toward a pause.
  else if (secret) pausedFor = await countFailure(ctx, webhook, attempt.error ?? `HTTP ${attempt.statusCode}`);
  for (const woken of await releaseItem(ctx.db, items, deliveryId, limits)) await queueWebhookAttempt(ctx.jobs, woken);
  if (!recorded) return;
  if (retryIn !== null)
    // While the endpoint is paused this delivery's next attempt is its probe, due when the pause ends.
    await queueWebhookAttempt(ctx.jobs, deliveryId, { startAfterSeconds: Math.max(retryIn, pausedFor) });
  else if (pausedFor > 0)
    for (const probe of await wakeWaiting(ctx.db, items, ofWebhook(webhook.id), 1))
      await queueWebhookAttempt(ctx.jobs, probe, { startAfterSeconds: pausedFor });
}

function deliveryItems(env: Pick<AppContext['env'], 'WEBHOOK_RETRY_SECONDS'>) {
  return webhookDeliveryItems(env.WEBHOOK_RETRY_SECONDS, STRANDED_AFTER_SECONDS);
}

/**
 * Counts a failed attempt against the endpoint; the seconds its pause has left (0 when it is not paused).
 * The attempt that opens the breaker mails the owner, once: a failed probe extends the pause silently.
 */
async function countFailure(ctx: AttemptContext, webhook: WebhookRow, error: string): Promise<number> {
  const breaker = await recordEndpointFailure(ctx.db, webhook.id, error, WEBHOOK_BREAKER);
  if (!breaker?.pausedUntil) return 0;
  if (breaker.streak === WEBHOOK_BREAKER.threshold) {
    ctx.log.warn({ webhookId: webhook.id, pausedUntil: breaker.pausedUntil }, 'webhook endpoint paused');
    await mailPause(ctx, webhook, { until: breaker.pausedUntil, failures: breaker.streak, lastError: error });
  }
  return Math.max(1, Math.ceil((breaker.pausedUntil.getTime() - Date.now()) / 1000));
}

async function mailPause(
  ctx: AttemptContext,
  webhook: WebhookRow,
  pause: Parameters<typeof webhookPausedMail>[1],
): Promise<void> {
  const to = await findOwnerEmail(ctx.db, webhook.userId);
  if (!to) return;
  const mail = webhookPausedMail(webhook, pause, `${ctx.env.APP_URL}/settings#webhooks`);
  const outboxId = await queueMail(
    ctx.db,
    ctx.mailer,
    { ...mail, to, userId: webhook.userId, kind: 'webhook_paused' },
    ctx.log,
  );
  if (outboxId !== null) await ctx.jobs.send(sendEmailJob, { outboxId }, { singletonKey: `outbox-${outboxId}` });
}

async function post(
  guard: OutboundGuard,
  webhook: WebhookRow,
  delivery: WebhookDeliveryRow,
  secret: string,
  timeoutMs: number,
): Promise<WebhookAttemptRow> {
  const started = Date.now();
  const at = new Date(started).toISOString();
  const timestamp = Math.floor(started / 1000);
  try {
    const res = await guard.fetch(webhook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'InboxPulse-Event': delivery.eventType,
        'InboxPulse-Delivery': String(delivery.id),
        'InboxPulse-Signature': signWebhook(secret, delivery.body, timestamp),
      },
      body: delivery.body,
      timeoutMs,
      maxBytes: RESPONSE_MAX_BYTES,
    });
    // Redirects are never followed: the next hop would be a request to an address nobody checked.
    const error =
      res.status >= 300 && res.status < 400
        ? `Redirect to ${String(res.headers.location ?? '(no location)').slice(0, 200)} not followed`
        : null;
    return {
      at,
      statusCode: res.status,
      error: error ?? (res.status >= 200 && res.status < 300 ? null : `HTTP ${res.status}`),
      durationMs: Date.now() - started,
    };
  } catch (err) {
    if (!(err instanceof OutboundRequestError)) throw err;
    return { at, statusCode: null, error: attemptError(err, timeoutMs), durationMs: Date.now() - started };
  }
}

/** The guard's own messages name addresses and ports (for logs); the owner sees what went wrong in words. */
function attemptError(err: OutboundRequestError, timeoutMs: number): string {
  switch (err.reason) {
    case 'timeout':
      return `No answer within ${timeoutMs / 1000} seconds`;
    case 'not_public':
      return 'Refused: the host resolves to a private, loopback, link-local or reserved address';
    case 'connection':
      return 'Could not connect to the receiver';
    default:
      return 'The host name could not be resolved';
  }
}
