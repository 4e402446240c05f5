import type { IpAddress, IpMonitoringStatus } from '@contracts/reputation';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { formatCount, formatDateTime } from '../../../lib/format';

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="min-w-0 rounded-md border p-3">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd data-testid={testId} className="text-xl font-semibold wrap-anywhere">
        {value}
      </dd>
    </div>
  );
}

/** The overview card (part 2, section 2): checks are shown as running every 2 hours ("2h", section 9). */
export function OverviewCard({ ips, status }: { ips: IpAddress[]; status: IpMonitoringStatus | undefined }) {
  const listed = ips.filter((ip) => ip.blacklistCount > 0).length;
  const clean = ips.filter((ip) => ip.lastChecked !== null && ip.blacklistCount === 0).length;
  return (
    <Card data-testid="blacklist-overview">
      <CardHeader>
        <CardTitle className="text-lg">Blacklist Monitoring Overview</CardTitle>
        <CardDescription>
          Your IP addresses against the IP blocklists, and your domains against the domain blocklists.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
          <Figure testId="overview-monitored" label="IPs monitored" value={formatCount(ips.length)} />
          <Figure testId="overview-clean" label="Clean" value={formatCount(clean)} />
          <Figure testId="overview-listed" label="Listed" value={formatCount(listed)} />
          <Figure testId="overview-lists" label="IP lists" value={status ? formatCount(status.totalProviders) : '–'} />
        </dl>
        {status?.ipv4Providers !== undefined && status.ipv6Providers !== undefined && (
          <p data-testid="overview-lists-note" className="text-sm text-muted-foreground">
            An IPv4 address is asked {formatCount(status.ipv4Providers)} of the {formatCount(status.totalProviders)} IP
            lists, an IPv6 address the {formatCount(status.ipv6Providers)} that answer for IPv6; domains are asked the{' '}
            {formatCount(status.totalDomainProviders)} domain lists.
          </p>
        )}
        <dl className="grid gap-1 text-sm sm:grid-cols-3">
          <div className="flex gap-1">
            <dt className="text-muted-foreground">Checks every</dt>
            <dd className="font-medium">2h</dd>
          </div>
          <div className="flex gap-1">
            <dt className="text-muted-foreground">Last run:</dt>
            <dd data-testid="overview-last-run">{status?.lastRun ? formatDateTime(status.lastRun) : 'Never'}</dd>
          </div>
          <div className="flex gap-1">
            <dt className="text-muted-foreground">Next run:</dt>
            <dd data-testid="overview-next-run">
              {status?.nextRun ? formatDateTime(status.nextRun) : 'Not scheduled'}
            </dd>
          </div>
        </dl>
        {status?.lastError && (
          <p role="alert" className="text-sm text-destructive">
            The last run failed: {status.lastError}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
