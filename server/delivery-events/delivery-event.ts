import type { BounceClass, DeliveryEventType } from '@contracts/delivery-events';
import { normaliseIp } from '../platform/dns/ip-address';

/**
 * One outcome for one recipient of one message, as every parser turns its MTA's rows into. Pure data:
 * the mailbox provider is added later (it needs DNS), everything else comes from the row.
 */
export interface DeliveryEvent {
  messageId: string;
  /** Lower case. */
  recipient: string;
  eventType: DeliveryEventType;
  /** For bounces only: hard (permanent) or soft (temporary). */
  bounceClass: BounceClass | null;
  /** RFC 3463 enhanced status code, e.g. 5.7.1. */
  enhancedStatus: string | null;
  /** The receiving server's answer, at most SMTP_RESPONSE_MAX characters. */
  smtpResponse: string | null;
  /** The sending domain (envelope sender), lower case, when the row says it. */
  domain: string | null;
  recipientDomain: string;
  /** '' when the row does not say. */
  sendingIp: string;
  occurredAt: Date;
  /** From queueing to delivery, when the MTA says (not stored: the email.delivered webhook carries it). */
  deliveryTimeMs?: number | null;
  /** The MTA's own bounce category (PowerMTA bounceCat, KumoMTA bounce_classification), a hint for the cause. */
  category?: string | null;
}

/**
 * What became of one row of a batch: an event, the events of a row naming several recipients (KumoMTA's batched
 * records), a row read but not used, or a row that could not be read.
 */
export type RowOutcome =
  { event: DeliveryEvent } | { events: DeliveryEvent[] } | { ignored: string } | { error: string };

export const SMTP_RESPONSE_MAX = 1000;
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
export const MESSAGE_ID_MAX = 500;
/** Longer lines are refused unread: no MTA writes a delivery line this long, and no pattern runs on one. */
export const LINE_MAX = 8192;

export const ok = (event: DeliveryEvent): RowOutcome => ({ event });
export const ignored = (why: string): RowOutcome => ({ ignored: why });
export const failed = (error: string): RowOutcome => ({ error });
/**
 * A row of a type InboxPulse does not count (an open, a click, a type a newer MTA version adds): read and ignored,
 * never refused, since an MTA retries what is refused (docs/webhooks.md).
 */
export const notAnOutcome = (type: string): RowOutcome => ignored(`${type.slice(0, 40)} is not a delivery outcome`);

/** The events of a row: none, one, or one per recipient. */
export function eventsOf(row: RowOutcome): DeliveryEvent[] {
  if ('event' in row) return [row.event];
  return 'events' in row ? row.events : [];
}

/** Text of an unknown JSON value, or undefined when it is not text or a number. */
export function str(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** A plain object (a JSON record), or undefined. */
export function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

// RFC 5322 atext (with RFC 6532's UTF-8), the characters a dot-atom local part is made of: `$`, `{`, `}` and `'`
// are as valid as letters. A quoted string ("john doe") may hold any printable character, `"` and `\` escaped.
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~\\u0080-\\uffff-]";
const QUOTED = '"(?:[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e\\u0080-\\uffff]|\\\\[\\x20-\\x7e])*"';
// An address as logs write it: optional <>, optional "rfc822;" type, local@domain. The local part is RFC 5322's
// dot-atom or quoted string; the domain a host name (letters, digits, dashes, dots) or an address literal. No
// repetition can match the same text two ways, so the pattern runs in linear time on any input.
const ADDRESS = new RegExp(
  `^(?:rfc822;\\s*)?<?(${ATEXT}+(?:\\.${ATEXT}+)*|${QUOTED})@([A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\\[[0-9A-Fa-f:.]{2,45}\\])>?$`,
  'i',
);
/** RFC 5321's limit on a local part, quotes included. */
const LOCAL_PART_MAX = 64;

/**
 * `text` with each lone UTF-16 surrogate (half a character, which no real MTA writes) made U+FFFD,
 * so what is stored is what JSON answers and webhook payloads (jsonb refuses half a character) can
 * carry. Native in Node 20 (String.prototype.toWellFormed, ES2024: newer than the type library here).
 */
export const wellFormed = (text: string): string => (text as unknown as { toWellFormed(): string }).toWellFormed();

/** What an error message may quote of a row: control characters shown as "?". */
export const printable = (text: string) => text.replace(/[^\x20-\x7e\u00a0-\uffff]/g, '?');

