import { lazy, Suspense, useId, useState } from 'react';
import { ChevronDown, ChevronUp, Clock } from 'lucide-react';
import { expectedCompletion, type InboxTest } from '@contracts/inbox-tests';
import { DeleteIconButton } from '../../../components/delete-icon-button';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime } from '../../../lib/format';
import { testSubject } from '../test-status';
import { TestInstructions } from './test-instructions';
import { TestStatusBadge } from './test-status-badge';

// The expanded parts are the heavy ones (tables, the analysis): fetched when first opened.
const TestResultsPanel = lazy(() => import('./test-results-panel'));
const MessageAnalysis = lazy(() => import('./message-analysis'));

const loading = <Spinner className="size-5" label="Loading" />;

function StatusNote({ test }: { test: InboxTest }) {
  if (test.status === 'awaiting_email') {
    return (
      <p className="flex items-start gap-2 text-sm text-muted-foreground">
        <Clock className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        Waiting for your email. This page checks for it every few seconds.
      </p>
    );
  }
  if (test.status === 'running') {
    return (
      <p className="flex items-start gap-2 text-sm text-yellow-800">
        <Clock className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        Test in progress... Expected completion in {expectedCompletion(test.placementWindowMinutes)}
      </p>
    );
  }
  if (test.status === 'failed') {
    return (
      <p
        role="alert"
        className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900"
        data-testid={`inbox-test-failure-${test.id}`}
      >
        {test.failureReason ?? 'The test failed.'}
      </p>
    );
  }
  if (test.status === 'completed') {
    return (
      <p className="text-sm text-muted-foreground">
        Completed {formatDateTime(test.completedAt)}: {test.inboxCount} inbox, {test.spamCount} spam,{' '}
        {test.missingCount} missing of {test.totalSeeds} {test.totalSeeds === 1 ? 'seed' : 'seeds'}
        {test.score !== null && ` · score ${Math.round(test.score * 10) / 10}/10`}
      </p>
    );
  }
  return null;
}

/** One test (part 2, section 2): status, creation date, sending instructions, results and delete. */
export function InboxTestCard({ test, onDelete }: { test: InboxTest; onDelete: () => void }) {
  const [expanded, setExpanded] = useState(false);
  const resultsId = useId();
  const subject = testSubject(test);
  const open = expanded && test.status === 'completed';

  return (
    <Card data-testid={`inbox-test-${test.id}`}>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3 space-y-0 p-4 sm:p-6">
        <div className="min-w-0 space-y-1">
          <CardTitle as="h3" className="text-lg [overflow-wrap:anywhere]">
            {subject}
          </CardTitle>
          <p className="text-sm text-muted-foreground">
            Test #{test.id} · Created {formatDateTime(test.createdAt)}
            {test.provider && ` · sent through ${test.provider}`}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <TestStatusBadge test={test} />
          <DeleteIconButton aria-label={`Delete test ${test.id}`} data-delete-test={test.id} onClick={onDelete} />
        </div>
      </CardHeader>
      <CardContent className="space-y-4 p-4 pt-0 sm:p-6 sm:pt-0">
        <StatusNote test={test} />
        <TestInstructions test={test} />
        {test.status === 'running' && (
          <Suspense fallback={loading}>
            <MessageAnalysis testId={test.id} waiting />
          </Suspense>
        )}
        {test.status === 'completed' && (
          <Button
            variant="outline"
            size="sm"
            data-testid={`view-results-${test.id}`}
            aria-label={`${open ? 'Hide Results' : 'View Results'} of test ${test.id}`}
            aria-expanded={open}
            aria-controls={open ? resultsId : undefined}
            onClick={() => setExpanded((value) => !value)}
          >
            {open ? <ChevronUp aria-hidden="true" /> : <ChevronDown aria-hidden="true" />}
            {open ? 'Hide Results' : 'View Results'}
          </Button>
        )}
        {open && (
          <Suspense fallback={loading}>
            <TestResultsPanel test={test} id={resultsId} />
          </Suspense>
        )}
      </CardContent>
    </Card>
  );
}
