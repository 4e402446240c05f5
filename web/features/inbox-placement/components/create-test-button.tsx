import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { InboxTest } from '@contracts/inbox-tests';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { PATHS } from '../../../lib/paths';
import { useDomains } from '../../../lib/queries/domains';
import { useCreateInboxTestMutation } from '../api';

export const NO_HEALTHY_DOMAIN_HINT = 'Add and verify at least one domain to start testing';
export const ONE_CLICK_TEST_LABEL = 'Test the one-click unsubscribe link (sends the RFC 8058 POST)';

const hintLink = 'font-medium text-primary underline underline-offset-2';

/**
 * Create Test (part 2, section 2): disabled while a creation runs and when the user has no domain
 * with status healthy. Until the domains have loaded nobody knows, so it waits disabled too. Disabled
 * for want of a healthy domain, it says so (the spec's hint), what is wrong, and links to Domains,
 * where it is fixed: add a domain, or see why the ones added do not pass yet. The checkbox beside it lets the user
 * keep InboxPulse from posting to the message's one-click unsubscribe link (on by default).
 */
export function CreateTestButton({ onCreated }: { onCreated?: (test: InboxTest) => void }) {
  const domains = useDomains();
  const create = useCreateInboxTestMutation();
  const [oneClickUnsubscribeTest, setOneClickUnsubscribeTest] = useState(true);
  const hasHealthyDomain = domains.data?.some((domain) => domain.status === 'healthy') ?? false;
  // A failed domain list must not lock the user out: the server checks the same rule and says why.
  const blocked = domains.isSuccess && !hasHealthyDomain;
  const disabled = create.isPending || domains.isPending || blocked;
  const domainCount = domains.data?.length ?? 0;

  function run() {
    create.mutate(
      { oneClickUnsubscribeTest },
      {
        onSuccess: (test) => {
          toast({
            title: 'Test Created',
            description: `Send your email to ${test.testEmailAddress} with ${test.subjectTag} in the subject.`,
          });
          onCreated?.(test);
        },
        onError: (error) =>
          toast({
            title: 'Error',
            description: serverMessageOr(error, 'Failed to create test'),
            variant: 'destructive',
          }),
      },
    );
  }

  return (
    <div className="flex flex-col items-start gap-1 sm:items-end">
      <Button
        data-testid="create-test"
        onClick={run}
        disabled={disabled}
        aria-describedby={blocked ? 'create-test-hint' : undefined}
      >
        <Plus aria-hidden="true" />
        {create.isPending ? 'Creating...' : 'Create Test'}
      </Button>
      <label className="flex max-w-xs items-start gap-2 text-xs text-muted-foreground sm:text-right">
        <input
          type="checkbox"
          data-testid="one-click-unsubscribe-test"
          className="mt-0.5 accent-primary"
          checked={oneClickUnsubscribeTest}
          onChange={(event) => setOneClickUnsubscribeTest(event.target.checked)}
          disabled={create.isPending}
        />
        <span>{ONE_CLICK_TEST_LABEL}</span>
      </label>
      {blocked && (
        <p
          id="create-test-hint"
          className="flex max-w-xs flex-col gap-0.5 text-xs text-muted-foreground sm:items-end sm:text-right"
        >
          <span>{NO_HEALTHY_DOMAIN_HINT}</span>
          {domainCount === 0 ? (
            <Link to={PATHS.domains} className={hintLink}>
              Add your domain in Domains
            </Link>
          ) : (
            <span>
              {domainCount === 1
                ? 'Your domain does not pass SPF, DKIM and DMARC yet.'
                : 'None of your domains passes SPF, DKIM and DMARC yet.'}{' '}
              <Link to={PATHS.domains} className={hintLink}>
                See what to fix in Domains
              </Link>
            </span>
          )}
        </p>
      )}
    </div>
  );
}
