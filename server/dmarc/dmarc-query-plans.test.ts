import { ReportsQuery } from '@contracts/dmarc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planWithoutSeqScans, sqlText } from '../test/query-plans';
import { createTestApp, signUp, type TestApp } from '../test/test-app';
import { firstDayOf, reporterActivityQuery, sourcesQuery } from './dmarc-analytics.repo';
import { reportsPage } from './dmarc.repo';

/*
 * The DMARC queries a user's every visit runs, on tables that grow with every report: each must be bounded by the
 * index that serves it (issue 39), not by reading the user's whole history and sorting it.
 */

let t: TestApp;
let userId: number;
beforeAll(async () => {
  t = await createTestApp();
  userId = (await signUp(t.app)).user.id;
});
afterAll(() => t.close());

describe('DMARC query plans', () => {
  it('reads a page of the reports list in order from its index, without sorting the user’s reports', async () => {
    const page50 = ReportsQuery.parse({ page: 50, pageSize: 10 });
    const plan = await planWithoutSeqScans(t.database.pool, reportsPage(t.database.db, userId, page50).toSQL());
    expect(plan).toMatch(/Index Scan using dmarc_reports_user_listed_idx on dmarc_reports/);
    expect(plan).toContain(`Index Cond: (user_id = ${userId})`);
    expect(plan).not.toMatch(/Sort/);
  });

  it('reads one domain’s sources of the period through the index on the user, the domain and the day', async () => {
    const first = firstDayOf(90);
    const plan = await planWithoutSeqScans(t.database.pool, sqlText(sourcesQuery(userId, first, 'example.com')));
    expect(plan).toMatch(/Index Scan using dmarc_source_days_user_domain_day_idx on dmarc_source_days/);
    expect(plan).toContain(
      `Index Cond: ((user_id = ${userId}) AND (domain = 'example.com'::text) AND (day >= '${first}'::date))`,
    );
  });

  it('reads the reporters from the index alone, grouped in its order, and each one’s last week from it', async () => {
    const plan = await planWithoutSeqScans(t.database.pool, sqlText(reporterActivityQuery({ userId })));
    expect(plan).toMatch(/GroupAggregate/);
    const scans = plan.match(/Index Only Scan using dmarc_reports_reporters_idx/g) ?? [];
    expect(scans).toHaveLength(2);
    expect(plan).toContain(`Index Cond: ((user_id = ${userId}) AND (domain IS NOT NULL)`);
    expect(plan).toMatch(/date_end > \(\(max\(dmarc_reports(_1)?\.date_end\)\) - '7 days'::interval\)/);
    // The only sort is of the reporters found, never of the reports.
    expect(plan).not.toMatch(/Sort Key: dmarc_reports/);
  });
});
