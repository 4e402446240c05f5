import { CheckCircle2, CircleDashed, Globe, ShieldCheck, TriangleAlert, XCircle } from 'lucide-react';
import { Link } from 'react-router';
import type { Domain } from '@contracts/domains';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { LongValue } from '../../../components/long-value';
import { formatCount, formatRate } from '../../../lib/format';
import { cn } from '../../../lib/utils';
import { PATHS } from '../../../lib/paths';
import { authCompleteness, NO_DATA, scoreTone, summarizeDomains, type Tone } from '../metrics';
import { EmptyState, StatCard, TONE_TEXT, ToneBadge } from './parts';

const STATUS: Record<Domain['status'], { label: string; tone: Tone; icon: typeof CheckCircle2 }> = {
  healthy: { label: 'Healthy', tone: 'good', icon: CheckCircle2 },
  warning: { label: 'Warning', tone: 'warn', icon: TriangleAlert },
  error: { label: 'Error', tone: 'bad', icon: XCircle },
  pending: { label: 'Pending', tone: 'none', icon: CircleDashed },
};

const RECORD_TONE: Record<string, Tone> = { valid: 'good', invalid: 'bad', missing: 'bad' };

/** A record on one line: a DKIM key alone is hundreds of characters, so it is cut, with a copy button. */
function RecordLine({
  domain,
  name,
  value,
  status,
}: {
  domain: string;
  name: string;
  value: string | null;
  status: Domain['spfStatus'];
}) {
  const tone = status ? (RECORD_TONE[status] ?? 'none') : 'none';
  return (
    <div className="grid grid-cols-[3.5rem_minmax(0,1fr)] items-center gap-2 text-xs">
      <dt className={cn('font-semibold', TONE_TEXT[tone])}>
        {name}
        {status && <span className="sr-only"> ({status})</span>}
      </dt>
      <dd className="min-w-0">
        {value ? (
          <LongValue value={value} copyLabel={`Copy the ${name} record of ${domain}`} className="font-mono" />
        ) : (
          <span className="text-muted-foreground">Not configured</span>
        )}
      </dd>
    </div>
  );
}

function DomainRow({ domain }: { domain: Domain }) {
  const status = STATUS[domain.status];
  const completeness = authCompleteness(domain);
  const StatusIcon = status.icon;
  return (
    <li className="space-y-3 rounded-lg border p-4" data-testid={`domain-row-${domain.id}`}>
      <div className="flex flex-wrap items-center gap-3">
        <StatusIcon className={cn('size-5 shrink-0', TONE_TEXT[status.tone])} aria-hidden="true" />
        <span className="min-w-0 flex-1 font-medium wrap-anywhere">{domain.domain}</span>
        <ToneBadge tone={completeness.tone}>{completeness.label}</ToneBadge>
        <span className={cn('text-sm font-medium', TONE_TEXT[status.tone])}>{status.label}</span>
      </div>
      <dl className="space-y-1">
        <RecordLine domain={domain.domain} name="SPF" value={domain.spfRecord} status={domain.spfStatus} />
        <RecordLine domain={domain.domain} name="DKIM" value={domain.dkimRecord} status={domain.dkimStatus} />
        <RecordLine domain={domain.domain} name="DMARC" value={domain.dmarcRecord} status={domain.dmarcStatus} />
      </dl>
    </li>
  );
}

/** Domain health view (part 1, 2.8). */
export function DomainHealthView({ domains }: { domains: Domain[] }) {
  if (domains.length === 0) {
    return (
      <Card data-testid="dashboard-view-domain-health">
        <EmptyState
          icon={Globe}
          title="No Domains Configured"
          description="Add a sending domain to follow its SPF, DKIM and DMARC authentication and health."
        >
          <Button asChild>
            <Link to={PATHS.domains}>Add Domain</Link>
          </Button>
        </EmptyState>
      </Card>
    );
  }
  const summary = summarizeDomains(domains);
  const scoreText = (value: number | null) => (value === null ? NO_DATA : formatRate(value));
  return (
    <div data-testid="dashboard-view-domain-health" className="space-y-6">
      <div className="grid gap-4 md:grid-cols-3">
        <StatCard
          title="Domain Health Score"
          icon={ShieldCheck}
          testId="domain-health-score"
          value={scoreText(summary.healthScore)}
          tone={scoreTone(summary.healthScore)}
          note="Share of domains whose status is healthy"
        />
        <StatCard
          title="Authentication Score"
          icon={CheckCircle2}
          testId="domain-auth-score"
          value={scoreText(summary.authenticationScore)}
          tone={scoreTone(summary.authenticationScore)}
          note="Share of domains with valid SPF, DKIM and DMARC"
        />
        <StatCard
          title="Total Domains"
          icon={Globe}
          testId="domain-total"
          value={formatCount(summary.total)}
          note={`${summary.healthy} healthy · ${summary.issues} with issues`}
        />
      </div>
      <Card>
        <CardHeader>
          <CardTitle className="text-lg">Domain Authentication</CardTitle>
          <CardDescription>SPF, DKIM and DMARC records found at the last check of each domain</CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="space-y-3">
            {domains.map((domain) => (
              <DomainRow key={domain.id} domain={domain} />
            ))}
          </ul>
        </CardContent>
      </Card>
    </div>
  );
}
