import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxTest } from '@contracts/inbox-tests';
import { domains } from '../platform/db/schema/index';
import { createTestApp, signUp, type TestApp } from '../test/test-app';

// The running test's "Expected completion in ..." is read from how long this server searches the
// seeds after the message arrives (PLACEMENT_WINDOW_MINUTES), so every test answer carries it.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { PLACEMENT_WINDOW_MINUTES: '30' } });
});
afterAll(() => t?.close());

describe('the placement window on inbox test answers', () => {
  it('is the server’s PLACEMENT_WINDOW_MINUTES on the created test, the list and the single test', async () => {
    const { client, user } = await signUp(t.app);
    await t.database.db
      .insert(domains)
      .values({ userId: user.id, domain: `brand-${user.id}.test`, verificationToken: 'token', status: 'healthy' });
    const created = await client.post('/api/inbox-tests', { testType: 'automatic' });
    expect(created.statusCode).toBe(200);
    const test = created.json() as InboxTest;
    expect(test.placementWindowMinutes).toBe(30);
    expect(
      ((await client.get('/api/inbox-tests')).json() as InboxTest[]).map((each) => each.placementWindowMinutes),
    ).toEqual([30]);
    expect((await client.get(`/api/inbox-tests/${test.id}`)).json()).toMatchObject({ placementWindowMinutes: 30 });
  });
});
