import { Link } from 'react-router';
import { PLAN_NAMES, planLiftingLimit, type PlanId, type PlanLimit, type UsageResponse } from '@contracts/plans';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Pill, type Tone } from '../../../components/ui/pill';
import { formatCount } from '../../../lib/format';
import { PATHS } from '../../../lib/paths';
import { cn } from '../../../lib/utils';

/** A count against its limit: 'good' below 80 %, 'warn' from 80 %, 'bad' at the limit or over it. */
export function usageTone(used: number, limit: number | null): Tone {
  if (limit === null) return 'good';
  if (limit === 0 || used >= limit) return 'bad';
  return used / limit >= 0.8 ? 'warn' : 'good';
}

const BAR: Record<Tone, string> = {
  good: 'bg-green-500',
  warn: 'bg-yellow-500',
  bad: 'bg-red-500',
  none: 'bg-muted-foreground',
};

function UsageRow({
  label,
  used,
  limit,
  plan,
  limitKey,
}: {
  label: string;
  used: number;
  limit: number | null;
  plan: PlanId;
  limitKey: PlanLimit;
}) {
  const tone = usageTone(used, limit);
  const width = limit === null ? 0 : limit === 0 ? 100 : Math.min(100, (used / limit) * 100);
  const lifting = limit !== null && used >= limit ? planLiftingLimit(plan, limitKey) : undefined;
  const text = `${formatCount(used)} of ${limit === null ? 'Unlimited' : formatCount(limit)}`;
  return (
    <li className="space-y-1.5" data-testid={`usage-${limitKey}`}>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <span className="font-medium">{label}</span>
        <span className="font-semibold" data-testid={`usage-${limitKey}-value`}>
          {text}
        </span>
      </div>
      {limit !== null && (
        <div
          role="meter"
          aria-label={label}
          aria-valuemin={0}
          aria-valuemax={limit}
          aria-valuenow={Math.min(used, limit)}
          aria-valuetext={text}
          className="h-2 overflow-hidden rounded-full bg-muted"
        >
          <div className={cn('h-full rounded-full', BAR[tone])} style={{ width: `${width}%` }} />
        </div>
      )}
      {lifting && (
        <p className="text-xs text-red-700">
          You have reached your plan&apos;s limit.{' '}
          <Link to={`${PATHS.pricing}?highlight=${lifting}`} className="font-medium underline underline-offset-4">
            The {PLAN_NAMES[lifting]} plan allows more
          </Link>
        </p>
      )}
    </li>
  );
}

/** Usage overview (part 2, section 2): real counts from GET /api/usage against the plan's limits; null = Unlimited. */
export function UsageOverview({ usage }: { usage: UsageResponse }) {
  const { plan, limits } = usage;
  const api = usage.features.includes('api_access');
  return (
    <Card data-testid="usage-overview">
      <CardHeader>
        <CardTitle className="text-lg">Usage</CardTitle>
        <CardDescription>What you use against what your plan allows.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <ul className="space-y-5">
          <UsageRow label="Domains" used={usage.usage.domains} limit={limits.domains} plan={plan} limitKey="domains" />
          <UsageRow
            label="Inbox tests this month"
            used={usage.usage.inboxTestsThisMonth}
            limit={limits.inboxTestsPerMonth}
            plan={plan}
            limitKey="inboxTestsPerMonth"
          />
          <UsageRow
            label="Emails this month"
            used={usage.usage.emailsThisMonth}
            limit={limits.emailsPerMonth}
            plan={plan}
            limitKey="emailsPerMonth"
          />
        </ul>
        <dl className="grid gap-4 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-muted-foreground">Alerts</dt>
            <dd className="text-lg font-semibold" data-testid="usage-alerts">
              {formatCount(usage.usage.alerts)}
            </dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Data retention</dt>
            <dd className="text-lg font-semibold" data-testid="usage-retention">
              {limits.retentionDays === null ? 'Unlimited' : `${formatCount(limits.retentionDays)} days`}
            </dd>
          </div>
          <div>
            <dt className="text-muted-foreground">API requests per hour</dt>
            <dd className="text-lg font-semibold" data-testid="usage-api">
              {!api ? (
                <Pill tone="none">Not included</Pill>
              ) : limits.apiRequestsPerHour === null ? (
                'Unlimited'
              ) : (
                formatCount(limits.apiRequestsPerHour)
              )}
            </dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}
