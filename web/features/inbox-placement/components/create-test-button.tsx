import { Plus } from 'lucide-react';
import type { InboxTest } from '@contracts/inbox-tests';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { useDomains } from '../../../lib/queries/domains';
import { useCreateInboxTestMutation } from '../api';

export const NO_HEALTHY_DOMAIN_HINT = 'Add and verify at least one domain to start testing';

/**
 * Create Test (part 2, section 2): disabled while a creation runs and when the user has no domain
 * with status healthy. Until the domains have loaded nobody knows, so it waits disabled too.
 */
export function CreateTestButton({ onCreated }: { onCreated?: (test: InboxTest) => void }) {
  const domains = useDomains();
  const create = useCreateInboxTestMutation();
  const hasHealthyDomain = domains.data?.some((domain) => domain.status === 'healthy') ?? false;
  // A failed domain list must not lock the user out: the server checks the same rule and says why.
  const blocked = domains.isSuccess && !hasHealthyDomain;
  const disabled = create.isPending || domains.isPending || blocked;

  function run() {
    create.mutate(undefined, {
      onSuccess: (test) => {
        toast({ title: 'Test Created', description: `Send your email to ${test.testEmailAddress} with ${test.subjectTag} in the subject.` });
        onCreated?.(test);
      },
      onError: (error) => toast({ title: 'Error', description: serverMessageOr(error, 'Failed to create test'), variant: 'destructive' }),
    });
  }

  return (
    <div className="flex flex-col items-start gap-1 sm:items-end">
      <Button data-testid="create-test" onClick={run} disabled={disabled} aria-describedby={blocked ? 'create-test-hint' : undefined}>
        <Plus aria-hidden="true" />
        {create.isPending ? 'Creating...' : 'Create Test'}
      </Button>
      {blocked && (
        <p id="create-test-hint" className="text-xs text-muted-foreground">
          {NO_HEALTHY_DOMAIN_HINT}
        </p>
      )}
    </div>
  );
}
