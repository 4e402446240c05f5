import { lazy, Suspense, useState } from 'react';
import { BarChart3 } from 'lucide-react';
import { PLAN_LABELS, type PlanId } from '@contracts/plans';
import { TREND_PERIODS, type DashboardTrends } from '@contracts/dashboard';
import { PeriodSelector } from '../../../components/period-selector';
import { QueryState } from '../../../components/query-state';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { serverMessageOr } from '../../../lib/api-client';
import { useDashboardTrends, type TrendPeriod } from '../api';

// Recharts is large; it is fetched only when a plan with advanced analytics has trends to draw.
const TrendCharts = lazy(() => import('./trend-charts'));

export function hasTrendData(trends: DashboardTrends): boolean {
  return [trends.inboxRate, trends.deliveryRate, trends.bounceRate, trends.complaintRate].some((s) => s.length > 0);
}

function ChartFallback() {
  return (
    <div className="flex h-56 items-center justify-center">
      <Spinner label="Loading charts" />
    </div>
  );
}

/** Trend charts of the last 7, 30 or 90 days; shown only to plans with advanced_analytics. */
export function AdvancedAnalyticsCard({ plan }: { plan: PlanId }) {
  const [days, setDays] = useState<TrendPeriod>(30);
  const trends = useDashboardTrends(days, true);
  return (
    <Card data-testid="advanced-analytics">
      <CardHeader className="flex flex-col gap-3 space-y-0 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1.5">
          <CardTitle className="flex items-center gap-2 text-lg">
            <BarChart3 className="size-5 text-primary" aria-hidden="true" />
            Advanced Analytics
          </CardTitle>
          <CardDescription>
            Included in your {PLAN_LABELS[plan]}: daily inbox placement, delivery, bounce and complaint rates.
          </CardDescription>
        </div>
        <PeriodSelector periods={TREND_PERIODS} value={days} onChange={setDays} label="Trend period" />
      </CardHeader>
      <CardContent>
        <QueryState
          query={trends}
          loading={<ChartFallback />}
          errorMessage={(error) => serverMessageOr(error, 'Trends could not be loaded. Please try again later.')}
          errorClassName="justify-center py-8 text-destructive"
          isEmpty={(data) => !hasTrendData(data)}
          empty={
            <div data-testid="trends-empty" className="py-8 text-center">
              <p className="font-medium">No trend data for the last {days} days yet</p>
              <p className="mt-1 text-sm text-muted-foreground">
                Trends appear as soon as inbox tests complete or your integrations sync their email metrics.
              </p>
            </div>
          }
        >
          {(data) => (
            <Suspense fallback={<ChartFallback />}>
              <TrendCharts trends={data} />
            </Suspense>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
