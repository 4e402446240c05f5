import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PeriodSelector } from '../../../components/period-selector';
import { QueryState } from '../../../components/query-state';
import { ContentSpinner } from '../../../components/ui/spinner';
import { serverMessageOr } from '../../../lib/api-client';
import { TIMELINE_PERIODS, type TimelinePeriod } from '../api';

interface TimelineFrameProps<T> {
  testId: string;
  /** What the timeline is of (a domain's name, an address), once the timeline has loaded. */
  subject: string | undefined;
  days: TimelinePeriod;
  onDays: (days: TimelinePeriod) => void;
  timeline: UseQueryResult<T>;
  children: (timeline: T) => ReactNode;
}

/** A timeline page's frame: its subject and period above the loading state, a load error or the timeline. */
export function TimelineFrame<T>({ testId, subject, days, onDays, timeline, children }: TimelineFrameProps<T>) {
  return (
    <div className="space-y-6" data-testid={testId} aria-busy={timeline.isFetching}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="min-w-0 text-lg font-semibold wrap-anywhere">{subject}</h2>
        <PeriodSelector periods={TIMELINE_PERIODS} value={days} onChange={onDays} label="Timeline period" />
      </div>
      <QueryState
        query={timeline}
        loading={<ContentSpinner label="Loading the timeline" />}
        errorVariant="card"
        errorMessage={(error) => serverMessageOr(error, 'Could not load the timeline.')}
      >
        {children}
      </QueryState>
    </div>
  );
}
