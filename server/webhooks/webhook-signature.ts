import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * Stripe's scheme: `InboxPulse-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`.
 * The timestamp is signed with the body, so a captured request replayed later fails the receiver's
 * tolerance check; `v1` names the scheme so another can be sent beside it one day.
 */

export const SIGNATURE_HEADER = 'InboxPulse-Signature';
/** What docs/webhooks.md tells receivers to accept: a request signed at most this long ago (or ahead). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** The header value for `body` sent at `timestamp` (unix seconds). */
export function signWebhook(secret: string, body: string, timestamp: number): string {
  return `t=${timestamp},v1=${hmac(secret, timestamp, body)}`;
}

export type SignatureCheck = { valid: true } | { valid: false; reason: string };

/**
 * What a receiver does: read t and every v1 from the header, refuse a timestamp further than
 * `toleranceSeconds` from `now` (unix seconds), compare each v1 in constant time.
 */
export function verifyWebhookSignature(
  secret: string,
  body: string,
  header: string | undefined,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
  now = Math.floor(Date.now() / 1000),
): SignatureCheck {
  if (!header) return { valid: false, reason: 'no signature header' };
  const pairs = header.split(',').map((part) => part.trim().split('='));
  const timestamp = Number(pairs.find(([key]) => key === 't')?.[1]);
  const signatures = pairs.filter(([key, value]) => key === 'v1' && value).map(([, value]) => value!);
  if (!Number.isInteger(timestamp) || signatures.length === 0)
    return { valid: false, reason: 'malformed signature header' };
  if (Math.abs(now - timestamp) > toleranceSeconds) return { valid: false, reason: 'timestamp outside the tolerance' };
  const expected = Buffer.from(hmac(secret, timestamp, body), 'hex');
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { valid: true } : { valid: false, reason: 'signature does not match' };
}

function hmac(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}
