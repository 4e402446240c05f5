import {
  DELIVERY_BATCH_MAX,
  type EventSource,
  type IngestAnswer,
  type MtaSource,
  type RejectedRow,
} from '@contracts/delivery-events';
import type { WebhookEvent } from '@contracts/webhooks';
import { queueAlertEvaluation } from '../alerts/alerts.service';
import type { AppContext } from '../platform/context';
import type { Executor } from '../platform/db/client';
import { AppError } from '../platform/errors';
import { hasWebhookFor, queueWebhookDeliveries, recordWebhookEvents } from '../webhooks/webhooks.service';
import { bounceCause } from './bounce-causes';
import { eventsOf, type DeliveryEvent, type RowOutcome } from './delivery-event';
import {
  deleteUserEvents,
  setDailyTotals,
  storeNewEvents,
  type DayFigures,
  type NewEvent,
} from './delivery-events.repo';
import { lookupMailboxProviders } from '../engine/mailbox-providers/mailbox-provider';
import { BatchError } from './parsers/batch-error';
import { parseGreenArrowRecords } from './parsers/greenarrow';
import { parseHalonRecords } from './parsers/halon';
import { countLines, jsonRecords, splitLines, type JsonRecord } from './parsers/json-records';
import { parseKumoRecords } from './parsers/kumo';
import { parsePostalRecords } from './parsers/postal';
import { parsePostfixLines } from './parsers/postfix';
import { parsePowerMtaCsv } from './parsers/powermta';
import { parseSmtp2goRecords } from './parsers/smtp2go';

// A source's own figures (an ESP plugin's sync, its uninstall, its line in the integrations list) go through here.
export { deletePluginFigures, listSourceFigures, replacePluginFigures } from './source-figures.repo';
export type { DayFigures } from './delivery-events.repo';
// What one source has brought: its counts since a day, and its latest event (the feedback loops' status).
export { countEvents, lastEventAt } from './delivery-events.repo';

export type IngestContext = Pick<AppContext, 'db' | 'dns' | 'jobs' | 'log'>;

/** A batch with more rows than a request may carry: 413 before anything is parsed. */
export function checkBatchSize(rows: number): void {
  if (rows > DELIVERY_BATCH_MAX) {
    throw new AppError(
      'payload_too_large',
      `A batch holds at most ${DELIVERY_BATCH_MAX.toLocaleString('en-US')} events; this one has ${rows.toLocaleString('en-US')}. Send the rest in another request.`,
    );
  }
}

function records(body: unknown): JsonRecord[] {
  const found = jsonRecords(body);
  checkBatchSize(found.length);
  return found;
}

/** Postfix lines from text, or from JSON: a list of lines or of {log_entry} objects (what /api/postfix/events takes, in bulk). */
function postfixLines(body: unknown): string[] {
  if (typeof body === 'string') {
    checkBatchSize(countLines(body));
    return splitLines(body);
  }
  const items = Array.isArray(body) ? body : [body];
  checkBatchSize(items.length);
  return items.map((item) => {
    if (typeof item === 'string') return item;
    const entry = item !== null && typeof item === 'object' ? (item as Record<string, unknown>).log_entry : undefined;
    return typeof entry === 'string' ? entry : '';
  });
}

/**
 * Each MTA's native batch turned into one outcome per row. Parsing runs here, on the request's
 * event loop: 1,000 rows of any format parse in a few milliseconds (measured in the parser tests'
 * timing test and `npm run bench:events`), far below what would need a worker thread.
 */
export function parseBatch(source: MtaSource, body: unknown, now = Date.now()): RowOutcome[] {
  try {
    switch (source) {
      case 'postfix':
        return parsePostfixLines(postfixLines(body), now);
      case 'powermta': {
        if (typeof body !== 'string')
          throw new BatchError(
            'Send the accounting CSV as text (Content-Type: text/csv or text/plain), header line first',
          );
        // The header line is not a row.
        checkBatchSize(countLines(body) - 1);
        const rows = parsePowerMtaCsv(body, now);
        checkBatchSize(rows.length);
        return rows;
      }
      case 'kumo':
        return parseKumoRecords(records(body), now);
      case 'postal':
        return parsePostalRecords(records(body), now);
      case 'halon':
        return parseHalonRecords(records(body), now);
      case 'greenarrow':
        return parseGreenArrowRecords(records(body), now);
      case 'smtp2go':
        return parseSmtp2goRecords(records(body), now);
    }
  } catch (err) {
    if (err instanceof BatchError) throw new AppError('validation_error', err.message);
    throw err;
  }
}

/** The delivery events a batch holds (a row may name several recipients): what storing it would count against the plan's e-mails a month. */
export const eventRowCount = (rows: readonly RowOutcome[]) => rows.reduce((n, row) => n + eventsOf(row).length, 0);

const keyOf = (e: Pick<DeliveryEvent, 'messageId' | 'recipient' | 'eventType'>) =>
  `${e.eventType}\u0000${e.recipient}\u0000${e.messageId}`;

/** "row 0: No recipient; row 3: Not valid JSON; and 12 more" */
function rejectedInWords(rejected: RejectedRow[]): string {
  const shown = rejected.slice(0, 5).map((r) => `row ${r.index}: ${r.message}`);
  if (rejected.length > 5) shown.push(`and ${rejected.length - 5} more`);
  return shown.join('; ');
}

const WEBHOOK_OF: Partial<Record<DeliveryEvent['eventType'], WebhookEvent>> = {
  delivered: 'email.delivered',
  bounced: 'email.bounced',
  complaint: 'email.spam_report',
};

