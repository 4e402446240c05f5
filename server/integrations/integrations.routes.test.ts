import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailMetrics, integrations } from '../platform/db/schema/index';
import { createTestApp, signUp, TestClient, type TestApp } from '../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);

// Rows go in directly: integrations have no creation API yet.
async function seed(userId: number, sent: number) {
  await t.database.db.insert(integrations).values({ userId, provider: 'sendgrid', type: 'esp', status: 'active' });
  await t.database.db.insert(emailMetrics).values([
    { userId, provider: 'sendgrid', date: day(1), emailsSent: sent, delivered: sent / 2 },
    { userId, provider: 'sendgrid', date: day(40), emailsSent: 7, delivered: 7 },
  ]);
}

describe('integrations and email metrics API', () => {
  it('shows each user only their own integrations, figured from their own metrics', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    await seed(alice.user.id, 1000);
    await seed(bob.user.id, 40);

    // Same provider for both: the figures join on the owner too, so nothing of Bob's counts for Alice.
    expect((await alice.client.get('/api/integrations')).json()).toEqual([
      expect.objectContaining({ provider: 'sendgrid', status: 'active', emailsSent: 1000, deliveryRate: 50, dataPoints: 2 }),
    ]);
    expect((await bob.client.get('/api/integrations')).json()).toEqual([expect.objectContaining({ emailsSent: 40, dataPoints: 2 })]);

    const metrics = (await alice.client.get('/api/email-metrics')).json();
    expect(metrics).toEqual([
      { id: expect.any(Number), provider: 'sendgrid', date: day(1), emailsSent: 1000, delivered: 500, bounced: 0, complaints: 0 },
      { id: expect.any(Number), provider: 'sendgrid', date: day(40), emailsSent: 7, delivered: 7, bounced: 0, complaints: 0 },
    ]);
    const { client: newcomer } = await signUp(t.app);
    expect((await newcomer.get('/api/integrations')).json()).toEqual([]);
    expect((await newcomer.get('/api/email-metrics')).json()).toEqual([]);
  });

  it('refuses signed-out callers', async () => {
    for (const url of ['/api/integrations', '/api/email-metrics']) expect((await new TestClient(t.app).get(url)).statusCode, url).toBe(401);
  });
});
