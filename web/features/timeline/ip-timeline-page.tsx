import { ArrowLeft, CalendarClock, SearchX } from 'lucide-react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { ApiError } from '../../lib/api-client';
import { usePageTrail } from '../../lib/page-trail';
import { PATHS } from '../../lib/paths';
import { useIpTimeline, type TimelinePeriod } from './api';
import { ChartCard } from './components/chart-card';
import { EventItems } from './components/event-list';
import { TimelineFrame } from './components/timeline-frame';
import { DEFAULT_PERIOD, idOf, periodOf } from './route-params';
import { SERIES_SOURCES } from './series';

// What feeds an IP's series: the bounce and complaint rates of the events and statistics that name it.
const IP_SOURCES = SERIES_SOURCES.filter((source) => source.id === 'rates');

function IpNotFound() {
  return (
    <Card data-testid="timeline-not-found" className="flex flex-col items-center gap-3 px-4 py-12 text-center">
      <SearchX className="size-10 text-muted-foreground" aria-hidden="true" />
      <h2 className="text-lg font-semibold">IP address not found</h2>
      <p className="max-w-md text-sm text-muted-foreground">
        It may have been deleted, or the link is not one of your IP addresses.
      </p>
      <Button asChild variant="outline">
        <Link to={PATHS.reputation}>
          <ArrowLeft aria-hidden="true" />
          Back to Reputation
        </Link>
      </Button>
    </Card>
  );
}

function IpTimelineView({
  ipId,
  days,
  onDays,
}: {
  ipId: number;
  days: TimelinePeriod;
  onDays: (days: TimelinePeriod) => void;
}) {
  const timeline = useIpTimeline(ipId, days);
  const address = timeline.data?.ip.address;
  usePageTrail(
    address ? [{ label: 'Reputation', to: PATHS.reputation }, { label: address }, { label: 'Timeline' }] : null,
  );

  if (timeline.isError && timeline.error instanceof ApiError && timeline.error.status === 404) return <IpNotFound />;
  return (
    <TimelineFrame testId="ip-timeline-page" subject={address} days={days} onDays={onDays} timeline={timeline}>
      {(data) => (
        <>
          <ChartCard timeline={data} subject={data.ip.address} days={days} sources={IP_SOURCES} />
          <Card>
            <CardHeader>
              <CardTitle className="text-lg">Events</CardTitle>
              <CardDescription>Blocklist listings and delistings of this address.</CardDescription>
            </CardHeader>
            <CardContent>
              {data.events.length > 0 ? (
                <EventItems events={data.events} />
              ) : (
                <p className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="timeline-no-events">
                  <CalendarClock className="size-4 shrink-0" aria-hidden="true" />
                  Nothing happened to {data.ip.address} in the last {days} days that InboxPulse knows of.
                </p>
              )}
            </CardContent>
          </Card>
        </>
      )}
    </TimelineFrame>
  );
}

/** A sending IP's timeline (issue 19): /reputation/ips/:id/timeline?days=7|30|90. */
export default function IpTimelinePage() {
  const params = useParams();
  const [search, setSearch] = useSearchParams();
  const ipId = idOf(params.id);
  const days = periodOf(search.get('days'));
  if (ipId === null) return <IpNotFound />;
  return (
    <IpTimelineView
      key={ipId}
      ipId={ipId}
      days={days}
      onDays={(next) => setSearch(next === DEFAULT_PERIOD ? {} : { days: String(next) }, { replace: true })}
    />
  );
}
