import { useParams } from 'react-router';
import {
  COMPLIANCE_PROVIDER_NAMES,
  COMPLIANCE_PROVIDERS,
  type ComplianceProvider,
  type ComplianceScorecard,
} from '@contracts/compliance';
import { DomainIdParams } from '@contracts/domains';
import { DomainNotFound } from '../../components/domain-not-found';
import { QueryState } from '../../components/query-state';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { ApiError, serverMessageOr } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { usePageTrail } from '../../lib/page-trail';
import { PATHS } from '../../lib/paths';
import { useCompliance } from './api';
import { RuleRow } from './components/rule-row';
import { SmtpRepliesCard } from './components/smtp-replies-card';

function Summary({ card }: { card: ComplianceScorecard }) {
  return (
    <Card data-testid="compliance-summary">
      <CardHeader>
        <CardTitle className="text-lg">{card.domain}</CardTitle>
        <CardDescription>
          Each provider’s published sender rules, judged from the evidence InboxPulse holds. Unknown means there is no
          evidence yet, not that the rule is met. Evaluated {formatDateTime(card.evaluatedAt)}.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <p className="text-sm">
          <span className="font-semibold">{card.counts.notMet}</span> not met ·{' '}
          <span className="font-semibold">{card.counts.met}</span> met ·{' '}
          <span className="font-semibold">{card.counts.unknown}</span> unknown
        </p>
      </CardContent>
    </Card>
  );
}

function ProviderCard({ provider, card }: { provider: ComplianceProvider; card: ComplianceScorecard }) {
  const rules = card.rules.filter((r) => r.provider === provider);
  return (
    <Card data-provider={provider}>
      <CardHeader>
        <CardTitle className="text-lg">{COMPLIANCE_PROVIDER_NAMES[provider]}</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="space-y-4">
          {rules.map((rule) => (
            <RuleRow key={rule.id} rule={rule} />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function ComplianceView({ domainId }: { domainId: number }) {
  const query = useCompliance(domainId);
  const name = query.data?.domain;
  usePageTrail(name ? [{ label: 'Domains', to: PATHS.domains }, { label: name }, { label: 'Compliance' }] : null);
  if (query.isError && query.error instanceof ApiError && query.error.status === 404)
    return <DomainNotFound testId="compliance-not-found" />;
  return (
    <QueryState
      query={query}
      loading={
        <Card className="flex justify-center py-10">
          <Spinner className="size-6" label="Judging the rules" />
        </Card>
      }
      errorMessage={(error) => serverMessageOr(error, 'Could not load the compliance scorecard.')}
      errorVariant="card"
    >
      {(card) => (
        <div className="space-y-6" data-testid="compliance-page">
          <Summary card={card} />
          {COMPLIANCE_PROVIDERS.map((provider) => (
            <ProviderCard key={provider} provider={provider} card={card} />
          ))}
          <SmtpRepliesCard replies={card.smtpReplies} rules={card.rules} />
        </div>
      )}
    </QueryState>
  );
}

/** A domain's bulk-sender compliance scorecard (issue 38): /domains/:id/compliance. */
export default function CompliancePage() {
  const params = DomainIdParams.safeParse(useParams());
  if (!params.success) return <DomainNotFound testId="compliance-not-found" />;
  // Keyed by the domain: another domain's verdicts are never shown under this one while its own load.
  return <ComplianceView key={params.data.id} domainId={params.data.id} />;
}
