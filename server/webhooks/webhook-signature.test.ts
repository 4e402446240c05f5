import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhookSignature } from './webhook-signature';

const SECRET = 'whsec_test-secret';
const BODY = '{"id":"evt_1","type":"webhook.test","created":1764100000,"data":{}}';

describe('webhook signatures', () => {
  it('signs "<t>.<raw body>" with HMAC-SHA256 in hex, as Stripe does', () => {
    const expected = createHmac('sha256', SECRET).update(`1764100000.${BODY}`).digest('hex');
    expect(signWebhook(SECRET, BODY, 1764100000)).toBe(`t=1764100000,v1=${expected}`);
  });

  it('accepts a fresh signature and refuses a stale, altered, foreign or malformed one', () => {
    const header = signWebhook(SECRET, BODY, 1764100000);
    expect(verifyWebhookSignature(SECRET, BODY, header, 300, 1764100000 + 300)).toEqual({ valid: true });
    expect(verifyWebhookSignature(SECRET, BODY, header, 300, 1764100000 + 301)).toEqual({
      valid: false,
      reason: 'timestamp outside the tolerance',
    });
    expect(verifyWebhookSignature(SECRET, BODY, header, 300, 1764100000 - 301).valid).toBe(false);
    expect(verifyWebhookSignature(SECRET, BODY.replace('{}', '{"x":1}'), header, 300, 1764100000)).toEqual({
      valid: false,
      reason: 'signature does not match',
    });
    expect(verifyWebhookSignature('whsec_other', BODY, header, 300, 1764100000).valid).toBe(false);
    // The timestamp is signed too: moving it forward to pass the tolerance breaks the signature.
    expect(
      verifyWebhookSignature(SECRET, BODY, header.replace('t=1764100000', 't=1764109999'), 300, 1764109999).valid,
    ).toBe(false);
    expect(verifyWebhookSignature(SECRET, BODY, undefined, 300, 1764100000)).toEqual({
      valid: false,
      reason: 'no signature header',
    });
    expect(verifyWebhookSignature(SECRET, BODY, 'v1=abcd', 300, 1764100000)).toEqual({
      valid: false,
      reason: 'malformed signature header',
    });
    expect(verifyWebhookSignature(SECRET, BODY, 't=1764100000,v1=zz', 300, 1764100000).valid).toBe(false);
  });

  it('accepts any of several v1 signatures (a secret being rolled)', () => {
    const good = signWebhook(SECRET, BODY, 1764100000).split(',')[1];
    expect(
      verifyWebhookSignature(SECRET, BODY, `t=1764100000,v1=${'0'.repeat(64)},${good}`, 300, 1764100000).valid,
    ).toBe(true);
  });
});
