import { useState } from 'react';
import { Mail, Settings2, TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import {
  DELIVERY_ERROR_CLASSES,
  deliveryErrorReason,
  GMAIL_SPAM_RATE_LIMIT,
  GMAIL_SPAM_RATE_TARGET,
  GOOGLE_NOT_CONFIGURED,
  latestDays,
  POSTMASTER_MANAGE_PATH,
  REPUTATION_LABELS,
  spamRateLevel,
  type PostmasterDay,
  type PostmasterStatus,
  type ReputationCategory,
} from '@contracts/postmaster';
import { ConnectGoogleButton } from '../../../components/connect-google-button';
import { QueryState } from '../../../components/query-state';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate, formatRate, relativeAge } from '../../../lib/format';
import { usePostmasterStats, usePostmasterStatus } from '../../../lib/queries/postmaster';
import { cn } from '../../../lib/utils';
import type { Tone } from '../metrics';
import { Bar, EmptyState, ToneBadge, TONE_TEXT } from './parts';

/** The days shown: Postmaster Tools' own dashboards default to a month. */
const DAYS = 30;
/** The spam-rate bar is full at 0.5%, so Google's 0.1% and 0.3% sit at a fifth and three fifths of it. */
const SPAM_BAR_FULL = 0.005;

const percent = (ratio: number | null, decimals = 1) => formatRate(ratio === null ? null : ratio * 100, decimals);

const SPAM_WORDS: Record<ReturnType<typeof spamRateLevel>, { tone: Tone; label: string }> = {
  good: { tone: 'good', label: 'Below Google’s 0.1% target' },
  warn: { tone: 'warn', label: 'Above Google’s 0.1% target' },
  bad: { tone: 'bad', label: 'At or above Google’s 0.3% limit' },
};

/**
 * Authentication and TLS pass rates: Gmail asks every sender to authenticate (and bulk senders to use
 * TLS and DMARC) for all mail, so anything below 98% means a source sends unauthenticated mail.
 */
function passTone(ratio: number | null): Tone {
  if (ratio === null) return 'none';
  if (ratio >= 0.98) return 'good';
  return ratio >= 0.9 ? 'warn' : 'bad';
}

export const REPUTATION_TONES: Record<ReputationCategory, Tone> = {
  HIGH: 'good',
  MEDIUM: 'warn',
  LOW: 'bad',
  BAD: 'bad',
};

function Figure({ label, ratio, testId }: { label: string; ratio: number | null; testId: string }) {
  const tone = passTone(ratio);
  return (
    <div className="flex items-baseline justify-between gap-2" data-testid={testId}>
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd data-tone={tone} className={cn('font-semibold', TONE_TEXT[tone])}>
        {ratio === null ? 'No data' : percent(ratio)}
      </dd>
    </div>
  );
}

function SpamRate({ day, days }: { day: PostmasterDay; days: PostmasterDay[] }) {
  const ratio = day.userReportedSpamRatio;
  const words = ratio === null ? null : SPAM_WORDS[spamRateLevel(ratio)];
  const overLimit = days.filter(
    (d) => d.userReportedSpamRatio !== null && d.userReportedSpamRatio >= GMAIL_SPAM_RATE_LIMIT,
  ).length;
  return (
    <div className="space-y-2" data-testid="postmaster-spam-rate">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h4 className="text-sm font-medium text-muted-foreground">User-reported spam rate</h4>
        {words && <ToneBadge tone={words.tone}>{words.label}</ToneBadge>}
      </div>
      <p className={cn('text-2xl font-bold', TONE_TEXT[words?.tone ?? 'none'])} data-tone={words?.tone ?? 'none'}>
        {ratio === null ? 'No data' : percent(ratio, 2)}
      </p>
      {ratio !== null && words && (
        <Bar
          label="Spam rate against Google’s limits"
          width={Math.min(100, (ratio / SPAM_BAR_FULL) * 100)}
          tone={words.tone}
          valueText={`${percent(ratio, 2)}; Google's target is below ${percent(GMAIL_SPAM_RATE_TARGET)} and its limit ${percent(GMAIL_SPAM_RATE_LIMIT)}`}
        />
      )}
      <p className="text-xs text-muted-foreground">
        Gmail asks senders to stay below {percent(GMAIL_SPAM_RATE_TARGET)} and never reach{' '}
        {percent(GMAIL_SPAM_RATE_LIMIT)}.
        {overLimit > 0 &&
          ` ${overLimit} of the last ${days.length} days with data were at or above ${percent(GMAIL_SPAM_RATE_LIMIT)}.`}
      </p>
    </div>
  );
}

function DeliveryErrors({ day }: { day: PostmasterDay }) {
  return (
    <div className="space-y-2">
      <h4 className="text-sm font-medium text-muted-foreground">Delivery errors</h4>
      {day.deliveryErrors.length === 0 ? (
        <p className="text-sm text-muted-foreground">Gmail reported no rejected or deferred mail that day.</p>
      ) : (
        <ul className="space-y-1 text-sm" data-testid="postmaster-delivery-errors">
          {[...day.deliveryErrors]
            .sort((a, b) => b.errorRatio - a.errorRatio)
            .map((error) => (
              <li key={`${error.errorClass}-${error.errorType}`} className="flex items-baseline justify-between gap-3">
                <span className="min-w-0 wrap-anywhere">{deliveryErrorReason(error.errorType)}</span>
                <span className="shrink-0 font-medium">
                  {percent(error.errorRatio, 2)} {DELIVERY_ERROR_CLASSES[error.errorClass] ?? ''}
                </span>
              </li>
            ))}
        </ul>
      )}
    </div>
  );
}

