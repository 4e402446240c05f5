import { CalendarClock } from 'lucide-react';
import { useParams, useSearchParams } from 'react-router';
import type { DomainTimeline } from '@contracts/timeline';
import { DomainNotFound } from '../../components/domain-not-found';
import { QueryState } from '../../components/query-state';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { ApiError, serverMessageOr } from '../../lib/api-client';
import { usePageTrail } from '../../lib/page-trail';
import { PATHS } from '../../lib/paths';
import { useDiagnosis, useTimeline, type TimelinePeriod } from './api';
import { DEFAULT_PERIOD, idOf, periodOf } from './route-params';
import { ChartCard } from './components/chart-card';
import { EventList } from './components/event-list';
import { NoteForm } from './components/note-form';
import { TimelineFrame } from './components/timeline-frame';
import { WhyPanel } from './components/why-panel';

function EventsCard({ timeline, days }: { timeline: DomainTimeline; days: number }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Events</CardTitle>
        <CardDescription>
          DNS changes and failed checks, blocklist listings, new failing DMARC sources, inbox tests, integration errors,
          detected drops and your notes.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <NoteForm domainId={timeline.domain.id} />
        {timeline.events.length > 0 ? (
          <EventList domainId={timeline.domain.id} events={timeline.events} />
        ) : (
          <p
            className="flex items-center gap-2 border-t pt-4 text-sm text-muted-foreground"
            data-testid="timeline-no-events"
          >
            <CalendarClock className="size-4 shrink-0" aria-hidden="true" />
            Nothing happened to {timeline.domain.name} in the last {days} days that InboxPulse knows of.
          </p>
        )}
      </CardContent>
    </Card>
  );
}

function Diagnosis({ diagnosis, days }: { diagnosis: ReturnType<typeof useDiagnosis>; days: number }) {
  return (
    <QueryState
      query={diagnosis}
      loading={
        <Card className="flex justify-center py-10">
          <Spinner className="size-6" label="Looking for drops and their causes" />
        </Card>
      }
      errorMessage={(error) => serverMessageOr(error, 'Could not load the diagnosis.')}
      errorVariant="card"
    >
      {(data) => <WhyPanel drops={data.drops} days={days} />}
    </QueryState>
  );
}

function DomainTimelineView({
  domainId,
  days,
  onDays,
}: {
  domainId: number;
  days: TimelinePeriod;
  onDays: (days: TimelinePeriod) => void;
}) {
  // Both asked for at once: the diagnosis need not wait for the chart.
  const timeline = useTimeline(domainId, days);
  const diagnosis = useDiagnosis(domainId, days);
  const name = timeline.data?.domain.name;
  usePageTrail(name ? [{ label: 'Domains', to: PATHS.domains }, { label: name }, { label: 'Timeline' }] : null);

  if (timeline.isError && timeline.error instanceof ApiError && timeline.error.status === 404)
    return <DomainNotFound testId="timeline-not-found" />;
  return (
    <TimelineFrame testId="timeline-page" subject={name} days={days} onDays={onDays} timeline={timeline}>
      {(data) => (
        <>
          <ChartCard timeline={data} subject={data.domain.name} days={days} />
          <Diagnosis diagnosis={diagnosis} days={days} />
          <EventsCard timeline={data} days={days} />
        </>
      )}
    </TimelineFrame>
  );
}

/** A domain's deliverability timeline (issue 19): /domains/:id/timeline?days=7|30|90. */
export default function TimelinePage() {
  const params = useParams();
  const [search, setSearch] = useSearchParams();
  const domainId = idOf(params.id);
  const days = periodOf(search.get('days'));
  if (domainId === null) return <DomainNotFound testId="timeline-not-found" />;
  // Keyed by the domain: another domain's figures are never shown under this one while its own load.
  return (
    <DomainTimelineView
      key={domainId}
      domainId={domainId}
      days={days}
      onDays={(next) => setSearch(next === DEFAULT_PERIOD ? {} : { days: String(next) }, { replace: true })}
    />
  );
}
