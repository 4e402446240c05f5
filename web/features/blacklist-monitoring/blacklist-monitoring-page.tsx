import { useState } from 'react';
import { Link } from 'react-router';
import { RefreshCw, Search, ShieldCheck } from 'lucide-react';
import type { IpAddress } from '@contracts/reputation';
import { IpAddressesState } from '../../components/ip-addresses-state';
import { QueryState } from '../../components/query-state';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { formatCount } from '../../lib/format';
import { PATHS } from '../../lib/paths';
import { useDomainReputation, useMonitoringStatus, useTriggerMonitoring } from './api';
import { DomainListings } from './components/domain-listings';
import { IpBlacklistCard } from './components/ip-blacklist-card';
import { OverviewCard } from './components/overview-card';

const FILTERS = [
  { value: 'all', label: 'All Status' },
  { value: 'clean', label: 'Clean' },
  { value: 'listed', label: 'Listed' },
] as const;
type Filter = (typeof FILTERS)[number]['value'];

function matches(ip: IpAddress, search: string, filter: Filter): boolean {
  const needle = search.trim().toLowerCase();
  if (needle && !ip.ipAddress.toLowerCase().includes(needle) && !(ip.label ?? '').toLowerCase().includes(needle))
    return false;
  if (filter === 'listed') return ip.blacklistCount > 0;
  if (filter === 'clean') return ip.lastChecked !== null && ip.blacklistCount === 0;
  return true;
}

/** Blacklist Monitoring (part 2, section 2); the shell shows its title and breadcrumb (router.tsx). */
export default function BlacklistMonitoringPage() {
  const domains = useDomainReputation();
  const status = useMonitoringStatus();
  const trigger = useTriggerMonitoring();
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<Filter>('all');
  const running = trigger.isPending || status.data?.isRunning === true;

  function refresh() {
    trigger.mutate(undefined, {
      onError: () => toast({ title: 'Error', description: 'Failed to trigger monitoring', variant: 'destructive' }),
    });
  }

  return (
    <div data-testid="blacklist-monitoring-page" className="space-y-6">
      <IpAddressesState>
        {(list) => (
          <>
            <OverviewCard ips={list} status={status.data} />
            <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
              <div className="relative min-w-0 flex-1">
                <Search
                  className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
                  aria-hidden="true"
                />
                <Input
                  type="search"
                  aria-label="Search by IP or label"
                  placeholder="Search by IP or label"
                  className="pl-9"
                  value={search}
                  onChange={(event) => setSearch(event.target.value)}
                />
              </div>
              <select
                aria-label="Filter by status"
                data-testid="status-filter"
                value={filter}
                onChange={(event) => setFilter(event.target.value as Filter)}
                className="h-10 rounded-md border border-input bg-background px-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                {FILTERS.map(({ value, label }) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
              <Button onClick={refresh} disabled={running || list.length === 0}>
                <RefreshCw aria-hidden="true" className={running ? 'animate-spin' : undefined} />
                Refresh Monitoring
              </Button>
            </div>
            {running && (
              <div
                role="status"
                data-testid="monitoring-progress"
                className="space-y-2 rounded-md border bg-muted/40 p-3 text-sm"
              >
                <p>
                  Checking {formatCount(list.length)} {list.length === 1 ? 'IP address' : 'IP addresses'}
                  {status.data ? ` against ${formatCount(status.data.totalProviders)} lists` : ''}... The results appear
                  here when the run ends.
                </p>
                <div className="h-1.5 overflow-hidden rounded-full bg-muted" aria-hidden="true">
                  <div className="h-full w-1/3 animate-pulse rounded-full bg-primary" />
                </div>
              </div>
            )}
            <IpCards ips={list} search={search} filter={filter} />
          </>
        )}
      </IpAddressesState>
      <QueryState
        query={domains}
        loading={<Spinner className="size-6" label="Loading domain listings" />}
        errorMessage="Could not load your domains' listings."
      >
        {(list) => <DomainListings domains={list} />}
      </QueryState>
    </div>
  );
}

function IpCards({ ips, search, filter }: { ips: IpAddress[]; search: string; filter: Filter }) {
  if (ips.length === 0) {
    return (
      <Card data-testid="blacklist-empty" className="flex flex-col items-center gap-3 px-4 py-12 text-center">
        <ShieldCheck className="size-10 text-muted-foreground" aria-hidden="true" />
        <h2 className="text-lg font-semibold">No IP Addresses Monitored</h2>
        <p className="max-w-md text-sm text-muted-foreground">
          Add the IP addresses you send from to see whether any blocklist lists them.
        </p>
        <Button asChild>
          <Link to={PATHS.reputation}>Add IP Addresses</Link>
        </Button>
      </Card>
    );
  }
  const shown = ips.filter((ip) => matches(ip, search, filter));
  if (shown.length === 0) {
    return (
      <Card data-testid="blacklist-no-results" className="flex flex-col items-center gap-2 px-4 py-12 text-center">
        <h2 className="text-lg font-semibold">No Results Found</h2>
        <p className="text-sm text-muted-foreground">No IP address matches this search and filter.</p>
      </Card>
    );
  }
  return (
    <ul aria-label="IP addresses" className="space-y-4">
      {shown.map((ip) => (
        <li key={ip.id}>
          <IpBlacklistCard ip={ip} />
        </li>
      ))}
    </ul>
  );
}
