import type { DomainReputation, IpAddress } from '@contracts/reputation';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { TONE_TEXT } from '../../../components/tone';
import { formatCount, formatScore } from '../../../lib/format';
import { cn } from '../../../lib/utils';
import { senderScoreTone } from '../status';

function Metric({
  label,
  value,
  note,
  className,
  testId,
}: {
  label: string;
  value: string;
  note?: string;
  className?: string;
  testId: string;
}) {
  return (
    <div data-testid={testId} className="min-w-0 rounded-md border p-3">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className={cn('text-2xl font-semibold', className)}>{value}</dd>
      {note && <dd className="text-xs text-muted-foreground">{note}</dd>}
    </div>
  );
}

/** Global Reputation Metrics (part 2, section 2), from the user's own IPs and domains; nothing is shown that was not measured. */
export function GlobalMetricsCard({ ips, domains }: { ips: IpAddress[]; domains: DomainReputation[] | undefined }) {
  const scores = ips.map((ip) => ip.senderScore).filter((score): score is number => score !== null);
  const average = scores.length ? scores.reduce((sum, score) => sum + score, 0) / scores.length : null;
  const listed = ips.filter((ip) => ip.blacklistCount > 0).length;
  const checked = ips.filter((ip) => ip.lastChecked !== null).length;
  const scoredDomains = domains?.filter((domain) => domain.reputationScore !== null).length ?? 0;
  return (
    <Card data-testid="global-metrics">
      <CardHeader>
        <CardTitle className="text-lg">Global Reputation Metrics</CardTitle>
        <CardDescription>Across the IP addresses and domains you monitor.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          <Metric
            testId="metric-monitored"
            label="Monitored IPs"
            value={formatCount(ips.length)}
            note={ips.length ? undefined : 'Add an IP address to start'}
          />
          <Metric
            testId="metric-average"
            label="Average sender score"
            value={average === null ? '–' : formatScore(average)}
            note={
              average === null
                ? 'Not scored yet'
                : `of ${formatCount(scores.length)} scored ${scores.length === 1 ? 'IP' : 'IPs'}`
            }
            className={TONE_TEXT[senderScoreTone(average)]}
          />
          <Metric
            testId="metric-listed"
            label="Listed IPs"
            value={checked ? formatCount(listed) : '–'}
            note={checked ? `of ${formatCount(checked)} checked` : 'No check has run yet'}
            className={checked ? TONE_TEXT[listed ? 'bad' : 'good'] : undefined}
          />
          <Metric
            testId="metric-domains"
            label="Domains scored"
            value={domains ? formatCount(scoredDomains) : '–'}
            note={
              domains ? (domains.length ? `of ${formatCount(domains.length)} domains` : 'No domains yet') : undefined
            }
          />
        </dl>
      </CardContent>
    </Card>
  );
}
