import { useState } from 'react';
import { Inbox } from 'lucide-react';
import type { InboxTest } from '@contracts/inbox-tests';
import { QueryState } from '../../components/query-state';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { isUnauthorizedError } from '../../lib/api-client';
import { useInboxTestList, useSeedNetworkStatus } from './api';
import { CreateTestButton } from './components/create-test-button';
import { InboxTestQuota } from './components/inbox-test-quota';
import { DeleteTestDialog } from './components/delete-test-dialog';
import { HowItWorks } from './components/how-it-works';
import { InboxTestCard } from './components/inbox-test-card';
import { RegionTiles } from './components/region-tiles';
import { SeedNetworkBanner } from './components/seed-network-banner';
import { seedNetworkView } from './seed-network';
import { SignedOutNotice } from './signed-out-notice';

/** After the dialog closes, focus goes back to the test's delete button, or to Create Test when the test is gone. */
function returnFocusTo(id: number) {
  return (event: Event) => {
    const target =
      document.querySelector<HTMLElement>(`[data-delete-test="${id}"]`) ??
      document.querySelector<HTMLElement>('[data-testid="create-test"]');
    if (!target) return;
    event.preventDefault();
    target.focus();
  };
}

function TestList({ tests, onDelete }: { tests: InboxTest[]; onDelete: (test: InboxTest) => void }) {
  if (tests.length === 0) {
    return (
      <Card data-testid="inbox-tests-empty" className="flex flex-col items-center gap-3 px-4 py-12 text-center">
        <Inbox className="size-10 text-muted-foreground" aria-hidden="true" />
        <h3 className="text-lg font-semibold">No inbox tests yet</h3>
        <p className="max-w-md text-sm text-muted-foreground">
          Create a test, send your email to its address and see where it lands.
        </p>
      </Card>
    );
  }
  return (
    <ul aria-label="Your inbox tests" className="space-y-4">
      {tests.map((test) => (
        <li key={test.id}>
          <InboxTestCard test={test} onDelete={() => onDelete(test)} />
        </li>
      ))}
    </ul>
  );
}

/** Inbox Placement Testing (part 2, section 2); the shell shows its title and breadcrumb (router.tsx). */
export default function InboxPlacementPage() {
  const tests = useInboxTestList();
  const seedStatus = useSeedNetworkStatus();
  const [deleting, setDeleting] = useState<InboxTest | null>(null);
  const view = seedNetworkView({ data: seedStatus.data, isError: seedStatus.isError });

  if (tests.isError && isUnauthorizedError(tests.error)) {
    return (
      <div data-testid="inbox-placement-page">
        <SignedOutNotice />
      </div>
    );
  }

  return (
    <div data-testid="inbox-placement-page" className="min-w-0 space-y-6">
      <RegionTiles view={view} />
      <HowItWorks />
      <SeedNetworkBanner view={view} />
      <section aria-labelledby="inbox-tests-title" className="space-y-4">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h2 id="inbox-tests-title" className="text-xl font-semibold">
              Your inbox tests
            </h2>
            {tests.isSuccess && tests.data.length > 0 && (
              <p className="text-sm text-muted-foreground">
                {tests.data.length} {tests.data.length === 1 ? 'test' : 'tests'}
              </p>
            )}
            <InboxTestQuota />
          </div>
          <CreateTestButton />
        </div>
        <QueryState
          query={tests}
          loading={
            <div className="flex justify-center py-12">
              <Spinner className="size-8" label="Loading inbox tests" />
            </div>
          }
          errorMessage="Could not load your inbox tests."
          errorVariant="card"
        >
          {(list) => <TestList tests={list} onDelete={setDeleting} />}
        </QueryState>
      </section>
      {deleting && (
        <DeleteTestDialog
          test={deleting}
          open
          onOpenChange={(open) => !open && setDeleting(null)}
          onCloseAutoFocus={returnFocusTo(deleting.id)}
        />
      )}
    </div>
  );
}
