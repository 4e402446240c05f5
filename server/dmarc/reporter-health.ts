import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../platform/db/client';

/*
 * Report-pipeline health. Large receivers (Google, Microsoft, Yahoo...) send one aggregate report a
 * day. A reporter is "daily" when its reports ended on at least DAILY_MIN_DAYS different days in the
 * week before its last one; a daily reporter silent for STOPPED_AFTER_DAYS has "stopped": usually the
 * rua= address changed, or the mail to it bounces.
 */
export const DAILY_MIN_DAYS = 3;
export const STOPPED_AFTER_DAYS = 3;
const DAY_MS = 24 * 3600 * 1000;

export interface ReporterActivity {
  userId: number;
  domain: string;
  orgName: string;
  /** End of the last period the reporter reported on. */
  lastReportAt: Date;
  reports: number;
  /** Distinct UTC days its reports ended on, in the 7 days up to lastReportAt. */
  recentDays: number;
}

export interface ReporterHealth {
  silentDays: number;
  daily: boolean;
  stopped: boolean;
}

export function reporterHealth(activity: Pick<ReporterActivity, 'lastReportAt' | 'recentDays'>, now: Date): ReporterHealth {
  const silentDays = Math.max(0, Math.floor((now.getTime() - activity.lastReportAt.getTime()) / DAY_MS));
  const daily = activity.recentDays >= DAILY_MIN_DAYS;
  return { silentDays, daily, stopped: daily && silentDays >= STOPPED_AFTER_DAYS };
}

/** Each (user, domain, reporter) of the imported reports matching `where` (a condition on dmarc_reports). */
export async function loadReporterActivity(ex: Executor, where: SQL): Promise<ReporterActivity[]> {
  const result = (await ex.execute(sql`
    with r as (
      select user_id, domain, org_name, date_end,
             max(date_end) over (partition by user_id, domain, org_name) as last_end
      from dmarc_reports
      where status = 'imported' and domain is not null and org_name is not null and date_end is not null and ${where}
    )
    select user_id, domain, org_name, last_end, count(*)::int as reports,
           (count(distinct (date_end at time zone 'UTC')::date) filter (where date_end > last_end - interval '7 days'))::int as recent_days
    from r
    group by user_id, domain, org_name, last_end
    order by last_end desc`)) as unknown as {
    rows: { user_id: number; domain: string; org_name: string; last_end: Date | string; reports: number; recent_days: number }[];
  };
  return result.rows.map((row) => ({
    userId: row.user_id,
    domain: row.domain,
    orgName: row.org_name,
    lastReportAt: new Date(row.last_end),
    reports: row.reports,
    recentDays: row.recent_days,
  }));
}
