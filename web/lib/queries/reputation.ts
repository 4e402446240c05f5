import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { DomainReputation, IpAddress } from '@contracts/reputation';
import { getQueryFn } from '../api-client';
import { useAuth } from '../session';

// The monitored IPs and the domains' reputation are shown by Reputation Monitoring, Blacklist
// Monitoring and the Reputation Test page: one definition, one cache.

export const IP_ADDRESSES_QUERY_KEY = ['/api/ip-addresses'] as const;
export const DOMAIN_REPUTATION_QUERY_KEY = ['/api/reputation/domains'] as const;

const fetchJson = getQueryFn<unknown>({ on401: 'throw' });
const IpAddressList = z.array(IpAddress);
const DomainReputationList = z.array(DomainReputation);

/** GET /api/ip-addresses, "fetched fresh each time" (part 2, section 7): never served from a stale cache. */
export function ipAddressesQueryOptions(enabled = true) {
  return queryOptions({
    queryKey: IP_ADDRESSES_QUERY_KEY,
    queryFn: async (context) => IpAddressList.parse(await fetchJson(context)),
    staleTime: 0,
    enabled,
  });
}

export function useIpAddresses() {
  const { isAuthenticated } = useAuth();
  return useQuery(ipAddressesQueryOptions(isAuthenticated));
}

export function domainReputationQueryOptions(enabled = true) {
  return queryOptions({
    queryKey: DOMAIN_REPUTATION_QUERY_KEY,
    queryFn: async (context) => DomainReputationList.parse(await fetchJson(context)),
    enabled,
  });
}

export function useDomainReputation() {
  const { isAuthenticated } = useAuth();
  return useQuery(domainReputationQueryOptions(isAuthenticated));
}
