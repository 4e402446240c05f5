import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryPlans } from '../test/query-plans';
import { createTestApp, type TestApp } from '../test/test-app';
import { listAlerts } from './alerts.repo';

/*
 * The alerts list (issue 39: a year of alerts of a thousand domains) reads its page from the user's newest alerts in
 * index order and stops there, however many alerts the user has kept.
 */

let t: TestApp;
beforeAll(async () => (t = await createTestApp()));
afterAll(() => t?.close());

describe('the alerts list', () => {
  it("reads the user's newest alerts backwards through the index, up to the page", async () => {
    const [plan] = await queryPlans(t.database, (ex) => listAlerts(ex, 1));
    const lines = plan!.split('\n');
    expect(lines[0]).toMatch(/^Limit/);
    expect(plan).toMatch(/Index Scan Backward using alerts_user_created_idx on alerts/);
    expect(plan).toMatch(/Index Cond: \(user_id = 1\)/);
    // Ties of the same instant are put in order as they come (incremental), never the user's every alert at once.
    expect(plan).not.toMatch(/^\s*->\s+Sort\b/m);
  });
});
