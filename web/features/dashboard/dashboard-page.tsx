import { useEffect, useState } from 'react';
import { RefreshCw, TriangleAlert } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/use-toast';
import { isUnauthorizedError } from '../../lib/api-client';
import { useAuth } from '../../lib/session';
import { useAlerts } from '../../lib/queries/alerts';
import { useDomains } from '../../lib/queries/domains';
import { useInboxTests } from '../../lib/queries/inbox-tests';
import { useDashboardOverview, useEmailMetrics, useIntegrations, useRecentDrops } from './api';
import { DomainHealthView } from './components/domain-health-view';
import { DropAnswersCard } from './components/drop-answers-card';
import { EspDataView } from './components/esp-data-view';
import { InboxTestsView } from './components/inbox-tests-view';
import { OverviewView } from './components/overview-view';
import { DashboardSkeleton } from './components/parts';
import { ComplianceCard } from './components/compliance-card';
import { PostmasterCard } from './components/postmaster-card';
import { RecentAlertsCard } from './components/recent-alerts-card';
import { SourceSelector } from './components/source-selector';
import { WelcomeCard } from './components/welcome-card';
import { activeIntegrations, dataSources, type DataSourceId } from './metrics';

/** Dashboard (part 1, section 2.8). */
export default function DashboardPage() {
  const { user, isLoading: authLoading, isAuthenticated } = useAuth();
  const [source, setSource] = useState<DataSourceId>('overview');
  const overview = useDashboardOverview();
  const domains = useDomains();
  const tests = useInboxTests();
  const integrations = useIntegrations();
  const alerts = useAlerts();
  const metrics = useEmailMetrics(source === 'esp-data');
  const dropAnswers = useRecentDrops(domains.data ?? []);

  // Part 1, section 8. The shell only shows this page to a signed-in user, so the first toast
  // fires only if the session disappears under it. When the overview's 401 said so first (the query
  // client toasted "Session Expired"), that toast stays: this page can still be mounted, hidden,
  // while the login screen's code loads.
  const sessionExpired = isUnauthorizedError(overview.error);
  useEffect(() => {
    if (!authLoading && !isAuthenticated && !sessionExpired) {
      toast({
        title: 'Authentication Required',
        description: 'Please log in to access the dashboard.',
        variant: 'destructive',
      });
    }
  }, [authLoading, isAuthenticated, sessionExpired]);

  if (!isAuthenticated || !user) return <div data-testid="dashboard-page" />;

  // Five queries make this page, not one: it waits for them all, and a failure of some says which ones and
  // retries only those, above what the others show. <QueryState> speaks for one query, so this stays by hand.
  const loading = [overview, domains, tests, integrations, alerts].some((query) => query.isPending);
  if (loading) {
    return (
      <div data-testid="dashboard-page">
        <DashboardSkeleton />
      </div>
    );
  }

  const domainList = domains.data ?? [];
  const testList = tests.data ?? [];
  const alertList = alerts.data ?? [];
  const activeList = activeIntegrations(integrations.data ?? []);

  if (overview.data?.isEmpty && domainList.length === 0 && alertList.length === 0) {
    return (
      <div data-testid="dashboard-page">
        <WelcomeCard username={user.username} />
      </div>
    );
  }

  const sources = dataSources({
    domains: domainList.length,
    inboxTests: testList.length,
    activeIntegrations: activeList.length,
  });
  const selected = sources.find((s) => s.id === source) ?? sources[0];
  const active =
    selected.id === 'overview' ? overview.data !== undefined && !overview.data.isEmpty : selected.available;
  const failed = [
    domains.isError && 'domains',
    tests.isError && 'inbox tests',
    integrations.isError && 'integrations',
    alerts.isError && 'alerts',
    metrics.isError && 'email metrics',
  ].filter((name): name is string => Boolean(name));

  return (
    <div data-testid="dashboard-page" className="space-y-6">
      {failed.length > 0 && (
        <div
          role="alert"
          className="flex flex-wrap items-center gap-3 rounded-md border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-900"
        >
          <TriangleAlert className="size-4 shrink-0" aria-hidden="true" />
          <span className="flex-1">Some dashboard data could not be loaded: {failed.join(', ')}.</span>
          <Button
            size="sm"
            variant="outline"
            onClick={() => {
              if (domains.isError) void domains.refetch();
              if (tests.isError) void tests.refetch();
              if (integrations.isError) void integrations.refetch();
              if (alerts.isError) void alerts.refetch();
              if (metrics.isError) void metrics.refetch();
            }}
          >
            <RefreshCw aria-hidden="true" />
            Retry
          </Button>
        </div>
      )}

      <DropAnswersCard answers={dropAnswers} />

      <SourceSelector sources={sources} selected={selected.id} active={active} onSelect={setSource} />

      {selected.id === 'overview' && (
        <OverviewView
          overview={overview.data}
          error={overview.error}
          onRetry={() => void overview.refetch()}
          user={user}
        />
      )}
      {selected.id === 'domain-health' && <DomainHealthView domains={domainList} />}
      {selected.id === 'inbox-tests' && <InboxTestsView tests={testList} />}
      {selected.id === 'esp-data' && (
        <EspDataView integrations={activeList} metrics={metrics.data ?? []} metricsLoading={metrics.isPending} />
      )}

      <PostmasterCard />

      <ComplianceCard />

      <RecentAlertsCard alerts={alertList} domains={domainList} healthScore={overview.data?.healthScore ?? null} />
    </div>
  );
}
