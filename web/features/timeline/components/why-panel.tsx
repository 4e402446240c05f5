import { CircleHelp, TrendingDown } from 'lucide-react';
import type { Drop, DropCause } from '@contracts/timeline';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Pill } from '../../../components/ui/pill';
import { formatRate } from '../../../lib/format';
import { pointDay } from '../point-time';
import { decimalsOf } from '../series';
import { EVENT_KINDS } from '../event-kinds';
import { EvidenceLink } from './evidence-link';

/** How long before the drop a cause happened, as people say it. */
export function leadTime(hours: number): string {
  if (hours < 1) return 'less than an hour before';
  if (hours < 48) return `${Math.round(hours)} h before`;
  return `${Math.round(hours / 24)} days before`;
}

/** The score (0 to 1, ADR 035) in words, with the number for those who compare causes. */
function strength(score: number): { label: string; tone: 'bad' | 'warn' | 'none' } {
  if (score >= 0.7) return { label: 'Strong match', tone: 'bad' };
  if (score >= 0.4) return { label: 'Possible match', tone: 'warn' };
  return { label: 'Weak match', tone: 'none' };
}

function CauseItem({ cause, rank }: { cause: DropCause; rank: number }) {
  const match = strength(cause.score);
  return (
    <li data-testid="drop-cause" data-kind={cause.kind} className="space-y-1.5 rounded-md border p-3">
      <div className="flex flex-col items-start gap-1 sm:flex-row sm:items-baseline sm:gap-2">
        <p className="min-w-0 flex-1 font-medium wrap-anywhere">
          <span className="mr-1.5 text-sm font-semibold text-muted-foreground">{rank}.</span>
          {cause.title}
        </p>
        <Pill tone={match.tone}>
          {match.label} ({cause.score.toFixed(2)})
        </Pill>
      </div>
      <p className="text-xs text-muted-foreground">
        {EVENT_KINDS[cause.kind].label}, {pointDay(cause.at)}, {leadTime(cause.hoursBefore)}
      </p>
      <p className="text-sm wrap-anywhere">
        <span className="font-medium">Evidence: </span>
        {cause.evidence}
      </p>
      <p className="text-sm wrap-anywhere">
        <span className="font-medium">Fix: </span>
        {cause.fix}
      </p>
      <EvidenceLink to={cause.link} about={cause.title} />
    </li>
  );
}

function DropItem({ drop }: { drop: Drop }) {
  const decimals = decimalsOf(drop.series);
  return (
    <li data-testid="drop" data-series={drop.series} id={`drop-${drop.id}`} className="space-y-3">
      <div className="flex items-start gap-2">
        <TrendingDown className="mt-0.5 size-5 shrink-0 text-red-600" aria-hidden="true" />
        <div className="min-w-0 space-y-1">
          <h3 className="font-semibold wrap-anywhere">
            {drop.label}: {formatRate(drop.before, decimals)} → {formatRate(drop.after, decimals)}
          </h3>
          <p className="text-xs text-muted-foreground">{pointDay(drop.at)}</p>
          <p className="text-sm wrap-anywhere" data-testid="drop-summary">
            {drop.summary}
          </p>
        </div>
      </div>
      {drop.causes.length > 0 ? (
        <ol aria-label={`Likely causes, most likely first: ${drop.label}`} className="space-y-2">
          {drop.causes.map((cause, index) => (
            <CauseItem key={`${cause.kind}-${cause.at}-${index}`} cause={cause} rank={index + 1} />
          ))}
        </ol>
      ) : (
        <div
          className="flex items-start gap-2 rounded-md border border-dashed p-3 text-sm text-muted-foreground"
          data-testid="no-clear-cause"
        >
          <CircleHelp className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <p>
            Nothing InboxPulse holds for this domain happened shortly before this drop. If you know what changed (a new
            campaign, a new list, another ESP), add a note so the timeline keeps it.
          </p>
        </div>
      )}
    </li>
  );
}

/** The detected drops of the period, newest first, each with its likely causes ranked (the "Why" of the page). */
export function WhyPanel({ drops, days }: { drops: readonly Drop[]; days: number }) {
  return (
    <Card data-testid="why-panel">
      <CardHeader>
        <CardTitle className="text-lg">Why</CardTitle>
        <CardDescription>
          {drops.length === 0
            ? `No drop detected in the last ${days} days.`
            : `${drops.length} ${drops.length === 1 ? 'drop' : 'drops'} detected in the last ${days} days, newest first, with the events that most likely caused each.`}
        </CardDescription>
      </CardHeader>
      {drops.length > 0 && (
        <CardContent>
          <ol aria-label="Detected drops" className="space-y-6">
            {drops.map((drop) => (
              <DropItem key={drop.id} drop={drop} />
            ))}
          </ol>
        </CardContent>
      )}
    </Card>
  );
}
