import { Plus } from 'lucide-react';
import type { IpSuggestion } from '@contracts/reputation';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { formatCount, formatDate } from '../../../lib/format';
import { useAddIpMutation, useIpSuggestions } from '../api';

/**
 * Senders the user's own DMARC reports show sending as their domains and passing, not monitored yet
 * (beyond the spec): one click monitors one. Added as shared with the domains it sent as, because
 * reports cannot tell whether anyone else sends from it. Hidden when there is nothing to suggest.
 */
export function SuggestedIpsCard() {
  const suggestions = useIpSuggestions();
  const add = useAddIpMutation();
  if (!suggestions.isSuccess || suggestions.data.length === 0) return null;

  function monitor(suggestion: IpSuggestion) {
    add.mutate(
      {
        ipAddress: suggestion.ipAddress,
        label: 'Seen in DMARC reports',
        type: 'shared',
        associatedDomains: suggestion.domains,
      },
      {
        onSuccess: () =>
          toast({
            title: 'Success',
            description: `${suggestion.ipAddress} was added. Its first blocklist check runs now.`,
          }),
        onError: (failure) =>
          toast({
            title: 'Error',
            description: serverMessageOr(failure, 'Failed to add IP address'),
            variant: 'destructive',
          }),
      },
    );
  }

  return (
    <Card data-testid="suggested-ips">
      <CardHeader>
        <CardTitle className="text-lg">Suggested IPs</CardTitle>
        <CardDescription>
          Your DMARC reports show these addresses sending as your domains and passing. Monitor them to hear when one is
          listed. Forwarders, mailing lists and mailbox providers' servers are left out: they are not yours to get
          delisted.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y">
          {suggestions.data.map((suggestion) => (
            <li
              key={suggestion.ipAddress}
              data-testid="suggested-ip"
              className="flex flex-wrap items-center justify-between gap-3 py-3"
            >
              <div className="min-w-0">
                <p className="font-mono font-medium wrap-anywhere">{suggestion.ipAddress}</p>
                <p className="text-sm text-muted-foreground wrap-anywhere">
                  As {suggestion.domains.join(', ')} · {formatCount(suggestion.passed)} of{' '}
                  {formatCount(suggestion.messages)} messages passed · last seen {formatDate(suggestion.lastSeen)}
                </p>
              </div>
              <Button
                size="sm"
                variant="outline"
                disabled={add.isPending && add.variables?.ipAddress === suggestion.ipAddress}
                onClick={() => monitor(suggestion)}
                aria-label={`Monitor ${suggestion.ipAddress}`}
              >
                <Plus aria-hidden="true" />
                Monitor
              </Button>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
