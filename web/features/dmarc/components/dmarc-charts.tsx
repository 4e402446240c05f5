import type { ReactElement } from 'react';
import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { DmarcAnalytics } from '@contracts/dmarc';
import { formatCount, formatPercent } from '../../../lib/format';

type Series = DmarcAnalytics['trends']['volume'];

function shortDate(date: string): string {
  // 'YYYY-MM-DD' -> 'MM-DD'; anything else as it came.
  return /^\d{4}-\d{2}-\d{2}/.test(date) ? date.slice(5, 10) : date;
}

/** The chart is hidden from screen readers; this sentence says what it shows. */
function ChartFigure({
  title,
  summary,
  empty,
  children,
}: {
  title: string;
  summary: string;
  empty: boolean;
  children: ReactElement;
}) {
  return (
    <figure className="min-w-0 space-y-2">
      <figcaption className="text-sm font-medium">{title}</figcaption>
      {empty ? (
        <p className="flex h-48 items-center justify-center rounded-md border border-dashed text-sm text-muted-foreground">
          No data for this period
        </p>
      ) : (
        <>
          <div className="h-48" aria-hidden="true">
            <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 480, height: 192 }}>
              {children}
            </ResponsiveContainer>
          </div>
          <p className="text-xs text-muted-foreground">{summary}</p>
        </>
      )}
    </figure>
  );
}

function complianceSummary(series: Series): string {
  if (series.length === 0) return '';
  const lowest = series.reduce((low, point) => (point.value < low.value ? point : low));
  const last = series[series.length - 1];
  return `Latest ${formatPercent(last.value)} on ${last.date}; lowest ${formatPercent(lowest.value)} on ${lowest.date}.`;
}

function volumeSummary(series: Series): string {
  if (series.length === 0) return '';
  const busiest = series.reduce((top, point) => (point.value > top.value ? point : top));
  return `Busiest day ${busiest.date} with ${formatCount(busiest.value)} messages.`;
}

/** Compliance and volume per day; a separate chunk that carries Recharts. */
export default function DmarcCharts({ trends }: { trends: DmarcAnalytics['trends'] }) {
  const dots = trends.compliance.length <= 31;
  return (
    <div data-testid="dmarc-charts" className="grid gap-6 lg:grid-cols-2">
      <ChartFigure
        title="DMARC compliance per day"
        summary={complianceSummary(trends.compliance)}
        empty={trends.compliance.length === 0}
      >
        <LineChart data={trends.compliance} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
          <XAxis dataKey="date" tickFormatter={shortDate} fontSize={12} tickMargin={6} />
          <YAxis domain={[0, 100]} fontSize={12} unit="%" width={56} />
          <Tooltip formatter={(value) => (typeof value === 'number' ? formatPercent(value) : String(value))} />
          <Line
            type="monotone"
            dataKey="value"
            name="Compliance"
            stroke="#16a34a"
            strokeWidth={2}
            dot={dots}
            isAnimationActive={false}
          />
        </LineChart>
      </ChartFigure>
      <ChartFigure title="Messages per day" summary={volumeSummary(trends.volume)} empty={trends.volume.length === 0}>
        <BarChart data={trends.volume} margin={{ top: 8, right: 8, bottom: 0, left: -8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
          <XAxis dataKey="date" tickFormatter={shortDate} fontSize={12} tickMargin={6} />
          <YAxis fontSize={12} width={56} allowDecimals={false} />
          <Tooltip formatter={(value) => (typeof value === 'number' ? formatCount(value) : String(value))} />
          <Bar dataKey="value" name="Messages" fill="#2563eb" isAnimationActive={false} />
        </BarChart>
      </ChartFigure>
    </div>
  );
}