/** Whether `text` holds a control character (NUL among them, which PostgreSQL text refuses). */
export function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 32 || c === 127) return true;
  }
  return false;
}

/** `text` as a recipient or sender address: lower case, without <> or the DSN type; null when it is none. */
export function parseAddress(text: string | undefined): { address: string; domain: string } | null {
  if (!text) return null;
  const trimmed = wellFormed(text.trim());
  if (trimmed.length > 330 || hasControl(trimmed)) return null;
  const m = ADDRESS.exec(trimmed);
  if (!m || m[1].length > LOCAL_PART_MAX) return null;
  const domain = m[2].toLowerCase().replace(/\.$/, '');
  if (!domain.includes('.') && !domain.startsWith('[')) return null;
  return { address: `${m[1]}@${domain}`.toLowerCase(), domain };
}

/** The domain of a sender address, or null (the null sender <> of bounces has none). */
export function senderDomain(text: string | undefined): string | null {
  return parseAddress(text)?.domain ?? null;
}

/** An IP address written the one way ('' for none); a port (`10.0.0.1:53210`, `[2001:db8::1]:25`) is dropped. */
export function cleanIp(text: string | undefined): string {
  if (!text) return '';
  let t = text.trim();
  if (t.length > 64) return '';
  const bracketed = /^\[([0-9A-Fa-f:.]+)\](?::\d{1,5})?$/.exec(t);
  if (bracketed) t = bracketed[1];
  else if (/^[\d.]+:\d{1,5}$/.test(t)) t = t.slice(0, t.lastIndexOf(':'));
  return normaliseIp(t) ?? '';
}

