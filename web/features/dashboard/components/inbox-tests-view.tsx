import { useState } from 'react';
import { Clock, Globe2, Inbox, MailX, ShieldAlert } from 'lucide-react';
import { Link } from 'react-router';
import { expectedCompletion, type InboxTest } from '@contracts/inbox-tests';
import { percentOf } from '@contracts/figures';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DeleteIconButton } from '../../../components/delete-icon-button';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { formatRate, inboxRateTone, relativeAge, spamRateTone, type Tone } from '../../../lib/format';
import { cn } from '../../../lib/utils';
import { PATHS } from '../../../lib/paths';
import { useDeleteInboxTestMutation } from '../../../lib/queries/inbox-tests';
import {
  GLOBAL_PROVIDERS,
  INBOX_TEST_STATUS_LABELS,
  inboxTestStatusTone,
  inboxTestTitle,
  latest,
  NO_DATA,
  overallDeliverabilityRating,
  summarizeInboxTests,
  type InboxTestSummary,
} from '../metrics';
import { EmptyState, StatCard, TONE_TEXT, ToneBadge } from './parts';

const pct = (value: number | null) => (value === null ? NO_DATA : formatRate(value));

/** A count of seeds coloured by the rate it makes (thresholds in web/lib/format.ts). */
function SeedCount({ count, total, tone }: { count: number; total: number; tone: Tone }) {
  return (
    <dd className={cn('font-semibold', TONE_TEXT[tone])} data-tone={tone}>
      {count}/{total}
    </dd>
  );
}

function TestRow({ test, onDelete }: { test: InboxTest; onDelete: () => void }) {
  const title = inboxTestTitle(test);
  return (
    <li className="space-y-2 rounded-lg border p-4" data-testid={`inbox-test-${test.id}`}>
      <div className="flex items-start gap-3">
        {/* A subject is read whole: it wraps, however long, rather than being cut on a phone. */}
        <div className="min-w-0 flex-1 space-y-1">
          <p className="font-medium wrap-anywhere">{title}</p>
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground">
            <ToneBadge tone={inboxTestStatusTone(test.status)}>{INBOX_TEST_STATUS_LABELS[test.status]}</ToneBadge>
            <span className="wrap-anywhere">
              {test.provider ?? (test.status === 'completed' ? 'Provider not detected' : 'Provider not detected yet')} ·{' '}
              {relativeAge(test.createdAt)}
            </span>
          </div>
        </div>
        <DeleteIconButton aria-label={`Delete ${title}`} onClick={onDelete} />
      </div>
      {test.status === 'completed' && (
        <dl className="grid grid-cols-3 gap-2 text-sm" data-testid={`inbox-test-${test.id}-results`}>
          <div>
            <dt className="text-muted-foreground">Inbox</dt>
            <SeedCount
              count={test.inboxCount}
              total={test.totalSeeds}
              tone={inboxRateTone(percentOf(test.inboxCount, test.totalSeeds))}
            />
          </div>
          <div>
            <dt className="text-muted-foreground">Spam</dt>
            <SeedCount
              count={test.spamCount}
              total={test.totalSeeds}
              tone={spamRateTone(percentOf(test.spamCount, test.totalSeeds))}
            />
          </div>
          <div>
            <dt className="text-muted-foreground">Missing</dt>
            <dd className="font-semibold text-muted-foreground">
              {test.missingCount}/{test.totalSeeds}
            </dd>
          </div>
        </dl>
      )}
      {test.status === 'running' && (
        <p className="flex items-center gap-2 text-sm text-yellow-700">
          <Clock className="size-4" aria-hidden="true" />
          Test in progress... Expected completion in {expectedCompletion(test.placementWindowMinutes)}
        </p>
      )}
    </li>
  );
}

