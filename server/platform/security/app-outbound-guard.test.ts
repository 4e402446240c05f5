import { describe, expect, it } from 'vitest';
import { loadEnv } from '../env';

const BASE = { APP_SECRET: 'test-secret-test-secret-test-secret-0123', DATA_DIR: '/nonexistent-inboxpulse' };

describe('the outbound allowlist for tests', () => {
  it('is refused outside tests, so no deployment can open private addresses to user-given URLs', () => {
    expect(() => loadEnv({ ...BASE, NODE_ENV: 'production', OUTBOUND_ALLOW_ADDRESSES: '127.0.0.2' })).toThrow(
      /OUTBOUND_ALLOW_ADDRESSES, OUTBOUND_CA_FILE: for tests only/,
    );
    expect(() => loadEnv({ ...BASE, OUTBOUND_CA_FILE: '/tmp/ca.pem' })).toThrow(/for tests only/);
    expect(loadEnv({ ...BASE, NODE_ENV: 'production' }).OUTBOUND_ALLOW_ADDRESSES).toEqual([]);
  });

  it('takes IP addresses only, in tests', () => {
    expect(
      loadEnv({ ...BASE, NODE_ENV: 'test', OUTBOUND_ALLOW_ADDRESSES: '127.0.0.2, ::1' }).OUTBOUND_ALLOW_ADDRESSES,
    ).toEqual(['127.0.0.2', '::1']);
    expect(() => loadEnv({ ...BASE, NODE_ENV: 'test', OUTBOUND_ALLOW_ADDRESSES: 'localhost' })).toThrow(
      /"localhost" is not an IP address/,
    );
  });

  it('reads the webhook and Twilio settings with their defaults', () => {
    expect(loadEnv({ ...BASE })).toMatchObject({
      WEBHOOK_RETRY_SECONDS: 30,
      WEBHOOK_TIMEOUT_MS: 10_000,
      TWILIO_BASE_URL: 'https://api.twilio.com',
    });
    expect(loadEnv({ ...BASE, TWILIO_BASE_URL: 'http://127.0.0.1:8080/' }).TWILIO_BASE_URL).toBe(
      'http://127.0.0.1:8080',
    );
  });
});
