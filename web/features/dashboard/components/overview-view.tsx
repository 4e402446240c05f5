import {
  AlertCircle,
  Globe,
  Inbox,
  Lightbulb,
  Plug,
  Plus,
  RefreshCw,
  ShieldCheck,
  TrendingDown,
  TriangleAlert,
  Zap,
} from 'lucide-react';
import { Link } from 'react-router';
import type { DashboardOverview } from '@contracts/dashboard';
import { planHasFeature } from '@contracts/plans';
import type { User } from '@contracts/user';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { serverMessageOr } from '../../../lib/api-client';
import { formatCount, formatRate, formatScore, parsePercent, roundTo } from '../../../lib/format';
import { PATHS } from '../../../lib/paths';
import {
  barWidth,
  bounceRateRating,
  complaintRateRating,
  healthScoreRating,
  inboxRateRating,
  NO_DATA,
  needsImprovement,
  scoreTone,
  tenfoldBarWidth,
  type Rating,
} from '../metrics';
import { PlanRequiredBanner } from '../../../components/plan-required-banner';
import { AdvancedAnalyticsCard } from './advanced-analytics-card';
import { Bar, StatCard, ToneBadge } from './parts';

/**
 * A figure as it is shown (web/lib/format.ts rounds to `decimals`), and so as it is rated: a label
 * never disagrees with the number beside it (89.96 reads 90 and Excellent, not 90 and Good).
 */
function shown(value: number | null, decimals = 1): number | null {
  return value === null ? null : roundTo(value, decimals);
}

function ScoreRow({ label, value: exact, suffix }: { label: string; value: number | null; suffix: '/100' | '%' }) {
  const value = shown(exact);
  const text = value === null ? NO_DATA : suffix === '%' ? formatRate(value) : `${formatScore(value)}/100`;
  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between text-sm">
        <span className="font-medium">{label}</span>
        <span className={value === null ? 'text-muted-foreground' : 'font-semibold'}>{text}</span>
      </div>
      <Bar label={label} width={barWidth(value)} tone={scoreTone(value)} valueText={text} />
    </div>
  );
}

function HealthScoreCard({ overview }: { overview: DashboardOverview }) {
  const score = shown(overview.healthScore);
  const rating = healthScoreRating(score);
  const deliverability = parsePercent(overview.inboxRate);
  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Email Health Score</CardTitle>
        <CardDescription>
          Out of 100, from your domain and IP reputation, authentication and deliverability
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <div className="flex flex-wrap items-baseline gap-3">
          <span
            data-testid="health-score"
            className={score === null ? 'text-3xl font-bold text-muted-foreground' : 'text-5xl font-bold'}
          >
            {score === null ? NO_DATA : formatScore(score)}
          </span>
          {score !== null && <span className="text-lg text-muted-foreground">/100</span>}
          {score !== null && (
            <ToneBadge tone={rating.tone}>
              <span data-testid="health-score-label">{rating.label}</span>
            </ToneBadge>
          )}
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <ScoreRow label="Domain Reputation" value={overview.domainReputation} suffix="/100" />
          <ScoreRow label="IP Reputation" value={overview.ipReputation} suffix="/100" />
          <ScoreRow label="Authentication" value={overview.authenticationScore} suffix="/100" />
          <ScoreRow label="Deliverability" value={deliverability} suffix="%" />
        </div>
      </CardContent>
    </Card>
  );
}

function ImprovementTip({ score }: { score: number | null }) {
  const improve = needsImprovement(score);
  return (
    <Card data-testid="improvement-tip">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <Lightbulb className="size-5 text-yellow-500" aria-hidden="true" />
          Improvement Tip
        </CardTitle>
      </CardHeader>
      <CardContent>
        <p className="text-sm text-muted-foreground">
          {improve
            ? 'Improve your email authentication by publishing valid SPF, DKIM and DMARC records for every sending domain, and keep monitoring your domain and IP reputation to raise your health score.'
            : 'Your email health is excellent! Keep monitoring your authentication and reputation to stay in the inbox.'}
        </p>
      </CardContent>
    </Card>
  );
}

function RateCard({
  title,
  rate,
  rating,
  width,
  icon,
  testId,
  scaleNote,
  decimals = 1,
}: {
  title: string;
  /** As shown: rounded to `decimals`. */
  rate: number | null;
  rating: Rating;
  width: number;
  icon: typeof Inbox;
  testId: string;
  scaleNote?: string;
  decimals?: number;
}) {
  const text = rate === null ? NO_DATA : formatRate(rate, decimals);
  return (
    <StatCard
      title={title}
      testId={testId}
      icon={icon}
      value={<span className={rate === null ? 'text-muted-foreground' : undefined}>{text}</span>}
      note={rate === null ? undefined : <ToneBadge tone={rating.tone}>{rating.label}</ToneBadge>}
    >
      <Bar label={scaleNote ? `${title} (${scaleNote})` : title} width={width} tone={rating.tone} valueText={text} />
    </StatCard>
  );
}

