import { useEffect, useRef } from 'react';
import {
  CartesianGrid,
  Line,
  LineChart,
  ReferenceDot,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { TimelineEvent, TimelineSeries } from '@contracts/timeline';
import { DAY_MS } from '@contracts/utc-day';
import { formatCount, formatRate } from '../../../lib/format';
import { pointTime } from '../point-time';
import { SEVERITY_COLOR } from '../event-kinds';
import { decimalsOf, isLowRate, sampleUnit } from '../series';

type Row = { t: number } & Record<string, number | undefined>;

/**
 * One row per instant any series has a point, so every line shares the time axis and the tooltip
 * reads all of them at once. Series are keyed s0, s1...: a provider in a key may hold a dot, which
 * Recharts would read as a path.
 */
export function mergeRows(series: readonly TimelineSeries[]): Row[] {
  const rows = new Map<number, Row>();
  series.forEach((s, index) => {
    for (const point of s.points) {
      const t = Date.parse(point.at);
      const row = rows.get(t) ?? { t };
      row[`s${index}`] = point.value;
      if (point.sample !== null) row[`n${index}`] = point.sample;
      rows.set(t, row);
    }
  });
  return [...rows.values()].sort((a, b) => a.t - b.t);
}

/**
 * About seven day ticks across the whole period, at UTC midnights (where the daily figures sit), so
 * the axis reads as the period asked for even where no series has a point yet.
 */
export function dayTicks(from: number, to: number): number[] {
  const step = Math.max(1, Math.round((to - from) / DAY_MS / 7)) * DAY_MS;
  const ticks: number[] = [];
  for (let t = Math.ceil(from / DAY_MS) * DAY_MS; t <= to; t += step) ticks.push(t);
  return ticks;
}

function dayTick(t: number): string {
  return new Date(t).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/**
 * The series as lines on one time axis with the events as dots along its top and the drops as red
 * lines. Hidden from assistive technology: the legend, the event list and the Why panel say the same
 * in words. A separate chunk that carries Recharts.
 */
export default function TimelineChart({
  from,
  to,
  series,
  events,
  colors,
}: {
  from: string;
  to: string;
  series: readonly TimelineSeries[];
  events: readonly TimelineEvent[];
  colors: Map<string, string>;
}) {
  const rows = mergeRows(series);
  const hasLowRates = series.some((s) => isLowRate(s.key));
  const hasShares = series.some((s) => !isLowRate(s.key));
  const markers = events.filter((event) => event.kind !== 'drop');
  const drops = events.filter((event) => event.kind === 'drop');
  const start = Date.parse(from);
  const end = Date.parse(to);
  // Where the chart scrolls (phones), it opens on its newest days: what the user came to see.
  const scroller = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = scroller.current;
    if (element) element.scrollLeft = element.scrollWidth;
  }, [end]);
  return (
    <div ref={scroller} className="overflow-x-auto" data-testid="timeline-chart">
      {/* Below 640 px the axis would crowd its days together: the chart keeps its width and scrolls. */}
      <div className="h-72 min-w-[640px]" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 800, height: 288 }}>
          <LineChart data={rows} margin={{ top: 16, right: 8, bottom: 0, left: -8 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
            <XAxis
              dataKey="t"
              type="number"
              scale="time"
              domain={[start, end]}
              ticks={dayTicks(start, end)}
              tickFormatter={dayTick}
              fontSize={12}
              tickMargin={6}
            />
            <YAxis
              yAxisId="share"
              domain={[0, 100]}
              fontSize={12}
              unit="%"
              width={hasShares ? 56 : 0}
              hide={!hasShares}
            />
            <YAxis
              yAxisId="rate"
              orientation="right"
              domain={[0, (max: number) => Math.max(1, Math.ceil(max * 1.2))]}
              fontSize={12}
              unit="%"
              width={hasLowRates ? 48 : 0}
              hide={!hasLowRates}
            />
            {/* Hidden, but an axis still takes its place in the layout: on the right and 0 wide, it moves no other. */}
            <YAxis yAxisId="events" orientation="right" width={0} domain={[0, 1]} hide />
            <Tooltip
              labelFormatter={(t) => (typeof t === 'number' ? pointTime(new Date(t).toISOString()) : String(t))}
              formatter={(value, name, item) => {
                const index = Number(String(item.dataKey).slice(1));
                const key = series[index]?.key ?? '';
                const sample = (item.payload as Row | undefined)?.[`n${index}`];
                const figure = typeof value === 'number' ? formatRate(value, decimalsOf(key)) : String(value);
                return [
                  sample === undefined ? figure : `${figure} (${formatCount(sample)} ${sampleUnit(key, sample)})`,
                  name,
                ];
              }}
            />
            {drops.map((drop) => (
              <ReferenceLine
                key={drop.id}
                yAxisId="events"
                x={Date.parse(drop.at)}
                stroke="#dc2626"
                strokeWidth={2}
                strokeDasharray="4 3"
              />
            ))}
            {series.map((s, index) => (
              <Line
                key={s.key}
                yAxisId={isLowRate(s.key) ? 'rate' : 'share'}
                type="monotone"
                dataKey={`s${index}`}
                name={s.label}
                stroke={colors.get(s.key)}
                strokeWidth={2}
                dot={s.points.length <= 31}
                connectNulls
                isAnimationActive={false}
              />
            ))}
            {markers.map((event) => (
              <ReferenceDot
                key={event.id}
                yAxisId="events"
                x={Date.parse(event.at)}
                y={0.97}
                r={5}
                fill={SEVERITY_COLOR[event.severity]}
                stroke="#fff"
                strokeWidth={1.5}
                ifOverflow="extendDomain"
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </div>
  );
}
