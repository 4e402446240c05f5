import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../test/test-app';
import { emailMetricDays } from './email-metric-days';

let t: TestApp;
let userId: number;
beforeAll(async () => {
  t = await createTestApp();
  userId = (await signUp(t.app)).user.id;
  // A year of an MTA's days: three sources, each day a row per mailbox provider and sending IP.
  await t.database.db.execute(sql`
    insert into email_metrics (user_id, provider, date, mailbox_provider, sending_ip, emails_sent, delivered)
    select ${userId}, source, current_date - day, mailbox, '192.0.2.' || ip, 100, 95
    from generate_series(0, 364) day, unnest(array['postfix', 'powermta', 'sendgrid']) source,
      unnest(array['gmail', 'outlook', 'yahoo', 'other']) mailbox, generate_series(1, 4) ip`);
  await t.database.db.execute(sql`analyze email_metrics`);
});
afterAll(() => t.close());

describe('e-mail figures per provider and day', () => {
  it('reads the last 30 days of a year through the index on the user and day (issue 39)', async () => {
    const { db } = t.database;
    const days = db
      .select()
      .from(emailMetricDays(db, userId, { from: sql`current_date - 29` }))
      .toSQL();
    const { rows } = await t.database.pool.query<{ 'QUERY PLAN': string }>(`explain ${days.sql}`, days.params);
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(plan).toMatch(
      /Index Scan using email_metrics_user_date_idx|Bitmap Index Scan on email_metrics_user_date_idx/,
    );
    expect(plan).toMatch(new RegExp(`Index Cond: \\(\\(user_id = ${userId}\\) AND \\(date >= `));
  });
});
