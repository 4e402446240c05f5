import { Activity, BookOpen, CheckCircle2, Mail, Plug, Settings2, TrendingDown, TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import type { EmailMetric } from '@contracts/email-metrics';
import type { Integration } from '@contracts/integrations';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/use-toast';
import { percentOf } from '@contracts/figures';
import { formatCount, formatRate, syncFreshness } from '../../../lib/format';
import { cn } from '../../../lib/utils';
import { PATHS } from '../../../lib/paths';
import { deliveredTone, LIST_LIMIT, NO_DATA, summarizeMetrics, type Tone } from '../metrics';
import { INTEGRATION_TYPE_LABELS, providerName, setupGuideUrl } from '../providers';
import { EmptyState, StatCard, TONE_TEXT } from './parts';

// Part 1, 2.8: these three cards show three decimals.
const rate3 = (value: number | null) => (value === null ? NO_DATA : formatRate(value, 3));

function freshnessTone(label: string): Tone {
  if (label === 'Never synced' || label === 'Sync outdated') return 'bad';
  if (label === 'Just synced' || label.endsWith('h ago')) return 'good';
  return 'warn';
}

export function openSetupGuide(provider: string) {
  const url = setupGuideUrl(provider);
  if (url) {
    window.open(url, '_blank', 'noopener,noreferrer');
    return;
  }
  toast({
    title: 'Setup Guide',
    description: `Please check ${providerName(provider)}'s documentation for instructions on connecting it to InboxPulse.`,
  });
}

function NeverSyncedHelp({ provider }: { provider: string }) {
  const name = providerName(provider);
  return (
    <div
      className="space-y-3 rounded-md border border-yellow-200 bg-yellow-50 p-3"
      data-testid={`never-synced-${provider}`}
    >
      <p className="flex items-start gap-2 text-sm text-yellow-900">
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        {name} has not sent any data yet. Check its credentials and settings, or follow the provider's setup guide.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button asChild size="sm" variant="outline">
          <Link to={`${PATHS.integrations}?manage=${encodeURIComponent(provider)}`}>
            <Settings2 aria-hidden="true" />
            Manage Integration
          </Link>
        </Button>
        <Button
          size="sm"
          variant="outline"
          onClick={() => openSetupGuide(provider)}
          aria-label={`View Setup Guide for ${name}`}
        >
          <BookOpen aria-hidden="true" />
          View Setup Guide
        </Button>
      </div>
    </div>
  );
}

function IntegrationRow({ integration }: { integration: Integration }) {
  const freshness = syncFreshness(integration.lastSync);
  return (
    <li className="space-y-3 rounded-lg border p-4" data-testid={`integration-${integration.id}`}>
      <div className="flex flex-wrap items-center gap-3">
        <CheckCircle2 className="size-5 shrink-0 text-green-600" aria-hidden="true" />
        <span className="min-w-0 flex-1 font-medium wrap-anywhere">{providerName(integration.provider)}</span>
        <span className="rounded-full border px-2 py-0.5 text-xs font-medium">
          {INTEGRATION_TYPE_LABELS[integration.type] ?? integration.type}
        </span>
        <span className={cn('text-sm font-medium', TONE_TEXT[freshnessTone(freshness)])} data-testid="sync-freshness">
          {freshness}
        </span>
      </div>
      <dl className="grid grid-cols-3 gap-2 text-sm">
        <div>
          <dt className="text-muted-foreground">Emails Sent</dt>
          <dd className="font-semibold">{formatCount(integration.emailsSent)}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Delivery Rate</dt>
          <dd className="font-semibold">
            {integration.deliveryRate === null ? NO_DATA : formatRate(integration.deliveryRate)}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Data Points</dt>
          <dd className="font-semibold">{formatCount(integration.dataPoints)}</dd>
        </div>
      </dl>
      {!integration.lastSync && <NeverSyncedHelp provider={integration.provider} />}
    </li>
  );
}

function RecentActivity({ metrics }: { metrics: EmailMetric[] }) {
  const rows = [...metrics].sort((a, b) => b.date.localeCompare(a.date)).slice(0, LIST_LIMIT);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <Activity className="size-5 text-primary" aria-hidden="true" />
          Recent Email Activity
        </CardTitle>
        <CardDescription>The latest daily figures synced from your providers</CardDescription>
      </CardHeader>
      <CardContent>
        {rows.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted-foreground">No email activity has been synced yet.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-sm" data-testid="recent-email-activity">
              <thead>
                <tr className="border-b text-left text-muted-foreground">
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Date
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Provider
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right font-medium">
                    Sent
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right font-medium">
                    Delivered
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right font-medium">
                    Bounced
                  </th>
                  <th scope="col" className="py-2 text-right font-medium">
                    Complaints
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((metric) => {
                  const delivered = percentOf(metric.delivered, metric.emailsSent);
                  const tone = deliveredTone(delivered);
                  return (
                    <tr key={metric.id} className="border-b last:border-0">
                      <td className="py-2 pr-3 whitespace-nowrap">{metric.date}</td>
                      <td className="py-2 pr-3">{providerName(metric.provider)}</td>
                      <td className="py-2 pr-3 text-right">{formatCount(metric.emailsSent)}</td>
                      <td className={cn('py-2 pr-3 text-right font-semibold', TONE_TEXT[tone])} data-tone={tone}>
                        {delivered === null ? NO_DATA : formatRate(delivered)}
                      </td>
                      <td className="py-2 pr-3 text-right">{formatCount(metric.bounced)}</td>
                      <td className="py-2 text-right">{formatCount(metric.complaints)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

/** ESP/MTA data view (part 1, 2.8): the last 30 days of synced email metrics. */
export function EspDataView({
  integrations,
  metrics,
  metricsLoading,
}: {
  /** Active integrations only. */
  integrations: Integration[];
  metrics: EmailMetric[];
  metricsLoading: boolean;
}) {
  if (integrations.length === 0) {
    return (
      <Card data-testid="dashboard-view-esp-data">
        <EmptyState
          icon={Plug}
          title="No ESP/MTA Integrations"
          description="Connect your email service provider or mail transfer agent to follow delivery, bounce and complaint rates."
        >
          <Button asChild>
            <Link to={PATHS.integrations}>Connect ESP</Link>
          </Button>
        </EmptyState>
      </Card>
    );
  }
  const summary = summarizeMetrics(metrics);
  return (
    <div data-testid="dashboard-view-esp-data" className="space-y-6">
      {metricsLoading ? (
        <div className="flex justify-center py-6">
          <Spinner label="Loading email metrics" />
        </div>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <StatCard
            title="Delivery Rate"
            icon={CheckCircle2}
            testId="esp-delivery-rate"
            value={rate3(summary.deliveryRate)}
            note="Last 30 days"
          />
          <StatCard
            title="Bounce Rate"
            icon={TrendingDown}
            testId="esp-bounce-rate"
            value={rate3(summary.bounceRate)}
            note="Last 30 days"
          />
          <StatCard
            title="Complaint Rate"
            icon={TriangleAlert}
            testId="esp-complaint-rate"
            value={rate3(summary.complaintRate)}
            note="Last 30 days"
          />
          <StatCard
            title="Volume (30d)"
            icon={Mail}
            testId="esp-volume"
            value={formatCount(summary.sent)}
            note="Emails sent"
          />
        </div>
      )}
      <Card>
        <CardHeader>
          <CardTitle className="text-lg">Connected Integrations</CardTitle>
          <CardDescription>Active ESP, MTA and analytics sources and how fresh their data is</CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="space-y-3">
            {integrations.map((integration) => (
              <IntegrationRow key={integration.id} integration={integration} />
            ))}
          </ul>
        </CardContent>
      </Card>
      {!metricsLoading && <RecentActivity metrics={metrics} />}
    </div>
  );
}
