import { daysAgo, utcDay } from '@contracts/utc-day';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, TestClient, type TestApp } from '../test/test-app';

// POST /api/smtp2go/sync: a day's SMTP2GO statistics pushed by the user's own script.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const yesterday = utcDay(daysAgo(1));
const push = (client: TestClient, data: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  client.post('/api/smtp2go/sync', { provider: 'smtp2go', timestamp: `${yesterday}T23:10:00Z`, data, ...extra });

describe('POST /api/smtp2go/sync', () => {
  it("stores the day's figures, from counts or from percentages of total_sent, and a second push of the day replaces the first", async () => {
    const { client } = await signUp(t.app);
    const first = await push(client, {
      total_sent: 2000,
      delivery_rate: 97.5,
      bounce_rate: 2,
      open_rate: 31.2,
      spam_complaints: 3,
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      provider: 'smtp2go',
      date: yesterday,
      emailsSent: 2000,
      delivered: 1950,
      bounced: 40,
      complaints: 3,
      opens: 624,
      clicks: 0,
    });

    const second = await push(client, { total_sent: 2100, delivered: 2050, bounces: 50 });
    expect(second.json()).toMatchObject({ emailsSent: 2100, delivered: 2050, bounced: 50, complaints: 0, opens: 0 });
    // One row for the day, with the second push's figures: pushes replace, they do not add up.
    const metrics = (await client.get(`/api/email-metrics?date=${yesterday}`)).json();
    expect(metrics).toEqual([
      expect.objectContaining({ provider: 'smtp2go', date: yesterday, emailsSent: 2100, delivered: 2050, bounced: 50 }),
    ]);
  });

  it("changes nobody else's figures, and refuses bad input with what is wrong", async () => {
    const { client } = await signUp(t.app);
    const other = await signUp(t.app);
    expect((await push(client, { total_sent: 10, delivered: 10 })).statusCode).toBe(200);
    expect((await other.client.get('/api/email-metrics')).json()).toEqual([]);

    const wrongProvider = await push(client, { total_sent: 10 }, { provider: 'sendgrid' });
    expect(wrongProvider.statusCode).toBe(400);
    expect(wrongProvider.json().message).toMatch(/provider must be smtp2go/);
    const negative = await push(client, { total_sent: -1 });
    expect(negative.statusCode).toBe(400);
    expect(negative.json().message).toMatch(/data.total_sent must not be negative/);
    const rate = await push(client, { total_sent: 10, delivery_rate: 150 });
    expect(rate.json().message).toMatch(/percentage from 0 to 100/);
    const ahead = await client.post('/api/smtp2go/sync', {
      timestamp: new Date(Date.now() + 3 * 86_400_000).toISOString(),
      data: { total_sent: 1 },
    });
    expect(ahead.statusCode).toBe(400);
    expect(ahead.json().message).toMatch(/more than a day ahead/);
    expect(
      (await client.post('/api/smtp2go/sync', { timestamp: 'yesterday', data: { total_sent: 1 } })).json().message,
    ).toMatch(/ISO 8601/);
    // Nothing of the refused pushes was stored.
    expect((await client.get('/api/email-metrics')).json()).toEqual([
      expect.objectContaining({ emailsSent: 10, delivered: 10 }),
    ]);

    expect(
      (
        await new TestClient(t.app).post('/api/smtp2go/sync', {
          timestamp: `${yesterday}T00:00:00Z`,
          data: { total_sent: 1 },
        })
      ).statusCode,
    ).toBe(401);
  });
});
