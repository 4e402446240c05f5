import { useState } from 'react';
import { listedCountWords, type DomainReputation } from '@contracts/reputation';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { TONE_TEXT } from '../../../components/tone';
import { formatCount } from '../../../lib/format';
import { cn } from '../../../lib/utils';
import { scoreLabel, senderScoreTone } from '../status';
import { ListingTimeline } from './listing-timeline';
import { ScoreFactors } from './score-factors';

function age(years: number | null): string {
  if (years === null) return 'Unknown';
  if (years < 1) return 'Under 1 year';
  return `${formatCount(years)} ${years === 1 ? 'year' : 'years'}`;
}

/** How the domain's score is made and its listing history; the history is asked for once opened. */
function DomainDetails({ domain }: { domain: DomainReputation }) {
  const [open, setOpen] = useState(false);
  if (domain.lastChecked === null) return null;
  return (
    <details className="text-sm" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="cursor-pointer text-muted-foreground">How this score is made, and listing history</summary>
      {open && (
        <div data-testid="domain-details" className="grid gap-4 pt-2 md:grid-cols-2">
          <ScoreFactors factors={domain.scoreFactors} testId="domain-score-factors" />
          <ListingTimeline target={{ domainId: domain.id }} />
        </div>
      )}
    </details>
  );
}

/**
 * Domain Reputation (part 2, section 2). The original showed 100 and age 0 for what it did not know
 * and a fixed "Excellent": here a missing score is "Not scored yet", a missing age or registrar
 * "Unknown", and the label follows the score.
 */
export function DomainReputationList({ domains }: { domains: DomainReputation[] }) {
  return (
    <Card data-testid="domain-reputation">
      <CardHeader>
        <CardTitle className="text-lg">Domain Reputation</CardTitle>
        <CardDescription>
          Each domain's score from its blocklist listings, its SPF, DKIM and DMARC records, its DMARC pass rate and
          inbox placement; age and registrar from RDAP.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {domains.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No domains yet. Add your sending domains on the Domains page to score them.
          </p>
        ) : (
          <ul className="divide-y">
            {domains.map((domain) => {
              const tone = senderScoreTone(domain.reputationScore);
              return (
                <li
                  key={domain.id}
                  data-testid="domain-reputation-row"
                  data-domain={domain.domain}
                  className="space-y-2 py-3"
                >
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <h3 className="min-w-0 font-medium wrap-anywhere">{domain.domain}</h3>
                    <p data-testid="domain-score" data-tone={tone} className={cn('font-semibold', TONE_TEXT[tone])}>
                      {domain.reputationScore === null
                        ? 'Not scored yet'
                        : `${domain.reputationScore}/100 · ${scoreLabel(domain.reputationScore)}`}
                    </p>
                  </div>
                  <dl className="grid grid-cols-1 gap-1 text-sm sm:grid-cols-3">
                    <div className="flex gap-1">
                      <dt className="text-muted-foreground">Age:</dt>
                      <dd data-testid="domain-age">{age(domain.domainAge)}</dd>
                    </div>
                    <div className="flex min-w-0 gap-1">
                      <dt className="text-muted-foreground">Registrar:</dt>
                      <dd data-testid="domain-registrar" className="min-w-0 wrap-anywhere">
                        {domain.registrar ?? 'Unknown'}
                      </dd>
                    </div>
                    <div className="flex gap-1">
                      <dt className="text-muted-foreground">Listed on:</dt>
                      <dd data-testid="domain-listed-count">
                        {domain.lastChecked
                          ? listedCountWords(
                              domain.blacklistCount,
                              domain.totalProviders,
                              domain.reputationDetails,
                              'domain lists',
                            )
                          : 'Not checked yet'}
                      </dd>
                    </div>
                  </dl>
                  <DomainDetails domain={domain} />
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