function DomainFigures({ days, status }: { days: PostmasterDay[]; status: PostmasterStatus }) {
  const latest = latestDays(days);
  const [chosen, setChosen] = useState(latest[0].domain);
  const day = latest.find((d) => d.domain === chosen) ?? latest[0];
  const domainDays = days.filter((d) => d.domain === day.domain);
  const reputation = day.domainReputation;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        {latest.length > 1 ? (
          <label className="flex items-center gap-2 text-sm">
            <span className="text-muted-foreground">Domain</span>
            <select
              className="rounded-md border bg-background px-2 py-1"
              value={day.domain}
              onChange={(event) => setChosen(event.target.value)}
            >
              {latest.map((d) => (
                <option key={d.domain} value={d.domain}>
                  {d.domain}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <p className="font-medium wrap-anywhere">{day.domain}</p>
        )}
        <p className="text-xs text-muted-foreground" data-testid="postmaster-as-of">
          Figures of {formatDate(day.date, { utc: true })} (UTC)
          {status.lastImportAt ? `, imported ${relativeAge(status.lastImportAt)}` : ''}
        </p>
      </div>
      <div className="grid gap-6 md:grid-cols-3">
        <SpamRate day={day} days={domainDays} />
        <div className="space-y-2">
          <h4 className="text-sm font-medium text-muted-foreground">Authentication and TLS</h4>
          <dl className="space-y-1">
            <Figure label="SPF pass" ratio={day.spfSuccessRatio} testId="postmaster-spf" />
            <Figure label="DKIM pass" ratio={day.dkimSuccessRatio} testId="postmaster-dkim" />
            <Figure label="DMARC pass" ratio={day.dmarcSuccessRatio} testId="postmaster-dmarc" />
            <Figure label="Sent over TLS" ratio={day.inboundEncryptionRatio} testId="postmaster-tls" />
          </dl>
          <p className="flex items-center gap-2 text-sm">
            <span className="text-muted-foreground">Domain reputation</span>
            {reputation ? (
              <ToneBadge tone={REPUTATION_TONES[reputation]}>{REPUTATION_LABELS[reputation]}</ToneBadge>
            ) : (
              <span>No data</span>
            )}
          </p>
        </div>
        <DeliveryErrors day={day} />
      </div>
    </div>
  );
}

function ManageLink() {
  return (
    <Link
      to={POSTMASTER_MANAGE_PATH}
      className="inline-flex items-center gap-1 text-sm text-primary underline-offset-4 hover:underline"
    >
      <Settings2 className="size-4" aria-hidden="true" />
      Manage in Integrations
    </Link>
  );
}

function Connected({ status }: { status: PostmasterStatus }) {
  const stats = usePostmasterStats(DAYS, true);
  return (
    <QueryState
      query={stats}
      loading={<Spinner className="size-6" label="Loading Gmail's figures" />}
      errorMessage="Could not load Gmail's figures."
      isEmpty={(data) => data.days.length === 0}
      empty={
        <div className="space-y-2 text-sm text-muted-foreground" data-testid="postmaster-no-data">
          <p>
            No Gmail figures for the last {DAYS} days yet
            {status.domains.length > 0
              ? ` for ${status.domains.join(', ')}`
              : ': the Google account has no domains verified in Postmaster Tools'}
            . Google shows a domain's figures only for days it received a substantial volume of mail from it (hundreds
            of messages a day to Gmail users).
          </p>
          <p>
            {status.lastImportAt
              ? `Last imported ${relativeAge(status.lastImportAt)}; imports run daily.`
              : 'The first import is under way; imports run daily.'}
          </p>
        </div>
      }
    >
      {(data) => <DomainFigures days={data.days} status={status} />}
    </QueryState>
  );
}

/** Gmail's view of the user's domains, from Google Postmaster Tools, or the way to connect it. */
export function PostmasterCard() {
  const status = usePostmasterStatus();
  return (
    <Card data-testid="postmaster-card">
      <CardHeader>
        <CardTitle as="h3" className="flex items-center gap-2 text-lg">
          <Mail className="size-5 text-muted-foreground" aria-hidden="true" />
          Gmail Postmaster Tools
        </CardTitle>
        <CardDescription>
          Gmail's own figures for your domains: spam rate, authentication, TLS, delivery errors and reputation.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <QueryState
          query={status}
          loading={<Spinner className="size-6" label="Loading Google Postmaster Tools" />}
          errorMessage="Could not load Google Postmaster Tools."
        >
          {(data) => (
            <>
              {data.state === 'not_configured' && (
                <EmptyState
                  icon={Mail}
                  title="Google Postmaster Tools is not available"
                  description={GOOGLE_NOT_CONFIGURED}
                />
              )}
              {data.state === 'not_connected' && (
                <EmptyState
                  icon={Mail}
                  title="Google Postmaster Tools not connected"
                  description="Connect the Google account that verified your domains in Postmaster Tools to see Gmail's spam rate against Google's 0.1% and 0.3% limits, SPF, DKIM and DMARC pass rates, TLS, delivery errors and domain reputation."
                >
                  <ConnectGoogleButton />
                </EmptyState>
              )}
              {data.state === 'needs_reconnect' && (
                <div
                  role="status"
                  className="flex flex-wrap items-start gap-3 rounded-md border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-900"
                >
                  <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                  <p className="min-w-0 flex-1">
                    {data.lastError ?? 'Google no longer gives InboxPulse access to Postmaster Tools. Connect again.'}
                  </p>
                  <ConnectGoogleButton reconnect />
                </div>
              )}
              {(data.state === 'connected' || data.state === 'needs_reconnect') && (
                <>
                  <Connected status={data} />
                  <ManageLink />
                </>
              )}
            </>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