function GlobalProviderPerformance({ average }: { average: NonNullable<InboxTestSummary['average']> }) {
  const overall = overallDeliverabilityRating(average.inboxRate);
  return (
    <Card data-testid="global-provider-performance">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <Globe2 className="size-5 text-primary" aria-hidden="true" />
          Global Provider Performance
        </CardTitle>
        <CardDescription>Average of your completed tests across the seed network</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
          <div>
            <dt className="text-xs text-muted-foreground">Average Inbox Rate</dt>
            <dd
              className={cn('text-xl font-bold', TONE_TEXT[inboxRateTone(average.inboxRate)])}
              data-testid="average-inbox-rate"
              data-tone={inboxRateTone(average.inboxRate)}
            >
              {formatRate(average.inboxRate)}
            </dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Average Spam Rate</dt>
            <dd
              className={cn('text-xl font-bold', TONE_TEXT[spamRateTone(average.spamRate)])}
              data-testid="average-spam-rate"
              data-tone={spamRateTone(average.spamRate)}
            >
              {formatRate(average.spamRate)}
            </dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Average Missing Rate</dt>
            <dd className="text-xl font-bold text-muted-foreground">{formatRate(average.missingRate)}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Global Providers</dt>
            <dd className="text-xl font-bold" data-testid="global-providers">
              {GLOBAL_PROVIDERS}
            </dd>
          </div>
        </dl>
        <div className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-muted/60 p-3">
          <span className="text-sm font-medium">Overall Email Deliverability</span>
          <span className={`font-semibold ${TONE_TEXT[overall.tone]}`} data-testid="overall-deliverability">
            {overall.label}
          </span>
        </div>
      </CardContent>
    </Card>
  );
}

/** Inbox tests view (part 1, 2.8). */
export function InboxTestsView({ tests }: { tests: InboxTest[] }) {
  const deleteTest = useDeleteInboxTestMutation();
  const [confirming, setConfirming] = useState<InboxTest | null>(null);

  if (tests.length === 0) {
    return (
      <Card data-testid="dashboard-view-inbox-tests">
        <EmptyState
          icon={Inbox}
          title="No Inbox Tests Available"
          description="Run an inbox placement test to see whether your email reaches the inbox, the spam folder or goes missing."
        >
          <Button asChild>
            <Link to={PATHS.inboxPlacement}>Run Inbox Test</Link>
          </Button>
        </EmptyState>
      </Card>
    );
  }

  const summary = summarizeInboxTests(tests);
  const remove = (test: InboxTest) =>
    deleteTest.mutate(test.id, {
      onSuccess: () => {
        setConfirming(null);
        toast({ title: 'Test Deleted', description: `${inboxTestTitle(test)} was deleted.` });
      },
      onError: (error) =>
        toast({ title: 'Error', description: serverMessageOr(error, 'Failed to delete test'), variant: 'destructive' }),
    });

  return (
    <div data-testid="dashboard-view-inbox-tests" className="space-y-6">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard
          title="Overall Inbox Rate"
          icon={Inbox}
          testId="tests-inbox-rate"
          value={pct(summary.inboxRate)}
          tone={inboxRateTone(summary.inboxRate)}
          note={`Across ${summary.totalSeeds} ${summary.totalSeeds === 1 ? 'seed' : 'seeds'} of completed tests`}
        />
        <StatCard
          title="Spam Rate"
          icon={ShieldAlert}
          testId="tests-spam-rate"
          value={pct(summary.spamRate)}
          tone={spamRateTone(summary.spamRate)}
        />
        <StatCard title="Missing Rate" icon={MailX} testId="tests-missing-rate" value={pct(summary.missingRate)} />
        <StatCard
          title="Active Tests"
          icon={Clock}
          testId="tests-active"
          value={summary.running}
          note={`${summary.running} running · ${summary.completed} complete`}
        />
      </div>

      <Card>
        <CardHeader>
          <CardTitle className="text-lg">Recent Inbox Tests</CardTitle>
          <CardDescription>Your latest inbox placement tests</CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="space-y-3">
            {latest(tests).map((test) => (
              <TestRow key={test.id} test={test} onDelete={() => setConfirming(test)} />
            ))}
          </ul>
        </CardContent>
      </Card>

      {summary.average && <GlobalProviderPerformance average={summary.average} />}

      {confirming && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setConfirming(null)}
          title="Delete Inbox Test"
          description={`Are you sure you want to delete test #${confirming.id} (${inboxTestTitle(confirming)})? Its results and message analysis are removed. This cannot be undone.`}
          pending={deleteTest.isPending}
          onConfirm={() => remove(confirming)}
          testId="delete-inbox-test-dialog"
        />
      )}
    </div>
  );
}
