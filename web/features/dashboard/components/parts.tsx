import type { ComponentType, ReactNode } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { TONE_TEXT } from '../../../components/tone';
import { cn } from '../../../lib/utils';
import type { Tone } from '../metrics';

export { TONE_TEXT };

const TONE_BAR: Record<Tone, string> = {
  good: 'bg-green-500',
  warn: 'bg-yellow-500',
  bad: 'bg-red-500',
  none: 'bg-muted-foreground/30',
};

const TONE_BADGE: Record<Tone, string> = {
  good: 'border-green-200 bg-green-100 text-green-800',
  warn: 'border-yellow-200 bg-yellow-100 text-yellow-800',
  bad: 'border-red-200 bg-red-100 text-red-800',
  none: 'border-border bg-muted text-muted-foreground',
};

/** A small pill coloured by tone; `data-tone` lets tests check the colour without class names. */
export function ToneBadge({ tone, children, className }: { tone: Tone; children: ReactNode; className?: string }) {
  return (
    <span
      data-tone={tone}
      className={cn(
        'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold',
        TONE_BADGE[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}

/** A horizontal bar; `width` is 0-100. Announced as a meter with its own text value. */
export function Bar({
  label,
  width,
  tone,
  valueText,
}: {
  label: string;
  width: number;
  tone: Tone;
  valueText: string;
}) {
  return (
    <div
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(width)}
      aria-valuetext={valueText}
      data-tone={tone}
      className="h-2 w-full overflow-hidden rounded-full bg-muted"
    >
      <div className={cn('h-full rounded-full transition-[width]', TONE_BAR[tone])} style={{ width: `${width}%` }} />
    </div>
  );
}

type Icon = ComponentType<{ className?: string; 'aria-hidden'?: boolean | 'true' }>;

/** A figure with a title, an optional note under it and an icon. */
export function StatCard({
  title,
  value,
  note,
  icon: IconComponent,
  tone = 'none',
  children,
  testId,
}: {
  title: string;
  value: ReactNode;
  note?: ReactNode;
  icon?: Icon;
  tone?: Tone;
  children?: ReactNode;
  testId?: string;
}) {
  return (
    <Card data-testid={testId}>
      <CardHeader className="flex flex-row items-center justify-between space-y-0 pb-2">
        <CardTitle as="h3" className="text-sm font-medium text-muted-foreground">
          {title}
        </CardTitle>
        {IconComponent && <IconComponent className="size-4 text-muted-foreground" aria-hidden="true" />}
      </CardHeader>
      <CardContent className="space-y-2">
        <p className={cn('text-2xl font-bold wrap-anywhere', tone !== 'none' && TONE_TEXT[tone])} data-tone={tone}>
          {value}
        </p>
        {note && <div className="text-xs text-muted-foreground">{note}</div>}
        {children}
      </CardContent>
    </Card>
  );
}

/** What a view shows when it has nothing to show, with the way forward. */
export function EmptyState({
  icon: IconComponent,
  title,
  description,
  children,
}: {
  icon: Icon;
  title: string;
  description: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center gap-3 px-4 py-10 text-center">
      <IconComponent className="size-10 text-muted-foreground" aria-hidden="true" />
      <h3 className="text-lg font-semibold">{title}</h3>
      <p className="max-w-md text-sm text-muted-foreground">{description}</p>
      {children && <div className="flex flex-wrap justify-center gap-2">{children}</div>}
    </div>
  );
}

function SkeletonBlock({ className }: { className?: string }) {
  return <div className={cn('animate-pulse rounded-md bg-muted', className)} />;
}

/** The shape of the dashboard while its data loads. */
export function DashboardSkeleton() {
  return (
    <div role="status" data-testid="dashboard-skeleton" className="space-y-6">
      <SkeletonBlock className="h-20 w-full" />
      <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <SkeletonBlock key={i} className="h-32" />
        ))}
      </div>
      <div className="grid gap-4 lg:grid-cols-3">
        <SkeletonBlock className="h-64 lg:col-span-2" />
        <SkeletonBlock className="h-64" />
      </div>
      <span className="sr-only">Loading dashboard</span>
    </div>
  );
}
