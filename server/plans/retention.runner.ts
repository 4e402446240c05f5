import { PLAN_LIMITS } from '@contracts/plans';
import { daysAgo } from '@contracts/utc-day';
import { purgeMonitoringData, usersAfter, type PurgeCounts } from './monitoring-retention';
import type { Db } from '../platform/db/client';
import { planOf } from './plan-gate.service';
import { defineRunner } from '../platform/queue/job';
import { retentionJob } from './retention.job';

const USERS_PER_PAGE = 500;

/**
 * Deletes every user's monitoring data older than their plan keeps it (ADR 032; the tables and rules:
 * monitoring-retention.ts), user by user in short batches. A plan without a retention
 * figure keeps everything. Totals per table.
 */
export async function applyRetention(db: Db, now = new Date()): Promise<PurgeCounts> {
  const totals: PurgeCounts = {};
  for (let after = 0; ;) {
    const page = await usersAfter(db, after, USERS_PER_PAGE);
    for (const user of page) {
      const days = PLAN_LIMITS[planOf(user)].retentionDays;
      if (days === null) continue;
      const counts = await purgeMonitoringData(db, user.id, daysAgo(days, now));
      for (const [table, n] of Object.entries(counts)) totals[table] = (totals[table] ?? 0) + n;
    }
    if (page.length < USERS_PER_PAGE) return totals;
    after = page[page.length - 1]!.id;
  }
}

/** Once a day, at a quiet hour (UTC). */
export const retentionRunner = defineRunner(retentionJob, {
  schedule: '17 3 * * *',
  async run(_data, { db, log }) {
    const deleted = await applyRetention(db);
    log.info({ deleted }, 'data retention done');
  },
});
