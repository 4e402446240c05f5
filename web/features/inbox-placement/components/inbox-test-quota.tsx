import { Link } from 'react-router';
import { PLAN_NAMES, planLiftingLimit, type UsageResponse } from '@contracts/plans';
import { nextMonthStart } from '@contracts/utc-day';
import { QueryState } from '../../../components/query-state';
import { formatCount, formatDate } from '../../../lib/format';
import { PATHS } from '../../../lib/paths';
import { useUsage } from '../../../lib/queries/usage';

const LINK = 'font-medium text-primary underline underline-offset-2';

/**
 * The month's inbox tests against the plan's (ADR 043): the counter the server claims when a test is
 * created, so a deleted test still counts, and the figure shown is the one enforced. Nothing on a
 * plan without a limit, or while the figure is unknown.
 */
export function InboxTestQuota() {
  return (
    <QueryState query={useUsage()} loading={null} failed={() => null}>
      {(usage) => <QuotaLine usage={usage} />}
    </QueryState>
  );
}

function QuotaLine({ usage: { plan, limits, usage } }: { usage: UsageResponse }) {
  const limit = limits.inboxTestsPerMonth;
  if (limit === null) return null;
  const used = usage.inboxTestsThisMonth;
  const lifter = planLiftingLimit(plan, 'inboxTestsPerMonth');
  return (
    <p className="text-sm text-muted-foreground" data-testid="inbox-test-quota" aria-live="polite">
      <span className="font-medium text-foreground">
        Inbox tests this month: {formatCount(used)} of {formatCount(limit)} used
      </span>
      {used >= limit && <> Your {PLAN_NAMES[plan]} plan’s inbox tests for this month are used up.</>} Deleted tests
      still count. The count starts again on {formatDate(nextMonthStart().toISOString(), { utc: true })}.
      {used >= limit && lifter && (
        <>
          {' '}
          <Link to={PATHS.pricing} className={LINK}>
            Upgrade to {PLAN_NAMES[lifter]}
          </Link>
        </>
      )}
    </p>
  );
}
