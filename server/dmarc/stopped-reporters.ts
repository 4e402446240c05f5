import { utcDay } from '@contracts/utc-day';
import { raiseAlert } from '../alerts/alerts.service';
import type { Db } from '../platform/db/client';
import { loadReporterActivity, type ReporterScope } from './dmarc-analytics.repo';
import { claimReporterAlert } from './dmarc.repo';
import { reporterHealth } from './reporter-health';

/** A longer silence is history (an upload of old reports), not news: shown as stopped, not alerted. */
const ALERT_WITHIN_DAYS = 14;

/**
 * Raises one alert per daily reporter that has stopped (see reporter-health.ts), for the reports in
 * `scope` (everyone's by default). The alert is tied to the reporter's last report: the same silence
 * never alerts twice, and a reporter that resumes and stops again alerts again. Returns how many were raised.
 */
export async function raiseStoppedReporterAlerts(db: Db, scope: ReporterScope = {}, now = new Date()): Promise<number> {
  let raised = 0;
  for (const reporter of await loadReporterActivity(db, scope)) {
    const health = reporterHealth(reporter, now);
    if (!health.stopped || health.silentDays > ALERT_WITHIN_DAYS) continue;
    const lastDay = utcDay(reporter.lastReportAt);
    await db.transaction(async (tx) => {
      if (!(await claimReporterAlert(tx, reporter))) return;
      await raiseAlert(tx, {
        userId: reporter.userId,
        type: 'authentication_failure',
        severity: 'warning',
        domain: reporter.domain,
        title: `DMARC reports from ${reporter.orgName} stopped`,
        message:
          `${reporter.orgName} sent ${reporter.domain} a DMARC report every day, but none since ${lastDay} (${health.silentDays} days). ` +
          `Check that the domain's DMARC record still has your rua= address and that mail to it is accepted.`,
        metadata: {
          orgName: reporter.orgName,
          lastReportAt: reporter.lastReportAt.toISOString(),
          silentDays: health.silentDays,
        },
      });
      raised++;
    });
  }
  return raised;
}
