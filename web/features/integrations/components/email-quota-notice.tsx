import { AlertTriangle } from 'lucide-react';
import { Link } from 'react-router';
import { MTA_GUIDES } from '@content/docs/mta-integration';
import { PLAN_NAMES, planLiftingLimit, type EmailRefusal } from '@contracts/plans';
import { nextMonthStart } from '@contracts/utc-day';
import { formatCount, formatDate, formatDateTime } from '../../../lib/format';
import { PATHS } from '../../../lib/paths';
import { useUsage } from '../../../lib/queries/usage';

const LINK = 'font-medium text-primary underline underline-offset-2';

/** The names refusals are recorded under (ADR 043): an MTA, SMTP2GO's pushed days, or InboxPulse's own event routes. */
function sourceName(source: string): string {
  if (source === 'api') return 'InboxPulse API';
  if (source === 'smtp2go') return 'SMTP2GO';
  return MTA_GUIDES.find((guide) => guide.id === source)?.name ?? source;
}

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** "6,000 delivery events in 6 requests", or for refused day totals, which carry no event, "2 requests of day totals". */
function refusedInWords({ events, requests }: Pick<EmailRefusal, 'events' | 'requests'>): string {
  if (events === 0) return `${plural(requests, 'request', 'requests')} of day totals`;
  return `${plural(events, 'delivery event', 'delivery events')} in ${plural(requests, 'request', 'requests')}`;
}

/** This month's refusal of `source`, from the usage the page already reads; undefined when none. */
export function useEmailRefusal(source: string): EmailRefusal | undefined {
  return useUsage().data?.refusedThisMonth?.find((refusal) => refusal.source === source);
}

/** An MTA card's line: its own refusals this month. */
export function MtaRefusalLine({ refusal }: { refusal: EmailRefusal }) {
  return (
    <p className="text-xs font-medium text-destructive" data-testid="mta-quota-refused">
      {refusal.events === 0 ? refusedInWords(refusal) : plural(refusal.events, 'delivery event', 'delivery events')}{' '}
      refused this month for your plan’s e-mail limit, the last on {formatDateTime(refusal.lastAt)}.
    </p>
  );
}

/**
 * What the e-mail allowance refused this month, by source (ADR 043): the MTAs' logs have the 429's
 * words; this says the same to whoever looks at Integrations, with the month's count and the upgrade.
 */
export function EmailQuotaNotice() {
  const usage = useUsage();
  const refused = usage.data?.refusedThisMonth ?? [];
  if (!usage.data || refused.length === 0) return null;
  const { plan, limits } = usage.data;
  const limit = limits.emailsPerMonth;
  const counted = usage.data.usage.emailsThisMonth;
  const usedUp = limit !== null && counted >= limit;
  const lifter = planLiftingLimit(plan, 'emailsPerMonth');
  return (
    <div
      role="status"
      data-testid="email-quota-notice"
      className="space-y-2 rounded-md border border-destructive/40 bg-destructive/5 p-4 text-sm"
    >
      <p className="flex items-center gap-2 font-semibold">
        <AlertTriangle className="size-4 text-destructive" aria-hidden="true" />
        {usedUp
          ? `Delivery data refused: your ${PLAN_NAMES[plan]} plan’s emails for this month are used up`
          : 'Delivery data was refused earlier this month for your plan’s e-mail limit'}
      </p>
      {limit !== null && (
        <p>
          Your {PLAN_NAMES[plan]} plan allows {formatCount(limit)} emails per month and {formatCount(counted)} were
          counted this month (UTC).
        </p>
      )}
      <ul className="list-disc space-y-0.5 pl-5">
        {refused.map((refusal) => (
          <li key={refusal.source}>
            {sourceName(refusal.source)}: {refusedInWords(refusal)}, the last on {formatDateTime(refusal.lastAt)}.
          </li>
        ))}
      </ul>
      {usedUp && (
        <p>
          What your senders push is refused until the count starts again on{' '}
          {formatDate(nextMonthStart().toISOString(), { utc: true })}
          {lifter ? (
            <>
              , or at once after an upgrade.{' '}
              <Link to={PATHS.pricing} className={LINK}>
                Upgrade to {PLAN_NAMES[lifter]}
              </Link>
            </>
          ) : (
            '.'
          )}
        </p>
      )}
    </div>
  );
}
