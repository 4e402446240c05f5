import { Skeleton } from '../../../components/ui/skeleton';

/** The panel's shape while its code or its analytics load. */
export function DmarcSkeleton({ label = 'Loading DMARC analytics' }: { label?: string }) {
  return (
    <div role="status" data-testid="dmarc-skeleton" className="space-y-3">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-20" />
        ))}
      </div>
      <div className="grid gap-3 lg:grid-cols-2">
        <Skeleton className="h-48" />
        <Skeleton className="h-48" />
      </div>
      <Skeleton className="h-32" />
      <span className="sr-only">{label}</span>
    </div>
  );
}
