import type { BounceClass, DeliveryEventType } from '@contracts/delivery-events';
import { ApiEventBody, EmailMetricEventBody } from '@contracts/delivery-events';
import { cleanIp, failed, makeEvent, type RowOutcome } from '../delivery-event';

/*
 * Events in InboxPulse's own documented shapes: POST /api/events and /api/v1/events ({type,
 * message_id, recipient, status, timestamp, sender_ip, blacklist_count}) and POST /api/email-metrics
 * ({eventType, messageId, recipient, timestamp, domain, ipAddress}). The type may be said the way
 * scripts say it: delivery, sent, bounce, failed, deferral, delayed, spam, spam_report.
 */

const TYPE_WORDS: Record<string, DeliveryEventType> = {
  delivered: 'delivered',
  delivery: 'delivered',
  sent: 'delivered',
  bounced: 'bounced',
  bounce: 'bounced',
  failed: 'bounced',
  deferred: 'deferred',
  deferral: 'deferred',
  delayed: 'deferred',
  complaint: 'complaint',
  spam: 'complaint',
  spam_report: 'complaint',
};

interface Common {
  type: string;
  messageId: string;
  recipient: string;
  response?: string;
  time?: string | number;
  ip?: string;
  domain?: string;
  bounceClass?: BounceClass;
}

/** The sending domain given as a domain or as an address. */
const asSender = (domain: string | undefined) =>
  domain ? (domain.includes('@') ? domain : `postmaster@${domain}`) : null;

function toEvent(c: Common, now: number): RowOutcome {
  if (c.ip && !cleanIp(c.ip)) return failed(`${c.ip.slice(0, 64)} is not an IP address`);
  return makeEvent({
    messageId: c.messageId,
    recipient: c.recipient,
    eventType: TYPE_WORDS[c.type],
    // "sent" or "delivered" as the status says nothing a server answered.
    response: c.response && !/^(sent|delivered|ok)$/i.test(c.response.trim()) ? c.response : null,
    bounceClass: c.bounceClass ?? null,
    sender: asSender(c.domain),
    sendingIp: c.ip,
    // A live event without a time happened now.
    time: c.time ?? now,
    now,
  });
}

/** One event of POST /api/events or /api/v1/events; an event that breaks the contract is its row's error. */
export function parseApiEvent(value: unknown, now = Date.now()): RowOutcome {
  const parsed = ApiEventBody.safeParse(value);
  if (!parsed.success) return failed(parsed.error.issues[0]?.message ?? 'Not an event');
  const e = parsed.data;
  return toEvent(
    {
      type: e.type,
      messageId: e.message_id,
      recipient: e.recipient,
      response: e.status,
      time: e.timestamp,
      ip: e.sender_ip,
      domain: e.domain,
      bounceClass: e.bounce_type,
    },
    now,
  );
}

/** POST /api/email-metrics: the documentation's delivery event. */
export function parseEmailMetricEvent(value: unknown, now = Date.now()): RowOutcome {
  const parsed = EmailMetricEventBody.safeParse(value);
  if (!parsed.success) return failed(parsed.error.issues[0]?.message ?? 'Not an event');
  const e = parsed.data;
  return toEvent(
    {
      type: e.eventType,
      messageId: e.messageId,
      recipient: e.recipient,
      response: e.smtpResponse,
      time: e.timestamp,
      ip: e.ipAddress,
      domain: e.domain,
      bounceClass: e.bounceType,
    },
    now,
  );
}
