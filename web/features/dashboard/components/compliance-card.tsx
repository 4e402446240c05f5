import { ListChecks } from 'lucide-react';
import { Link } from 'react-router';
import { domainCompliancePath } from '@contracts/compliance';
import { QueryState } from '../../../components/query-state';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { formatCount } from '../../../lib/format';
import { useComplianceOverview } from '../api';
import { ToneBadge } from './parts';

const rules = (n: number) => `${formatCount(n)} ${n === 1 ? 'rule' : 'rules'}`;

/** How many of Gmail's, Yahoo's, Microsoft's and Apple's sender rules the user's domains do not meet, each domain linked to its scorecard. */
export function ComplianceCard() {
  const overview = useComplianceOverview();
  return (
    <Card data-testid="compliance-card">
      <CardHeader>
        <CardTitle as="h3" className="flex items-center gap-2 text-lg">
          <ListChecks className="size-5 text-muted-foreground" aria-hidden="true" />
          Bulk-sender compliance
        </CardTitle>
        <CardDescription>
          Gmail, Yahoo, Microsoft and Apple sender rules your checked domains do not meet.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState
          query={overview}
          loading={<Spinner className="size-6" label="Loading compliance" />}
          errorMessage="Could not load the compliance scorecards."
          isEmpty={(data) => data.domains.length === 0}
          empty={
            <p className="text-sm text-muted-foreground">Check a domain’s DNS to see which sender rules it meets.</p>
          }
        >
          {(data) => (
            <div className="space-y-3">
              <p className="text-2xl font-bold" data-testid="compliance-not-met">
                {rules(data.notMet)} not met
              </p>
              <ul className="space-y-1 text-sm">
                {data.domains.map((d) => (
                  <li key={d.domainId} className="flex flex-wrap items-center justify-between gap-2">
                    <Link className="underline-offset-4 hover:underline" to={domainCompliancePath(d.domainId)}>
                      {d.domain}
                    </Link>
                    <span className="flex items-center gap-2">
                      <ToneBadge tone={d.notMet > 0 ? 'bad' : 'good'}>{rules(d.notMet)} not met</ToneBadge>
                      {d.unknown > 0 && <span className="text-muted-foreground">{d.unknown} unknown</span>}
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
