import { failed, ignored, LINE_MAX, makeEvent, type RowOutcome } from '../delivery-event';

/*
 * Postfix log lines (postfix/smtp and postfix/lmtp delivery results), as syslog, rsyslog's RFC 3339
 * format, journalctl -o short-iso or Postfix's own maillog_file write them:
 *
 *   Jan 15 10:23:45 mx1 postfix/smtp[12345]: 3F1A2B4C5D: to=<ann@gmail.com>,
 * relay=gmail-smtp-in.l.google.com[142.250.102.27]:25,     delay=1.2, delays=0.1/0.01/0.5/0.59, dsn=2.0.0, status=sent
 * (250 2.0.0 OK ... - gsmtp)
 *
 * The queue manager's `from=<...>` line of the same queue id, when the batch has it, gives the
 * sending domain. The event's message id is the queue id: it is on every line of the message, so a
 * line sent again in another batch is the same event (the Message-ID header is on the cleanup line only).
 */

// "Jan 15 10:23:45" (the local time of the server, year left out) or RFC 3339 "2024-01-15T10:23:45.123456+00:00".
const SYSLOG_HEAD = /^([A-Z][a-z]{2} {1,2}\d{1,2} \d{2}:\d{2}:\d{2}) (\S{1,255}) ([^\s[]{1,100})\[\d{1,10}\]: /;
const ISO_HEAD =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?) (\S{1,255}) ([^\s[]{1,100})\[\d{1,10}\]: /;
const QUEUE_ID = /^([0-9A-Za-z]{5,20}): /;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** The delivery agents whose status lines are deliveries to other servers. */
const DELIVERY_AGENTS = new Set(['smtp', 'lmtp']);

interface Line {
  time: string | Date;
  program: string;
  queueId: string | null;
  text: string;
}

/** A syslog-style line's parts; null when the line is not one. */
function readLine(line: string, now: number): Line | null {
  let m = ISO_HEAD.exec(line);
  let time: string | Date;
  if (m) time = m[1];
  else {
    m = SYSLOG_HEAD.exec(line);
    if (!m) return null;
    time = syslogTime(m[1], now);
  }
  const rest = line.slice(m[0].length);
  const q = QUEUE_ID.exec(rest);
  return { time, program: m[3], queueId: q ? q[1] : null, text: q ? rest.slice(q[0].length) : rest };
}

/**
 * "Jan 15 10:23:45" in UTC (syslog does not say the zone: send RFC 3339 times to keep it), in the
 * current year, or the last one when that would put it more than a day ahead (a December line read in January).
 */
function syslogTime(text: string, now: number): Date {
  const [month, day, clock] = text.split(/ +/);
  const [h, mi, s] = clock.split(':').map(Number);
  const year = new Date(now).getUTCFullYear();
  const at = (y: number) => Date.UTC(y, MONTHS.indexOf(month), Number(day), h, mi, s);
  const ms = at(year) > now + 24 * 3600 * 1000 ? at(year - 1) : at(year);
  return new Date(ms);
}

/** The value of `key` in a line's `key=value, key=value` head (the last one when a key is there twice). */
function field(head: string, key: string): string | undefined {
  const marker = `, ${key}=`;
  const at = head.lastIndexOf(marker);
  const start = at >= 0 ? at + marker.length : head.startsWith(`${key}=`) ? key.length + 1 : -1;
  if (start < 0) return undefined;
  const end = head.indexOf(', ', start);
  return end < 0 ? head.slice(start) : head.slice(start, end);
}

/**
 * `to=<...>, relay=..., delay=..., dsn=..., status=word (response)` of a delivery line; null when it
 * is not one. Only the fields an event needs are read: this runs for every line of every batch.
 */
function deliveryFields(
  text: string,
): { to?: string; dsn?: string; delay?: string; status: string; response: string } | null {
  const at = text.indexOf(', status=');
  if (!text.startsWith('to=<') || at < 0) return null;
  const head = text.slice(0, at);
  const tail = text.slice(at + ', status='.length);
  const space = tail.indexOf(' ');
  const status = space < 0 ? tail : tail.slice(0, space);
  let response = space < 0 ? '' : tail.slice(space + 1).trim();
  if (response.startsWith('(') && response.endsWith(')')) response = response.slice(1, -1);
  return { to: field(head, 'to'), dsn: field(head, 'dsn'), delay: field(head, 'delay'), status, response };
}

const unbracket = (value: string | undefined) => value?.replace(/^<(.*)>$/, '$1');

/** Postfix log lines, one outcome per line. Lines of other programs and other Postfix lines are read and ignored. */
export function parsePostfixLines(lines: readonly string[], now = Date.now()): RowOutcome[] {
  const parsed = lines.map((line) => (line.length > LINE_MAX ? null : readLine(line, now)));
  // Context first: the sender of each queue id (qmgr's from= line may come anywhere in the batch).
  const senders = new Map<string, string>();
  for (const line of parsed) {
    if (!line?.queueId || !line.program.endsWith('/qmgr') || !line.text.startsWith('from=<')) continue;
    const end = line.text.indexOf('>');
    if (end > 0) senders.set(line.queueId, line.text.slice('from=<'.length, end));
  }
  return parsed.map((line, index) => {
    if (!line)
      return failed(
        lines[index].length > LINE_MAX ? `Line longer than ${LINE_MAX} characters` : 'Not a syslog line of a mail log',
      );
    if (!/(^|\/)postfix[^/]*\//.test(line.program) && !line.program.startsWith('postfix'))
      return ignored('Not a Postfix line');
    const agent = line.program.slice(line.program.lastIndexOf('/') + 1);
    const delivery = line.queueId ? deliveryFields(line.text) : null;
    if (!delivery) return ignored('Not a delivery line');
    if (!DELIVERY_AGENTS.has(agent)) return ignored(`Local delivery (${agent}), not sending`);
    const eventType =
      delivery.status === 'sent'
        ? 'delivered'
        : delivery.status === 'bounced'
          ? 'bounced'
          : delivery.status === 'deferred'
            ? 'deferred'
            : null;
    if (!eventType) return ignored(`Status ${delivery.status.slice(0, 20)} is not a delivery outcome`);
    const delay = Number(delivery.delay);
    return makeEvent({
      messageId: line.queueId!,
      recipient: unbracket(delivery.to),
      eventType,
      response: delivery.response,
      enhanced: delivery.dsn,
      sender: line.queueId ? senders.get(line.queueId) : null,
      time: line.time instanceof Date ? line.time.getTime() : line.time,
      now,
      deliveryTimeMs: Number.isFinite(delay) ? Math.round(delay * 1000) : null,
    });
  });
}
