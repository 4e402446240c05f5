import { lazy, Suspense } from 'react';
import type { TimelineEvent, TimelineSeries } from '@contracts/timeline';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { missingSources, seriesColors, type SeriesSource } from '../series';
import { SeriesHints } from './series-hints';
import { SeriesLegend } from './series-legend';

const TimelineChart = lazy(() => import('./timeline-chart'));

interface ChartCardProps {
  timeline: { from: string; to: string; series: readonly TimelineSeries[]; events: readonly TimelineEvent[] };
  /** The domain's name or the IP address, for the empty state. */
  subject: string;
  days: number;
  /** The sources that can feed this timeline; those without figures get their hint. */
  sources?: readonly SeriesSource[];
}

/** Every series of a timeline on one time axis, the events as dots, and what would feed a missing series. */
export function ChartCard({ timeline, subject, days, sources }: ChartCardProps) {
  const series = timeline.series.filter((s) => s.points.length > 0);
  const colors = seriesColors(series);
  const missing = missingSources(series, sources);
  return (
    <Card data-testid="timeline-chart-card">
      <CardHeader>
        <CardTitle className="text-lg">Deliverability over the last {days} days</CardTitle>
        <CardDescription>
          Every series on one time axis, with the events as dots along the top and detected drops as red lines.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {series.length > 0 ? (
          <>
            <Suspense fallback={<div className="h-72 animate-pulse rounded-md bg-muted" aria-hidden="true" />}>
              <TimelineChart
                from={timeline.from}
                to={timeline.to}
                series={series}
                events={timeline.events}
                colors={colors}
              />
            </Suspense>
            <SeriesLegend series={series} colors={colors} hasEvents={timeline.events.length > 0} />
          </>
        ) : (
          <p className="text-sm text-muted-foreground" data-testid="timeline-no-series">
            No figures for {subject} in the last {days} days, so there is no chart to draw yet.
          </p>
        )}
        <SeriesHints sources={missing} />
      </CardContent>
    </Card>
  );
}