function QuickActions() {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <Zap className="size-5 text-primary" aria-hidden="true" />
          Quick Actions
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 sm:grid-cols-3">
        <Button asChild variant="outline" className="justify-start">
          <Link to={PATHS.domains}>
            <Plus aria-hidden="true" />
            Add Domain
          </Link>
        </Button>
        <Button asChild variant="outline" className="justify-start">
          <Link to={PATHS.inboxPlacement}>
            <Inbox aria-hidden="true" />
            Run Inbox Test
          </Link>
        </Button>
        <Button asChild variant="outline" className="justify-start">
          <Link to={PATHS.integrations}>
            <Plug aria-hidden="true" />
            Connect ESP
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}

function OverviewError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <Card role="alert">
      <CardContent className="flex flex-col items-center gap-3 py-10 text-center">
        <AlertCircle className="size-10 text-destructive" aria-hidden="true" />
        <h3 className="text-lg font-semibold">Your overview could not be loaded</h3>
        <p className="max-w-md text-sm text-muted-foreground">
          {serverMessageOr(error, 'Please try again in a moment.')}
        </p>
        <Button variant="outline" onClick={onRetry}>
          <RefreshCw aria-hidden="true" />
          Try again
        </Button>
      </CardContent>
    </Card>
  );
}

/** The Combined Overview (part 1, 2.8). */
export function OverviewView({
  overview,
  error,
  onRetry,
  user,
}: {
  overview: DashboardOverview | undefined;
  error: unknown;
  onRetry: () => void;
  user: User;
}) {
  const showAnalytics = planHasFeature(user.subscriptionPlan, 'advanced_analytics');
  if (!overview) {
    return (
      <div data-testid="dashboard-view-overview" className="space-y-6">
        {error ? <OverviewError error={error} onRetry={onRetry} /> : null}
        <QuickActions />
      </div>
    );
  }
  const inboxRate = shown(parsePercent(overview.inboxRate));
  const bounceRate = shown(parsePercent(overview.bounceRate));
  // Complaint thresholds sit at 0.1% and 0.3%: one decimal would show 0.14% as 0.1%.
  const complaintRate = shown(parsePercent(overview.complaintRate), 2);
  return (
    <div data-testid="dashboard-view-overview" className="space-y-6">
      <div className="grid gap-4 lg:grid-cols-3">
        <HealthScoreCard overview={overview} />
        <ImprovementTip score={overview.healthScore} />
      </div>

      {showAnalytics ? (
        <AdvancedAnalyticsCard plan={user.subscriptionPlan} />
      ) : (
        <PlanRequiredBanner
          feature="advanced_analytics"
          variant="card"
          title="Advanced Analytics"
          testId="advanced-analytics-locked"
        >
          Daily trends of your inbox placement, delivery, bounce and complaint rates over 7, 30 or 90 days.
        </PlanRequiredBanner>
      )}

      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard
          title="Domains Monitored"
          icon={Globe}
          value={formatCount(overview.counts.domains)}
          testId="count-domains"
        />
        <StatCard
          title="Inbox Tests Run"
          icon={Inbox}
          value={formatCount(overview.counts.inboxTests)}
          testId="count-inbox-tests"
        />
        <StatCard
          title="Active Integrations"
          icon={Plug}
          value={formatCount(overview.counts.activeIntegrations)}
          testId="count-active-integrations"
        />
      </div>

      <div className="grid gap-4 md:grid-cols-3">
        <RateCard
          title="Inbox Rate"
          testId="inbox-rate-card"
          icon={ShieldCheck}
          rate={inboxRate}
          rating={inboxRateRating(inboxRate)}
          width={barWidth(inboxRate)}
        />
        <RateCard
          title="Bounce Rate"
          testId="bounce-rate-card"
          icon={TrendingDown}
          rate={bounceRate}
          rating={bounceRateRating(bounceRate)}
          width={tenfoldBarWidth(bounceRate)}
          scaleNote="full at 10%"
        />
        <RateCard
          title="Complaint Rate"
          testId="complaint-rate-card"
          icon={TriangleAlert}
          rate={complaintRate}
          rating={complaintRateRating(complaintRate)}
          width={tenfoldBarWidth(complaintRate)}
          scaleNote="full at 10%"
          decimals={2}
        />
      </div>

      <QuickActions />
    </div>
  );
}
