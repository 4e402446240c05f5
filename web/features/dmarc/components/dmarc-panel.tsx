import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import { ANALYTICS_PERIODS, type DmarcAnalytics } from '@contracts/dmarc';
import { daysAgo } from '@contracts/utc-day';
import { PeriodSelector } from '../../../components/period-selector';
import { QueryState } from '../../../components/query-state';
import { serverMessageOr } from '../../../lib/api-client';
import { cn } from '../../../lib/utils';
import { useDmarcAnalytics, useDmarcReports, type AnalyticsPeriod } from '../api';
import { reportPeriod } from '../dmarc-text';
import { Button } from '../../../components/ui/button';
import { DmarcEmptyState } from './dmarc-empty-state';
import { DmarcSkeleton } from './dmarc-skeleton';
import { HeadlineFigures } from './headline-figures';
import { Recommendations } from './recommendations';
import { ReporterHealth } from './reporter-health';
import { ReportsList } from './reports-list';
import { SourcesTable } from './sources-table';
import { TopThreats } from './top-threats';
import { UploadReportButton } from './upload-report-button';

// Recharts is large: its chunk is fetched only when there are reports to draw.
const DmarcCharts = lazy(() => import('./dmarc-charts'));

function Part({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="space-y-2">
      <h4 id={id} className="text-sm font-semibold">
        {title}
      </h4>
      {children}
    </section>
  );
}

function AnalyticsView({ analytics }: { analytics: DmarcAnalytics }) {
  return (
    <div className="space-y-5">
      <HeadlineFigures analytics={analytics} />
      <Suspense fallback={<div className="h-48 animate-pulse rounded-md bg-muted" aria-hidden="true" />}>
        <DmarcCharts trends={analytics.trends} />
      </Suspense>
      <Part title="Top failing sources">
        <TopThreats threats={analytics.topThreats} />
      </Part>
      <Part title="Sending sources">
        <SourcesTable sources={analytics.sources} />
      </Part>
      <Part title="Recommendations">
        <Recommendations items={analytics.recommendations} />
      </Part>
      <Part title="Report pipeline">
        <ReporterHealth reporters={analytics.reporters} />
      </Part>
    </div>
  );
}

const LONGEST: AnalyticsPeriod = 90;

/** Whether the longest period would show the latest report (the list is newest first). */
function widenable(days: AnalyticsPeriod, newestFirst: { dateBegin: string | null }[]): boolean {
  const begin = newestFirst[0]?.dateBegin;
  return days < LONGEST && begin !== null && begin !== undefined && Date.parse(begin) >= daysAgo(LONGEST).getTime();
}

/**
 * Nothing in the period, but the domain has older reports (listed below): said as such, with the
 * longest period one click away, instead of the how-to-get-reports empty state.
 */
function NothingInPeriod({
  domain,
  days,
  latest,
  onWiden,
}: {
  domain: string;
  days: AnalyticsPeriod;
  latest: Parameters<typeof reportPeriod>[0] | undefined;
  onWiden: (() => void) | null;
}) {
  return (
    <div data-testid="dmarc-nothing-in-period" className="space-y-2 rounded-md border border-dashed p-4">
      <p className="font-medium">
        No DMARC reports for {domain} in the last {days} days
      </p>
      <p className="text-sm text-muted-foreground">
        {latest ? `The latest report covers ${reportPeriod(latest)}; ` : ''}
        older reports are listed under Reports for {domain} below.
      </p>
      {onWiden && (
        <Button variant="outline" size="sm" onClick={onWiden}>
          Show the last {LONGEST} days
        </Button>
      )}
    </div>
  );
}

/** A domain's DMARC aggregate reports: analytics for 7/30/90 days, upload, and the reports themselves. */
export default function DmarcPanel({ domain, isVerified, id }: { domain: string; isVerified: boolean; id?: string }) {
  const [days, setDays] = useState<AnalyticsPeriod>(30);
  const analytics = useDmarcAnalytics(domain, days);
  // Whether the domain has reports the analytics would count outside the period: the ones kept apart
  // (unauthenticated) never are, and the list below says so itself.
  const stored = useDmarcReports({ domain, sender: 'authenticated' }, 1);
  const titleId = useId();

  return (
    <section id={id} aria-labelledby={titleId} data-testid="dmarc-panel" className="min-w-0 space-y-5 border-t pt-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <h3 id={titleId} className="text-sm font-semibold">
            DMARC reports
          </h3>
          <p className="text-xs text-muted-foreground">What receivers reported about mail sent as {domain}.</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <PeriodSelector periods={ANALYTICS_PERIODS} value={days} onChange={setDays} label="DMARC report period" />
          <UploadReportButton domain={domain} />
        </div>
      </div>
      <div
        aria-busy={analytics.isFetching}
        className={cn(analytics.isPlaceholderData && 'opacity-60 transition-opacity')}
      >
        <QueryState
          query={analytics}
          loading={<DmarcSkeleton />}
          errorMessage={(error) => serverMessageOr(error, 'Could not load the DMARC analytics.')}
          errorClassName="rounded-md border p-4"
        >
          {(data) =>
            data.totalReports === 0 ? (
              <div className="space-y-4">
                {/* Unknown whether older reports exist: the empty state's guidance is what helps then. */}
                <QueryState
                  query={stored}
                  loading={<DmarcSkeleton />}
                  failed={() => <DmarcEmptyState domain={domain} days={days} isVerified={isVerified} />}
                >
                  {(list) =>
                    list.total > 0 ? (
                      <NothingInPeriod
                        domain={domain}
                        days={days}
                        latest={list.items.find((report) => report.status === 'imported')}
                        onWiden={widenable(days, list.items) ? () => setDays(90) : null}
                      />
                    ) : (
                      <DmarcEmptyState domain={domain} days={days} isVerified={isVerified} />
                    )
                  }
                </QueryState>
                {/* A reporter that went quiet is often why there is nothing in the period. */}
                {data.reporters.length > 0 && (
                  <Part title="Report pipeline">
                    <ReporterHealth reporters={data.reporters} />
                  </Part>
                )}
              </div>
            ) : (
              <AnalyticsView analytics={data} />
            )
          }
        </QueryState>
      </div>
      <ReportsList filter={{ domain }} title={`Reports for ${domain}`} emptyText="No reports for this domain yet." />
    </section>
  );
}