// "550 5.1.1 <bob@example.com>: ..." or "421-4.7.0 ...": a reply code, then its enhanced code.
const CODE_THEN_ENHANCED = /(?:^|[\s(:;])([245]\d\d)[ -]([245]\.\d{1,3}\.\d{1,3})(?!\d|\.\d)/;
// An enhanced code alone; not a piece of an address or version ("192.0.2.1", "4.16.55.1").
const ENHANCED_ALONE = /(?<![\d.])([245]\.\d{1,3}\.\d{1,3})(?!\d|\.\d)/;
// A reply code: after "said:", at the start, or after "smtp;" (a DSN's Diagnostic-Code).
const REPLY_CODE = /(?:^|said:\s*|smtp;\s*|\(\s*)([245]\d\d)(?=[\s-]|$)/i;

/** The SMTP reply code and RFC 3463 enhanced status code a server's answer carries, as far as it says. */
export function parseSmtpResponse(response: string | null | undefined): {
  code: number | null;
  enhanced: string | null;
} {
  if (!response) return { code: null, enhanced: null };
  const text = response.length > LINE_MAX ? response.slice(0, LINE_MAX) : response;
  const both = CODE_THEN_ENHANCED.exec(text);
  if (both) return { code: Number(both[1]), enhanced: both[2] };
  const code = REPLY_CODE.exec(text);
  const enhanced = ENHANCED_ALONE.exec(text);
  return { code: code ? Number(code[1]) : null, enhanced: enhanced ? enhanced[1] : null };
}

/** Hard for a permanent (5) class, soft for a temporary (4) one, by the enhanced code first; null when neither says. */
export function bounceClassOf(enhanced: string | null, code: number | null): BounceClass | null {
  const klass = enhanced?.[0] ?? (code !== null ? String(code)[0] : undefined);
  if (klass === '5') return 'hard';
  if (klass === '4') return 'soft';
  return null;
}

/** `text` cut to SMTP_RESPONSE_MAX characters with white space runs folded; null for nothing. */
export function boundResponse(text: string | null | undefined): string | null {
  if (!text) return null;
  // Control characters (NUL among them, which PostgreSQL text refuses) go; white space runs fold.
  const folded = wellFormed(text.length > SMTP_RESPONSE_MAX * 4 ? text.slice(0, SMTP_RESPONSE_MAX * 4) : text)
    .replace(CONTROL, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!folded) return null;
  return folded.length > SMTP_RESPONSE_MAX ? `${folded.slice(0, SMTP_RESPONSE_MAX - 1)}…` : folded;
}

const EARLIEST = Date.UTC(2000, 0, 1);
/** Events dated further ahead than this are refused: a clock that far off says the row is wrong. */
const FUTURE_SLACK_MS = 24 * 3600 * 1000;

/**
 * A time as the MTAs write it: Unix seconds (or milliseconds, or fractional seconds) as a number or
 * digits, ISO 8601, PowerMTA's `2024-01-15 10:23:45-0500`, RFC 2822. Null when it cannot be read or
 * is before 2000 or more than a day ahead.
 */
export function parseTime(value: unknown, now = Date.now()): Date | null {
  let ms: number;
  if (typeof value === 'number') ms = value > 1e12 ? value : value * 1000;
  else if (typeof value === 'string') {
    const t = value.trim();
    if (t.length === 0 || t.length > 64) return null;
    // ISO 8601 in UTC, what most MTAs write (and Postfix's RFC 3339 lines): no other form below ends in Z.
    if (t.endsWith('Z')) ms = Date.parse(t);
    else if (/^\d{9,10}(\.\d{1,9})?$/.test(t)) ms = Number(t) * 1000;
    else if (/^\d{13}$/.test(t)) ms = Number(t);
    else {
      // PowerMTA: "2024-01-15 10:23:45-0500" (space, offset without colon): make it ISO 8601.
      const pmta = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?)\s*([+-]\d{2}):?(\d{2})$/.exec(t);
      // A date and time without a zone is UTC, as the MTAs that write it say (Date.parse would take local time).
      const zoneless = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?$/.test(t);
      ms = pmta
        ? Date.parse(`${pmta[1]}T${pmta[2]}${pmta[3]}:${pmta[4]}`)
        : Date.parse(zoneless ? `${t.replace(' ', 'T')}Z` : t);
    }
  } else return null;
  if (!Number.isFinite(ms) || ms < EARLIEST || ms > now + FUTURE_SLACK_MS) return null;
  return new Date(ms);
}

export interface EventFields {
  messageId: string | undefined;
  recipient: string | undefined;
  eventType: DeliveryEventType;
  response?: string | null;
  /** When the row gives the codes apart from the text. */
  code?: number | null;
  enhanced?: string | null;
  /** When the MTA classifies the bounce itself. */
  bounceClass?: BounceClass | null;
  sender?: string | null;
  sendingIp?: string;
  time: unknown;
  now?: number;
  deliveryTimeMs?: number | null;
  category?: string | null;
}

/**
 * The one way a parser makes its event: checks what every event needs (a message id, a recipient
 * address, a time) and fills in what the response says (codes, hard or soft). A row missing one of
 * them is an error naming it.
 */
export function makeEvent(f: EventFields): RowOutcome {
  const messageId = f.messageId === undefined ? undefined : wellFormed(f.messageId.trim());
  if (!messageId) return failed('No message id');
  if (messageId.length > MESSAGE_ID_MAX) return failed(`Message id longer than ${MESSAGE_ID_MAX} characters`);
  if (hasControl(messageId)) return failed('Message id holds control characters');
  const recipient = parseAddress(f.recipient);
  if (!recipient)
    return failed(
      f.recipient ? `Recipient is not an e-mail address: ${printable(f.recipient.slice(0, 80))}` : 'No recipient',
    );
  const occurredAt = parseTime(f.time, f.now);
  if (!occurredAt)
    return failed(
      f.time === undefined || f.time === null || f.time === ''
        ? 'No time'
        : `Time cannot be read: ${printable(String(f.time).slice(0, 40))}`,
    );
  const response = boundResponse(f.response);
  const parsed = parseSmtpResponse(response);
  const enhanced = validEnhanced(f.enhanced) ?? parsed.enhanced;
  const code = f.code ?? parsed.code;
  const bounceClass = f.eventType === 'bounced' ? (f.bounceClass ?? bounceClassOf(enhanced, code) ?? 'hard') : null;
  return ok({
    messageId,
    recipient: recipient.address,
    eventType: f.eventType,
    bounceClass,
    enhancedStatus: enhanced,
    smtpResponse: response,
    domain: senderDomain(f.sender ?? undefined),
    recipientDomain: recipient.domain,
    sendingIp: cleanIp(f.sendingIp),
    occurredAt,
    deliveryTimeMs: f.deliveryTimeMs ?? null,
    category: f.category ?? null,
  });
}

function validEnhanced(value: string | null | undefined): string | null {
  if (!value) return null;
  const m = /^\s*([245]\.\d{1,3}\.\d{1,3})\b/.exec(value);
  return m ? m[1] : null;
}
