import { nextMonthStart, utcDay } from '@contracts/utc-day';
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHECK_ANSWER, mtaGuide } from '@content/docs/mta-integration';
import { UsageResponse } from '@contracts/plans';
import { syncIntegration } from '../integrations/integration-sync';
import type { TruthDay } from '../integrations/providers/test/fake-providers';
import { KEY, startIntegrationsHarness, type IntegrationsHarness } from '../integrations/test/integrations-harness';
import { signUp, type TestClient } from '../test/test-app';

// The Free plan's e-mails a month (ADR 043) as a sender meets it: a SendGrid history imported by the
// plugin's sync, then their Postfix posting through the Postfix guide's endpoint. The SendGrid
// stand-in answers GET /v3/stats as SendGrid's API reference documents it (fake-providers.ts).

const run = promisify(execFile);
const today = () => utcDay();
const postfix = mtaGuide('postfix');

let h: IntegrationsHarness;
let baseUrl = '';
beforeAll(async () => {
  h = await startIntegrationsHarness([]);
  await h.t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(h.t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => h?.close());
beforeEach(() => h.reset());

/** A Free sender whose SendGrid plugin synced `sent` e-mails today, with a webhook token for their Postfix. */
async function freeSenderWithSendGrid(
  sent: number,
): Promise<{ client: TestClient; token: string; integrationId: number }> {
  const day: TruthDay = { date: today(), sent, hard: 0, soft: 0, complaints: 0, opens: 0, clicks: 0 };
  h.fakes.get('sendgrid')!.days = [day];
  const { client } = await signUp(h.t.app);
  const installed = await client.post('/api/integrations', { pluginId: 'sendgrid', config: { apiKey: KEY } });
  expect(installed.statusCode, installed.body).toBe(201);
  const integrationId = installed.json().id as number;
  expect(await syncIntegration(h.ctx, integrationId)).toMatchObject({ status: 'synced' });
  const token = (await client.post('/api/webhook-tokens/generate')).json().token as string;
  return { client, token, integrationId };
}

const postPostfix = (token: string, body: string) =>
  h.t.app.inject({
    method: 'POST',
    url: '/api/webhooks/postfix',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
    payload: body,
  });

const usageOf = async (client: TestClient) => UsageResponse.parse((await client.get('/api/usage')).json());

/** The first instant of next UTC month, as the refusal names it. */
function nextMonth(): Date {
  return nextMonthStart(new Date());
}

describe('the Free plan’s e-mails a month', () => {
  it('imports a SendGrid history past the allowance, counted once however often the day is synced again', async () => {
    const { client, integrationId } = await freeSenderWithSendGrid(360_000);
    expect((await usageOf(client)).usage.emailsThisMonth).toBe(360_000);

    // The same day synced again (SendGrid completes its figures later): written over, not added.
    h.fakes.get('sendgrid')!.days = [
      { date: today(), sent: 361_000, hard: 0, soft: 0, complaints: 0, opens: 0, clicks: 0 },
    ];
    expect(await syncIntegration(h.ctx, integrationId, new Date(Date.now() + 60_000))).toMatchObject({
      status: 'synced',
    });
    expect(await syncIntegration(h.ctx, integrationId, new Date(Date.now() + 120_000))).toMatchObject({
      status: 'synced',
    });
    expect((await usageOf(client)).usage.emailsThisMonth).toBe(361_000);
  });

  it('refuses the Postfix events that come after, with a 429 the MTA logs: the limit, the count, when it ends and where to upgrade', async () => {
    const { client, token } = await freeSenderWithSendGrid(360_000);
    const res = await postPostfix(token, postfix.sample.body);
    expect(res.statusCode, res.body).toBe(429);
    expect(res.json()).toEqual({
      code: 'rate_limited',
      message:
        `Your Free plan allows 10,000 emails per month and 360,000 were counted this month, so the 3 delivery events of this request were not stored. ` +
        `Upgrade to the Professional plan at ${h.t.env.APP_URL}/pricing to store them; the count starts again on ${utcDay(nextMonth())} (UTC).`,
    });
    // Until the month ends (RFC 9110 section 10.2.3: a number of seconds).
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(Math.abs(Date.now() + retryAfter * 1000 - nextMonth().getTime())).toBeLessThan(5_000);
    expect((await client.get('/api/delivery-events?source=postfix')).json()).toEqual([]);
  });

  it('answers the Postfix guide’s check command as documented, over quota too: it stores nothing', async () => {
    const { token } = await freeSenderWithSendGrid(360_000);
    const { stdout } = await run('/bin/bash', ['-c', postfix.check({ baseUrl, token }).code], { timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual(CHECK_ANSWER);
  });

  it('keeps what was refused, by source, with when and how many, for the Integrations screen', async () => {
    const { client, token } = await freeSenderWithSendGrid(360_000);
    expect((await usageOf(client)).refusedThisMonth).toEqual([]);

    const before = Date.now();
    expect((await postPostfix(token, postfix.sample.body)).statusCode).toBe(429);
    expect((await postPostfix(token, postfix.sample.body)).statusCode).toBe(429);
    expect(
      (
        await client.post('/api/events', {
          type: 'delivered',
          message_id: '<a@brand.example>',
          recipient: 'r@example.org',
        })
      ).statusCode,
    ).toBe(429);

    const { refusedThisMonth } = await usageOf(client);
    expect(refusedThisMonth).toEqual([
      { source: 'api', events: 1, requests: 1, lastAt: expect.any(String) },
      { source: 'postfix', events: 6, requests: 2, lastAt: expect.any(String) },
    ]);
    for (const refusal of refusedThisMonth!) expect(Date.parse(refusal.lastAt)).toBeGreaterThanOrEqual(before - 1000);
    // Another sender sees none of it.
    const other = await signUp(h.t.app);
    expect((await usageOf(other.client)).refusedThisMonth).toEqual([]);
  });

  it('still takes the MTA’s events while the month is under the allowance', async () => {
    const { client, token } = await freeSenderWithSendGrid(9_000);
    const res = await postPostfix(token, postfix.sample.body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ accepted: 3, ignored: 1 });
    expect((await usageOf(client)).refusedThisMonth).toEqual([]);
  });
});
