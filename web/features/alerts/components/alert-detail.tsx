import { Link } from 'react-router';
import { ArrowLeft, SearchX } from 'lucide-react';
import { ALERT_TYPE_LABELS, type Alert } from '@contracts/alerts';
import { QueryState } from '../../../components/query-state';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { ContentSpinner } from '../../../components/ui/spinner';
import { ApiError, serverMessageOr } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { PATHS } from '../../../lib/paths';
import { useAlert } from '../api';
import { AlertActions } from './alert-actions';
import { AlertHistory } from './alert-history';
import { AlertStatusLine } from './alert-status-line';
import { ListingMetadata, ListingMetadataView } from './listing-metadata';
import { MetadataPairs } from './metadata-pairs';
import { SeverityBadge, SeverityIcon } from './severity-badge';
import { ViewTimelineLink } from './view-timeline-link';

function BackToAlerts() {
  return (
    <Button asChild variant="outline" size="sm">
      <Link to={PATHS.alerts}>
        <ArrowLeft aria-hidden="true" />
        Back to Alerts
      </Link>
    </Button>
  );
}

function NotFound() {
  return (
    <Card data-testid="alert-not-found" className="flex flex-col items-center gap-3 px-4 py-12 text-center">
      <SearchX className="size-10 text-muted-foreground" aria-hidden="true" />
      <h2 className="text-lg font-semibold">Alert not found</h2>
      <p className="max-w-md text-sm text-muted-foreground">
        It may have been deleted, or the link is not one of your alerts.
      </p>
      <BackToAlerts />
    </Card>
  );
}

/** Blocklist and reputation alerts carry a check's answers; any other metadata is shown as pairs. */
function Metadata({ alert }: { alert: Alert }) {
  if (!alert.metadata || Object.keys(alert.metadata).length === 0) return null;
  const isListing =
    alert.type === 'blacklist_detection' || alert.type === 'reputation' || alert.type === 'reputation_decline';
  const listing = isListing ? ListingMetadata.safeParse(alert.metadata) : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{listing?.success ? 'Blocklist check' : 'Details'}</CardTitle>
      </CardHeader>
      <CardContent>
        {listing?.success ? (
          <ListingMetadataView metadata={listing.data} />
        ) : (
          <MetadataPairs metadata={alert.metadata} />
        )}
      </CardContent>
    </Card>
  );
}

/** The `?alertId=` view (part 2, section 2), fetched on its own so an alert the list no longer shows opens too. */
export function AlertDetail({ id, onDelete }: { id: number | null; onDelete: (alert: Alert) => void }) {
  const query = useAlert(id);
  if (id === null || (query.isError && query.error instanceof ApiError && query.error.status === 404))
    return <NotFound />;
  return (
    <QueryState
      query={query}
      loading={<ContentSpinner label="Loading the alert" />}
      errorVariant="card"
      errorMessage={(error) => serverMessageOr(error, 'Could not load this alert.')}
    >
      {(alert) => <AlertView alert={alert} onDelete={onDelete} />}
    </QueryState>
  );
}

function AlertView({ alert, onDelete }: { alert: Alert; onDelete: (alert: Alert) => void }) {
  return (
    <div className="space-y-4" data-testid="alert-detail" data-alert-id={alert.id}>
      <BackToAlerts />
      <Card>
        <CardHeader className="space-y-3">
          <div className="flex items-start gap-3">
            <SeverityIcon severity={alert.severity} className="mt-1" />
            <div className="min-w-0 flex-1 space-y-2">
              <div className="flex flex-wrap items-center gap-2">
                <CardTitle as="h2" className="min-w-0 text-lg wrap-anywhere">
                  {alert.title}
                </CardTitle>
                <SeverityBadge severity={alert.severity} />
              </div>
              <p className="text-xs text-muted-foreground">
                {ALERT_TYPE_LABELS[alert.type]} · raised {formatDateTime(alert.createdAt)}
                {alert.updatedAt && ` · updated ${formatDateTime(alert.updatedAt)}`}
                {alert.resolvedAt && ` · resolved ${formatDateTime(alert.resolvedAt)}`}
              </p>
            </div>
          </div>
        </CardHeader>
        <CardContent className="space-y-3">
          <p className="text-sm wrap-anywhere">{alert.message}</p>
          <AlertStatusLine alert={alert} />
          <div className="flex flex-wrap items-center gap-2">
            <ViewTimelineLink alert={alert} />
            <AlertActions alert={alert} onDelete={onDelete} />
          </div>
        </CardContent>
      </Card>
      <Metadata alert={alert} />
      <Card>
        <CardHeader>
          <CardTitle className="text-base">History</CardTitle>
        </CardHeader>
        <CardContent>
          <AlertHistory history={alert.history} />
        </CardContent>
      </Card>
    </div>
  );
}
