import { useState } from 'react';
import { Plus, Server } from 'lucide-react';
import type { IpAddress } from '@contracts/reputation';
import { IpAddressesState } from '../../components/ip-addresses-state';
import { QueryState } from '../../components/query-state';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { useDomainReputation } from './api';
import { AddIpDialog } from './components/add-ip-dialog';
import { DeleteIpDialog } from './components/delete-ip-dialog';
import { DomainReputationList } from './components/domain-reputation-list';
import { GlobalMetricsCard } from './components/global-metrics-card';
import { IpReputationList } from './components/ip-reputation-list';
import { PostmasterReputationCard } from './components/postmaster-reputation-card';
import { SuggestedIpsCard } from './components/suggested-ips-card';

/** Reputation Monitoring (part 2, section 2); the shell shows its title and breadcrumb (router.tsx). */
export default function ReputationPage() {
  const domains = useDomainReputation();
  const [adding, setAdding] = useState(false);
  // The dialog lives here, not in the row, so a deleted IP's row can go while its dialog finishes.
  const [deleting, setDeleting] = useState<IpAddress | null>(null);

  return (
    <div data-testid="reputation-page" className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">
          Your sending IPs are checked against the DNS blocklists every 2 hours.
        </p>
        <Button onClick={() => setAdding(true)}>
          <Plus aria-hidden="true" />
          Add IP Address
        </Button>
      </div>

      <IpAddressesState>
        {(list) => (
          <>
            <GlobalMetricsCard ips={list} domains={domains.data} />
            <SuggestedIpsCard />
            {list.length === 0 ? (
              <Card data-testid="ips-empty" className="flex flex-col items-center gap-3 px-4 py-12 text-center">
                <Server className="size-10 text-muted-foreground" aria-hidden="true" />
                <h2 className="text-lg font-semibold">No IP addresses monitored yet</h2>
                <p className="max-w-md text-sm text-muted-foreground">
                  Add the IP addresses your mail leaves from. We check them against the DNS blocklists and score their
                  reputation.
                </p>
                <Button onClick={() => setAdding(true)}>
                  <Plus aria-hidden="true" />
                  Add Your First IP Address
                </Button>
              </Card>
            ) : (
              <IpReputationList ips={list} onDelete={setDeleting} />
            )}
          </>
        )}
      </IpAddressesState>

      <QueryState
        query={domains}
        loading={<Spinner className="size-6" label="Loading domain reputation" />}
        errorMessage="Could not load the reputation of your domains."
      >
        {(list) => <DomainReputationList domains={list} />}
      </QueryState>

      <PostmasterReputationCard />

      <AddIpDialog open={adding} onOpenChange={setAdding} />
      {deleting && <DeleteIpDialog ip={deleting} open onOpenChange={(open) => !open && setDeleting(null)} />}
    </div>
  );
}