/** The data of the outgoing webhook event for a stored event (part 2, section 3), with what else InboxPulse knows of it. */
export function webhookData(source: EventSource, e: NewEvent & DeliveryEvent): unknown {
  const at = e.occurredAt.toISOString();
  const common = { email_id: e.messageId, recipient: e.recipient, domain: e.domain };
  if (e.eventType === 'delivered') {
    return {
      ...common,
      provider: source,
      delivered_at: at,
      delivery_time_ms: e.deliveryTimeMs ?? null,
      mailbox_provider: e.mailboxProvider,
      sending_ip: e.sendingIp || null,
      smtp_response: e.smtpResponse,
    };
  }
  if (e.eventType === 'bounced') {
    return {
      ...common,
      bounce_type: e.bounceClass,
      bounce_reason: e.smtpResponse,
      bounced_at: at,
      enhanced_status: e.enhancedStatus,
      bounce_cause: bounceCause(e),
      provider: source,
      mailbox_provider: e.mailboxProvider,
      sending_ip: e.sendingIp || null,
    };
  }
  return { ...common, reported_at: at, feedback_loop: e.mailboxProvider, provider: source };
}

const EMAIL_WEBHOOKS = Object.values(WEBHOOK_OF);

/** One delivery per subscribed webhook for each new delivered, bounced and complaint event, in the batch's transaction. */
async function recordEmailWebhooks(
  tx: Executor,
  userId: number,
  source: EventSource,
  events: readonly (NewEvent & DeliveryEvent)[],
): Promise<number[]> {
  const ids: number[] = [];
  for (const [eventType, webhook] of Object.entries(WEBHOOK_OF) as [DeliveryEvent['eventType'], WebhookEvent][]) {
    const ofType = events.filter((e) => e.eventType === eventType);
    if (ofType.length === 0) continue;
    ids.push(
      ...(await recordWebhookEvents(
        tx,
        userId,
        webhook,
        ofType.map((e) => webhookData(source, e)),
      )),
    );
  }
  return ids;
}

/**
 * Stores the events and, when the user has a webhook for e-mail events, records one delivery per new
 * event in the same transaction. Without such a webhook the batch is one statement, atomic by
 * itself, and no event travels back from the database (the common case, and the fast one).
 */
async function storeBatch(
  db: IngestContext['db'],
  userId: number,
  source: EventSource,
  events: (NewEvent & DeliveryEvent)[],
) {
  if (!(await hasWebhookFor(db, userId, EMAIL_WEBHOOKS))) {
    const { count } = await storeNewEvents(db, userId, source, events, { returnKeys: false });
    return { stored: count, deliveries: [] };
  }
  return db.transaction(async (tx) => {
    const { keys } = await storeNewEvents(tx, userId, source, events, { returnKeys: true });
    const byKey = new Map(events.map((e) => [keyOf(e), e]));
    const fresh = keys.map((k) => byKey.get(keyOf(k))).filter((e) => e !== undefined);
    return { stored: keys.length, deliveries: await recordEmailWebhooks(tx, userId, source, fresh) };
  });
}

/**
 * Stores a batch's events for the user and adds the new ones to email_metrics, at once:
 * an event stored before (a retried batch, a line shipped twice) adds nothing. The rows that could
 * not be read are answered by index and the rest are kept; a batch with nothing readable is a 400.
 * After the commit, the webhook deliveries and an alert evaluation are queued.
 */
export async function ingestEvents(
  ctx: IngestContext,
  userId: number,
  source: EventSource,
  rows: readonly RowOutcome[],
): Promise<IngestAnswer> {
  const rejected: RejectedRow[] = [];
  let ignored = 0;
  let duplicates = 0;
  const unique = new Map<string, DeliveryEvent>();
  rows.forEach((row, index) => {
    if ('error' in row) rejected.push({ index, message: row.error });
    else if ('ignored' in row) ignored++;
    else {
      for (const event of eventsOf(row)) {
        const key = keyOf(event);
        if (unique.has(key)) duplicates++;
        else unique.set(key, event);
      }
    }
  });
  if (rows.length === 0) throw new AppError('validation_error', 'The batch has no rows');
  if (unique.size === 0 && duplicates === 0 && ignored === 0)
    throw new AppError('validation_error', `No row of the batch could be read: ${rejectedInWords(rejected)}`);

  const providers = await lookupMailboxProviders(
    ctx.dns,
    [...unique.values()].map((e) => e.recipientDomain),
  );
  // Key order: two batches of one user lock the same unique-index entries in the same order.
  const events = [...unique.keys()].sort().map((key) => {
    const e = unique.get(key)!;
    return { ...e, mailboxProvider: providers.get(e.recipientDomain) ?? 'other' };
  });

  const { stored, deliveries } = await storeBatch(ctx.db, userId, source, events);
  await queueWebhookDeliveries(ctx.jobs, deliveries);
  if (stored > 0) await queueAlertEvaluation(ctx.jobs, userId);
  return { accepted: stored, duplicates: duplicates + (events.length - stored), ignored, rejected };
}

/** Account deletion, inside its transaction: the user's delivery events (they do not cascade from users). */
export async function deleteUserDeliveryEvents(tx: Executor, userId: number): Promise<void> {
  await deleteUserEvents(tx, userId);
}

/**
 * POST /api/v1/metrics: a day's totals of a source without events, written over what that day had.
 * New figures: the bounce, complaint and delivery conditions and the timeline's drops are judged
 * again now, not at the next hourly evaluation.
 */
export async function setDayTotals(
  ctx: AppContext,
  userId: number,
  provider: string,
  date: string,
  totals: DayFigures,
) {
  const row = await setDailyTotals(ctx.db, userId, provider, date, totals);
  await queueAlertEvaluation(ctx.jobs, userId);
  return row;
}
