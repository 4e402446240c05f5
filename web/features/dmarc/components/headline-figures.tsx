import type { ReactNode } from 'react';
import type { DmarcAnalytics } from '@contracts/dmarc';
import { formatCount } from '../../../lib/format';
import { complianceText, SEVERITY, SEVERITY_ORDER } from '../dmarc-text';
import { Pill } from '../../../components/ui/pill';

function Figure({ label, value, children }: { label: string; value: ReactNode; children?: ReactNode }) {
  return (
    <div className="space-y-1 rounded-md border p-3">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="space-y-1">
        <p className="text-xl font-bold">{value}</p>
        {children}
      </dd>
    </div>
  );
}

/** Reports, messages, average compliance and failing sources by severity for the period. */
export function HeadlineFigures({ analytics }: { analytics: DmarcAnalytics }) {
  const { threatSummary } = analytics;
  const failingSources = SEVERITY_ORDER.reduce((sum, severity) => sum + threatSummary[severity], 0);
  return (
    <dl data-testid="dmarc-figures" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <Figure label="Reports" value={formatCount(analytics.totalReports)} />
      <Figure label="Messages" value={formatCount(analytics.totalMessages)} />
      <Figure label="Average compliance" value={complianceText(analytics.averageCompliance)} />
      <Figure label="Failing sources" value={formatCount(failingSources)}>
        <ul aria-label="Failing sources by severity" className="flex flex-wrap gap-1">
          {SEVERITY_ORDER.map((severity) => (
            <li key={severity}>
              <Pill tone={threatSummary[severity] > 0 ? SEVERITY[severity].tone : 'none'}>
                {SEVERITY[severity].label} {formatCount(threatSummary[severity])}
              </Pill>
            </li>
          ))}
        </ul>
      </Figure>
    </dl>
  );
}
