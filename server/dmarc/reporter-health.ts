import { DAY_MS } from '@contracts/utc-day';

/*
 * Report-pipeline health. Large receivers (Google, Microsoft, Yahoo...) send one aggregate report a
 * day. A reporter is "daily" when its reports ended on at least DAILY_MIN_DAYS different days in the
 * week before its last one; a daily reporter silent for STOPPED_AFTER_DAYS has "stopped": usually the
 * rua= address changed, or the mail to it bounces.
 */
export const DAILY_MIN_DAYS = 3;
export const STOPPED_AFTER_DAYS = 3;

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

export function reporterHealth(
  activity: Pick<ReporterActivity, 'lastReportAt' | 'recentDays'>,
  now: Date,
): ReporterHealth {
  const silentDays = Math.max(0, Math.floor((now.getTime() - activity.lastReportAt.getTime()) / DAY_MS));
  const daily = activity.recentDays >= DAILY_MIN_DAYS;
  return { silentDays, daily, stopped: daily && silentDays >= STOPPED_AFTER_DAYS };
}
