import { QueryState } from '../../../components/query-state';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime } from '../../../lib/format';
import { useListings, type ListingTarget } from '../api';

/** When the IP or domain went on and came off each list, newest first (the listing history beyond the spec). */
export function ListingTimeline({ target }: { target: ListingTarget }) {
  const listings = useListings(target, true);
  return (
    <QueryState
      query={listings}
      loading={<Spinner className="size-5" label="Loading the listing history" />}
      errorMessage="Could not load the listing history."
      isEmpty={(periods) => periods.length === 0}
      empty={<p className="text-sm text-muted-foreground">Never listed since monitoring began.</p>}
    >
      {(periods) => (
        <ol data-testid="listing-timeline" className="space-y-2 border-l pl-4 text-sm">
          {[...periods]
            .sort((a, b) => b.listedAt.localeCompare(a.listedAt))
            .map((period) => (
              <li key={`${period.listId}-${period.listedAt}`} className="relative">
                <span
                  aria-hidden="true"
                  className={`absolute -left-[1.3rem] top-1.5 size-2 rounded-full ${period.delistedAt ? 'bg-muted-foreground' : 'bg-red-600'}`}
                />
                <p className="font-medium">{period.provider}</p>
                <p className="text-muted-foreground">
                  Listed {formatDateTime(period.listedAt)} ·{' '}
                  {period.delistedAt ? `delisted ${formatDateTime(period.delistedAt)}` : 'still listed'}
                </p>
                {period.reason && <p className="text-muted-foreground wrap-anywhere">{period.reason}</p>}
              </li>
            ))}
        </ol>
      )}
    </QueryState>
  );
}
