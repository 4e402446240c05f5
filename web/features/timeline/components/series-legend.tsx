import type { TimelineSeries } from '@contracts/timeline';
import { formatCount, formatRate } from '../../../lib/format';
import { SEVERITY_COLOR } from '../event-kinds';
import { pointDay } from '../point-time';
import { decimalsOf, sampleUnit } from '../series';

/** Each line's colour and name with its latest figure: the chart's legend, and its words for screen readers. */
export function SeriesLegend({
  series,
  colors,
  hasEvents,
}: {
  series: readonly TimelineSeries[];
  colors: Map<string, string>;
  hasEvents: boolean;
}) {
  return (
    <div className="space-y-2">
      <ul aria-label="Series" className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2" data-testid="timeline-series">
        {series.map((s) => {
          const last = s.points[s.points.length - 1];
          return (
            <li key={s.key} data-series={s.key} className="flex min-w-0 items-start gap-2">
              <span
                className="mt-1.5 h-0.5 w-4 shrink-0 rounded"
                style={{ backgroundColor: colors.get(s.key) }}
                aria-hidden="true"
              />
              <span className="min-w-0">
                <span className="font-medium">{s.label}</span>
                {last && (
                  <span className="text-muted-foreground">
                    {': '}
                    {formatRate(last.value, decimalsOf(s.key))} on {pointDay(last.at)}
                    {last.sample !== null && ` (${formatCount(last.sample)} ${sampleUnit(s.key, last.sample)})`}
                  </span>
                )}
              </span>
            </li>
          );
        })}
      </ul>
      {hasEvents && (
        <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground">
          <span className="inline-flex items-center gap-1.5">
            <span className="h-3 w-0 border-l-2 border-dashed border-red-600" aria-hidden="true" />
            Detected drop
          </span>
          {(['info', 'warning', 'critical'] as const).map((severity) => (
            <span key={severity} className="inline-flex items-center gap-1.5">
              <span
                className="size-2.5 rounded-full"
                style={{ backgroundColor: SEVERITY_COLOR[severity] }}
                aria-hidden="true"
              />
              {severity === 'info' ? 'Event' : severity === 'warning' ? 'Warning' : 'Critical event'}
            </span>
          ))}
        </p>
      )}
    </div>
  );
}
