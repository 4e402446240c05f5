import { TriangleAlert } from 'lucide-react';
import {
  GOOGLE_NOT_CONFIGURED,
  latestDays,
  REPUTATION_LABELS,
  ReputationCategory,
  type PostmasterDay,
} from '@contracts/postmaster';
import { ConnectGoogleButton } from '../../../components/connect-google-button';
import { QueryState } from '../../../components/query-state';
import { TONE_TEXT } from '../../../components/tone';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate, type Tone } from '../../../lib/format';
import { usePostmasterStats, usePostmasterStatus } from '../../../lib/queries/postmaster';
import { cn } from '../../../lib/utils';

const DAYS = 30;
const TONES: Record<ReputationCategory, Tone> = { HIGH: 'good', MEDIUM: 'warn', LOW: 'bad', BAD: 'bad' };
const CATEGORIES = ReputationCategory.options;

/** "2 High · 1 Low": how many of the domain's sending IPs Gmail puts in each category. */
function ipSummary(day: PostmasterDay): string {
  const counts = CATEGORIES.map(
    (category) =>
      [
        category,
        day.ipReputations.filter((r) => r.reputation === category).reduce((n, r) => n + r.ipCount, 0),
      ] as const,
  );
  const parts = counts.filter(([, n]) => n > 0).map(([category, n]) => `${n} ${REPUTATION_LABELS[category]}`);
  return parts.length > 0 ? parts.join(' · ') : 'No data';
}

/** "High 25 days · Medium 3 days" over the period. */
function history(days: PostmasterDay[]): string {
  const parts = CATEGORIES.map(
    (category) => [category, days.filter((d) => d.domainReputation === category).length] as const,
  )
    .filter(([, n]) => n > 0)
    .map(([category, n]) => `${REPUTATION_LABELS[category]} ${n} ${n === 1 ? 'day' : 'days'}`);
  return parts.length > 0 ? parts.join(' · ') : 'No reputation reported';
}

function DomainRows({ days }: { days: PostmasterDay[] }) {
  return (
    <ul className="divide-y">
      {latestDays(days).map((latest) => {
        // The most recent day Google rated the domain (a day may carry figures without a reputation).
        const rated = days.filter((d) => d.domain === latest.domain && d.domainReputation !== null).at(-1);
        const reputation = rated?.domainReputation ?? null;
        const tone = reputation ? TONES[reputation] : 'none';
        return (
          <li
            key={latest.domain}
            data-testid="postmaster-reputation-row"
            data-domain={latest.domain}
            className="space-y-1 py-3"
          >
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h3 className="min-w-0 font-medium wrap-anywhere">{latest.domain}</h3>
              <p
                data-testid="postmaster-domain-reputation"
                data-tone={tone}
                className={cn('font-semibold', TONE_TEXT[tone])}
              >
                {reputation ? `${REPUTATION_LABELS[reputation]} at Gmail` : 'Not rated by Gmail'}
              </p>
            </div>
            <dl className="grid grid-cols-1 gap-1 text-sm sm:grid-cols-3">
              <div className="flex gap-1">
                <dt className="text-muted-foreground">As of:</dt>
                <dd>{rated ? formatDate(rated.date, { utc: true }) : 'N/A'}</dd>
              </div>
              <div className="flex gap-1">
                <dt className="text-muted-foreground">Sending IPs:</dt>
                <dd>{ipSummary(latest)}</dd>
              </div>
              <div className="flex gap-1">
                <dt className="text-muted-foreground">Last {DAYS} days:</dt>
                <dd>{history(days.filter((d) => d.domain === latest.domain))}</dd>
              </div>
            </dl>
          </li>
        );
      })}
    </ul>
  );
}

function Figures() {
  const stats = usePostmasterStats(DAYS, true);
  return (
    <QueryState
      query={stats}
      loading={<Spinner className="size-6" label="Loading Gmail reputation" />}
      errorMessage="Could not load Gmail's reputation figures."
      isEmpty={(data) => data.days.length === 0}
      empty={
        <p className="text-sm text-muted-foreground" data-testid="postmaster-reputation-empty">
          No Gmail reputation for the last {DAYS} days yet: Google rates a domain only on days it receives a substantial
          volume of mail from it. Imports run daily.
        </p>
      }
    >
      {(data) => <DomainRows days={data.days} />}
    </QueryState>
  );
}

/** Domain and IP reputation per domain as Gmail rates them, from Google Postmaster Tools. */
export function PostmasterReputationCard() {
  const status = usePostmasterStatus();
  return (
    <Card data-testid="postmaster-reputation">
      <CardHeader>
        <CardTitle className="text-lg">Gmail Reputation</CardTitle>
        <CardDescription>
          Each domain's reputation and its sending IPs' as Gmail rates them (High, Medium, Low, Bad), from Google
          Postmaster Tools.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <QueryState
          query={status}
          loading={<Spinner className="size-6" label="Loading Google Postmaster Tools" />}
          errorMessage="Could not load Google Postmaster Tools."
        >
          {({ state, lastError }) => (
            <>
              {state === 'not_configured' && <p className="text-sm text-muted-foreground">{GOOGLE_NOT_CONFIGURED}</p>}
              {state === 'not_connected' && (
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <p className="max-w-xl text-sm text-muted-foreground">
                    Not connected. Connect the Google account that verified your domains in Postmaster Tools to see how
                    Gmail rates them.
                  </p>
                  <ConnectGoogleButton />
                </div>
              )}
              {state === 'needs_reconnect' && (
                <div
                  role="status"
                  className="flex flex-wrap items-start gap-3 rounded-md border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-900"
                >
                  <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                  <p className="min-w-0 flex-1">
                    {lastError ?? 'Google no longer gives InboxPulse access to Postmaster Tools. Connect again.'}
                  </p>
                  <ConnectGoogleButton reconnect />
                </div>
              )}
              {(state === 'connected' || state === 'needs_reconnect') && <Figures />}
            </>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
