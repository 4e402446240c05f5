import type { ReactNode } from 'react';
import type { IpAddress } from '@contracts/reputation';
import { useIpAddresses } from '../lib/queries/reputation';
import { QueryState } from './query-state';
import { ContentSpinner } from './ui/spinner';

/** The monitored IPs, once loaded: the same wait and the same failure on every page built on the list. */
export function IpAddressesState({ children }: { children: (ips: IpAddress[]) => ReactNode }) {
  return (
    <QueryState
      query={useIpAddresses()}
      loading={<ContentSpinner label="Loading your IP addresses" />}
      errorMessage="Could not load your IP addresses."
      errorVariant="card"
    >
      {children}
    </QueryState>
  );
}
