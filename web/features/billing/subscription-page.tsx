import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { QueryState } from '../../components/query-state';
import { Skeleton } from '../../components/ui/skeleton';
import { serverMessageOr } from '../../lib/api-client';
import { useRefreshAfterPlanChange, useSubscription, useUsage } from './api';
import { BillingHistory } from './components/billing-history';
import { CurrentPlanCard } from './components/current-plan-card';
import { PaymentNotices, readReturnMarker, ReturnNotice } from './components/subscription-notices';
import { UsageOverview } from './components/usage-overview';

/** The usage card: real counts, or the reason they could not be loaded. */
function Usage() {
  const usage = useUsage();
  return (
    <QueryState
      query={usage}
      loading={<Skeleton className="h-64 w-full" />}
      errorVariant="card"
      errorMessage={(error) => serverMessageOr(error, 'Your usage could not be loaded.')}
    >
      {(data) => <UsageOverview usage={data} />}
    </QueryState>
  );
}

/**
 * /subscription (part 2, section 2): the current plan with its status badge, next billing date and
 * actions, the payment notices, usage against the plan's limits and the billing history. The shell
 * shows its title (router.tsx).
 */
export default function SubscriptionPage() {
  const [params, setParams] = useSearchParams();
  const marker = readReturnMarker(params);
  const subscription = useSubscription({ awaitingPayment: marker?.kind === 'payment' });
  const refresh = useRefreshAfterPlanChange();
  const status = subscription.data?.subscription.status;

  // Back from checkout: what the payment changed (the plan in the header, the gates, the limits) is
  // asked for again on arrival, and once more when the subscription turns active.
  const returned = marker !== null;
  useEffect(() => {
    if (returned) void refresh();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on arrival and on activation only
  }, [returned, status === 'active']);

  const dismiss = () => setParams({}, { replace: true });

  return (
    <div data-testid="subscription-page" className="space-y-6">
      <QueryState
        query={subscription}
        loading={<Skeleton className="h-56 w-full" />}
        errorVariant="card"
        errorMessage={(error) => serverMessageOr(error, 'Your subscription could not be loaded.')}
      >
        {(data) => (
          <>
            <ReturnNotice marker={marker} subscription={data.subscription} onDismiss={dismiss} />
            <PaymentNotices subscription={data.subscription} />
            <CurrentPlanCard data={data} />
          </>
        )}
      </QueryState>
      <Usage />
      {subscription.data && <BillingHistory mode={subscription.data.billing.mode} />}
    </div>
  );
}
