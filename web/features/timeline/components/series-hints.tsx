import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import type { SeriesSource } from '../series';

/** What would put each missing series on the timeline: the honest empty state of a chart. */
export function SeriesHints({ sources }: { sources: readonly SeriesSource[] }) {
  if (sources.length === 0) return null;
  return (
    <ul aria-label="Series with no data yet" className="space-y-2" data-testid="timeline-missing-series">
      {sources.map((source) => (
        <li
          key={source.id}
          data-source={source.id}
          className="flex flex-col gap-2 rounded-md border border-dashed p-3 text-sm sm:flex-row sm:items-center sm:justify-between"
        >
          <p>
            <span className="font-medium">{source.name}: no data yet.</span>{' '}
            <span className="text-muted-foreground">{source.missing}</span>
          </p>
          <Button asChild variant="outline" size="sm" className="self-start sm:self-auto">
            <Link to={source.action.to}>{source.action.label}</Link>
          </Button>
        </li>
      ))}
    </ul>
  );
}
