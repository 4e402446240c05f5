import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { QueryState } from '../../components/query-state';
import { serverMessageOr } from '../../lib/api-client';
import { formatBytes, formatCount } from '../../lib/format';
import { useAccountStorage } from './api';

/** What the account keeps, and how close it is to the limit on DMARC report records. */
export function StorageCard() {
  const storage = useAccountStorage();
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h3">Storage</CardTitle>
        <CardDescription>What your account keeps. Delete old DMARC reports to make room for new ones.</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState
          query={storage}
          loading={<Skeleton className="h-10 w-full" aria-label="Loading storage" />}
          errorMessage={(error) => serverMessageOr(error, 'Unable to load your storage.')}
        >
          {({ dmarc }) => (
            <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm">
              <dt className="text-muted-foreground">DMARC reports</dt>
              <dd data-testid="storage-dmarc">
                {formatCount(dmarc.reports)} report{dmarc.reports === 1 ? '' : 's'}, {formatCount(dmarc.records)} of{' '}
                {formatCount(dmarc.recordLimit)} records ({formatBytes(dmarc.bytes)})
              </dd>
            </dl>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
