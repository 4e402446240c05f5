import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { DashboardTrends } from '@contracts/dashboard';
import { formatRate } from '../../../lib/format';

type SeriesKey = 'inboxRate' | 'deliveryRate' | 'bounceRate' | 'complaintRate';

// Decimals as the overview cards show the same rates (complaints: thresholds at tenths of a percent).
const SERIES: Record<SeriesKey, { name: string; color: string; decimals: number }> = {
  inboxRate: { name: 'Inbox rate', color: '#2563eb', decimals: 1 },
  deliveryRate: { name: 'Delivery rate', color: '#16a34a', decimals: 1 },
  bounceRate: { name: 'Bounce rate', color: '#d97706', decimals: 1 },
  complaintRate: { name: 'Complaint rate', color: '#dc2626', decimals: 2 },
};

type Row = { date: string } & Partial<Record<SeriesKey, number>>;

/** One row per date that any of the given series has, so lines share an axis. */
export function mergeSeries(trends: DashboardTrends, keys: SeriesKey[]): Row[] {
  const rows = new Map<string, Row>();
  for (const key of keys) {
    for (const point of trends[key]) {
      const row = rows.get(point.date) ?? { date: point.date };
      row[key] = point.value;
      rows.set(point.date, row);
    }
  }
  return [...rows.values()].sort((a, b) => a.date.localeCompare(b.date));
}

function shortDate(date: string): string {
  // 'YYYY-MM-DD' -> 'MM-DD'; anything else as it came.
  return /^\d{4}-\d{2}-\d{2}/.test(date) ? date.slice(5, 10) : date;
}

function latestText(trends: DashboardTrends, key: SeriesKey): string | null {
  const series = trends[key];
  const last = series[series.length - 1];
  return last
    ? `${SERIES[key].name} ${formatRate(last.value, SERIES[key].decimals)} on ${last.date.slice(0, 10)}`
    : null;
}

function TrendChart({ title, trends, keys }: { title: string; trends: DashboardTrends; keys: SeriesKey[] }) {
  const data = mergeSeries(trends, keys);
  const summary = keys
    .map((key) => latestText(trends, key))
    .filter(Boolean)
    .join('; ');
  return (
    <figure className="space-y-2">
      <figcaption className="text-sm font-medium">{title}</figcaption>
      {data.length === 0 ? (
        <p className="flex h-56 items-center justify-center rounded-md border border-dashed text-sm text-muted-foreground">
          No data for this period
        </p>
      ) : (
        <>
          <div className="h-56" aria-hidden="true">
            <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 480, height: 224 }}>
              <LineChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
                <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
                <XAxis dataKey="date" tickFormatter={shortDate} fontSize={12} tickMargin={6} />
                <YAxis fontSize={12} unit="%" width={56} />
                <Tooltip
                  formatter={(value, _name, item) =>
                    typeof value === 'number'
                      ? formatRate(value, SERIES[item.dataKey as SeriesKey]?.decimals ?? 1)
                      : String(value)
                  }
                />
                <Legend wrapperStyle={{ fontSize: 12 }} />
                {keys.map((key) => (
                  <Line
                    key={key}
                    type="monotone"
                    dataKey={key}
                    name={SERIES[key].name}
                    stroke={SERIES[key].color}
                    strokeWidth={2}
                    dot={data.length <= 31}
                    connectNulls
                    isAnimationActive={false}
                  />
                ))}
              </LineChart>
            </ResponsiveContainer>
          </div>
          <p className="text-xs text-muted-foreground">Latest: {summary}</p>
        </>
      )}
    </figure>
  );
}

/** The trend line charts of the Advanced Analytics card; a separate chunk that carries Recharts. */
export default function TrendCharts({ trends }: { trends: DashboardTrends }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2" data-testid="trend-charts">
      <TrendChart title="Inbox and delivery rate" trends={trends} keys={['inboxRate', 'deliveryRate']} />
      <TrendChart title="Bounce and complaint rate" trends={trends} keys={['bounceRate', 'complaintRate']} />
    </div>
  );
}
