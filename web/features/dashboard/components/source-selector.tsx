import { Database } from 'lucide-react';
import { Card, CardContent } from '../../../components/ui/card';
import type { DataSource, DataSourceId } from '../metrics';
import { ToneBadge } from './parts';

/**
 * Which data the dashboard shows (part 1, 2.8). A native select: keyboard and screen readers work
 * as everywhere, and a source without data is a disabled option marked 'Not configured'.
 */
export function SourceSelector({
  sources,
  selected,
  active,
  onSelect,
}: {
  sources: DataSource[];
  selected: DataSourceId;
  /** Whether the selected source has data behind it right now. */
  active: boolean;
  onSelect: (id: DataSourceId) => void;
}) {
  const current = sources.find((s) => s.id === selected) ?? sources[0];
  return (
    <Card>
      <CardContent className="flex flex-col gap-4 p-4 sm:flex-row sm:items-center sm:p-6">
        <div className="flex items-center gap-3 sm:w-72">
          <Database className="size-5 shrink-0 text-primary" aria-hidden="true" />
          <div className="w-full space-y-1">
            <label htmlFor="dashboard-source" className="text-sm font-medium">
              Data Source
            </label>
            <select
              id="dashboard-source"
              data-testid="dashboard-source-select"
              aria-describedby="dashboard-source-description"
              value={selected}
              onChange={(event) => onSelect(event.target.value as DataSourceId)}
              className="flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              {sources.map((source) => (
                <option key={source.id} value={source.id} disabled={!source.available}>
                  {source.available ? source.label : `${source.label} (Not configured)`}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="flex flex-1 items-start gap-3">
          <ToneBadge tone={active ? 'good' : 'none'} className="mt-0.5 shrink-0">
            <span data-testid="dashboard-source-status">{active ? 'Active' : 'Inactive'}</span>
          </ToneBadge>
          <p id="dashboard-source-description" className="text-sm text-muted-foreground">
            <span className="font-medium text-foreground">{current.label}: </span>
            {current.description}
          </p>
        </div>
      </CardContent>
    </Card>
  );
}
