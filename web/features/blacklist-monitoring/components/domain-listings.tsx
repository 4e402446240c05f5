import { listedCountWords, type DomainReputation } from '@contracts/reputation';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Pill } from '../../../components/ui/pill';
import { blacklistLabel, blacklistTone } from '../blacklist-status';
import { ListAnswers } from './list-answers';

/** The user's domains against the domain blocklists (Spamhaus DBL, SURBL, URIBL...): what a listed domain is listed on. */
export function DomainListings({ domains }: { domains: DomainReputation[] }) {
  return (
    <Card data-testid="domain-listings">
      <CardHeader>
        <CardTitle className="text-lg">Domain Listings</CardTitle>
        <CardDescription>Your sending domains against the domain blocklists, checked with your IPs.</CardDescription>
      </CardHeader>
      <CardContent>
        {domains.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No domains yet. Domains you add on the Domains page are checked here too.
          </p>
        ) : (
          <ul className="divide-y">
            {domains.map((domain) => {
              const checked = domain.lastChecked !== null;
              return (
                <li key={domain.id} data-testid="domain-listing" data-domain={domain.domain} className="space-y-2 py-3">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <h3 className="min-w-0 font-medium wrap-anywhere">{domain.domain}</h3>
                    <Pill tone={checked ? blacklistTone(domain.blacklistCount) : 'none'} testId="blacklist-badge">
                      {checked ? blacklistLabel(domain.blacklistCount) : 'Checking'}
                    </Pill>
                  </div>
                  <p className="text-sm text-muted-foreground">
                    {checked
                      ? `Listed on ${listedCountWords(domain.blacklistCount, domain.totalProviders, domain.reputationDetails, 'domain lists')}`
                      : 'Not checked yet'}
                  </p>
                  {domain.blacklistCount > 0 && (
                    <ListAnswers
                      details={domain.reputationDetails.filter((detail) => detail.status === 'listed')}
                      target={domain.domain}
                    />
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
