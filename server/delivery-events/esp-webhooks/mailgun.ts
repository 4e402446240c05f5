import { createHmac, timingSafeEqual } from 'node:crypto';
import { ignored, makeEvent, record, str, type RowOutcome } from '../delivery-event';

/*
 * Mailgun's webhooks (https://documentation.mailgun.com/docs/mailgun/user-manual/webhooks/securing-webhooks): one
 * event a POST, `{ signature: { timestamp, token, signature }, "event-data": {...} }`, the signature being the
 * hex HMAC-SHA256 of timestamp + token under the account's HTTP webhook signing key.
 */

/** How old a post's timestamp may be: Mailgun's own advice against replays, and the window its tokens are kept. */
export const MAILGUN_MAX_AGE_SECONDS = 10 * 60;

export interface MailgunSignature {
  timestamp: string;
  token: string;
  signature: string;
}

export function mailgunSignatureOf(body: Record<string, unknown>): MailgunSignature | null {
  const s = record(body.signature);
  const timestamp = str(s?.timestamp);
  const token = str(s?.token);
  const signature = str(s?.signature);
  if (!timestamp || !token || !signature || token.length > 200 || signature.length > 200) return null;
  return { timestamp, token, signature };
}

/** Why the signature is refused, or null when it is Mailgun's and fresh (the token's first use is checked apart). */
export function mailgunSignatureProblem(key: string, s: MailgunSignature, now = Date.now()): string | null {
  const expected = createHmac('sha256', key)
    .update(s.timestamp + s.token)
    .digest();
  const given = Buffer.from(s.signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return 'Invalid Mailgun signature: check the HTTP webhook signing key saved in InboxPulse against the one in Mailgun (Sending, Webhooks)';
  const age = Math.abs(now / 1000 - Number(s.timestamp));
  if (!Number.isFinite(age) || age > MAILGUN_MAX_AGE_SECONDS)
    return 'Mailgun post refused: its timestamp is more than 10 minutes from now (a replayed post, or a clock far off)';
  return null;
}

const SUPPRESSED = /^suppress-/;

/** The outcome of the post's event. */
export function mailgunRow(body: Record<string, unknown>): RowOutcome {
  const data = record(body['event-data']);
  if (!data) return ignored('no event-data');
  const type = str(data.event) ?? '';
  const status = record(data['delivery-status']);
  const envelope = record(data.envelope);
  const base = {
    messageId: str(record(record(data.message)?.headers)?.['message-id']),
    recipient: str(data.recipient),
    time: data.timestamp,
    sender: str(envelope?.sender),
    sendingIp: str(envelope?.['sending-ip']),
    response: str(status?.message) || str(status?.description),
    code: typeof status?.code === 'number' ? status.code : null,
  };
  switch (type) {
    case 'delivered':
      return makeEvent({ ...base, eventType: 'delivered' });
    case 'failed': {
      if (str(data.severity) === 'temporary') return makeEvent({ ...base, eventType: 'deferred' });
      const reason = str(data.reason) ?? '';
      // A suppressed address is never tried: no mailbox provider saw the message.
      if (SUPPRESSED.test(reason))
        return makeEvent({ ...base, eventType: 'dropped', response: base.response || reason });
      return makeEvent({ ...base, eventType: 'bounced', category: reason || null });
    }
    case 'complained':
      return makeEvent({ ...base, eventType: 'complaint', sendingIp: undefined, response: null, code: null });
    case 'rejected':
      // Refused by Mailgun itself: never sent.
      return makeEvent({ ...base, eventType: 'dropped', response: str(record(data.reject)?.reason) ?? base.response });
    default:
      return ignored(`${type.slice(0, 40) || 'an event without a type'} is not a delivery outcome`);
  }
}
