import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  BulkImportResponse,
  IpAddress as IpAddressSchema,
  IpSuggestion,
  ListingPeriod,
  type AddIpRequest,
  type BulkImportRequest,
  type IpAddress,
} from '@contracts/reputation';
import { apiJson, apiRequest } from '../../lib/api-client';
import { useApiMutation } from '../../lib/query-client';
import { DOMAIN_REPUTATION_QUERY_KEY, IP_ADDRESSES_QUERY_KEY } from '../../lib/queries/reputation';
import { useAuth } from '../../lib/session';

export { useDomainReputation, useIpAddresses } from '../../lib/queries/reputation';

export const IP_SUGGESTIONS_QUERY_KEY = ['/api/ip-addresses/suggestions'] as const;
const LISTINGS_KEY = ['/api/reputation/listings'] as const;

const SuggestionList = z.array(IpSuggestion);
const ListingList = z.array(ListingPeriod);

/** GET /api/ip-addresses/suggestions: senders the user's DMARC reports show passing as their domains. */
export function useIpSuggestions() {
  const { isAuthenticated } = useAuth();
  return useQuery({
    queryKey: IP_SUGGESTIONS_QUERY_KEY,
    queryFn: async () => SuggestionList.parse(await apiJson('GET', IP_SUGGESTIONS_QUERY_KEY[0])),
    enabled: isAuthenticated,
  });
}

/** Whose listing history: one IP address or one domain. */
export type ListingTarget = { ipAddressId: number } | { domainId: number };

export function listingsQueryOptions(target: ListingTarget) {
  const [name, id] = 'ipAddressId' in target ? ['ipAddressId', target.ipAddressId] : ['domainId', target.domainId];
  return queryOptions({
    queryKey: [...LISTINGS_KEY, { [name]: id }] as const,
    // The default fetcher GETs queryKey[0] only, so the id is put into the URL here.
    queryFn: async () => ListingList.parse(await apiJson('GET', `/api/reputation/listings?${name}=${id}`)),
  });
}

/** The listing history of one IP or domain, asked for only once its row is opened. */
export function useListings(target: ListingTarget, enabled: boolean) {
  return useQuery({ ...listingsQueryOptions(target), enabled });
}

/** A change of the monitored IPs changes the list, the suggestions (a monitored IP is no longer one) and the histories. */
function refreshAfterChange(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: IP_ADDRESSES_QUERY_KEY, exact: true }),
    queryClient.invalidateQueries({ queryKey: IP_SUGGESTIONS_QUERY_KEY }),
    queryClient.invalidateQueries({ queryKey: DOMAIN_REPUTATION_QUERY_KEY }),
  ]);
}

/** POST /api/ip-addresses (the Single IP tab and a suggestion's Monitor button). */
export function useAddIpMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (body: AddIpRequest): Promise<IpAddress> =>
      IpAddressSchema.parse(await apiJson('POST', '/api/ip-addresses', body)),
    onSuccess: () => refreshAfterChange(queryClient),
  });
}

/** POST /api/ip-addresses/bulk-import: all of the block's addresses or none. */
export function useBulkImportMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (body: BulkImportRequest) =>
      BulkImportResponse.parse(await apiJson('POST', '/api/ip-addresses/bulk-import', body)),
    onSuccess: () => refreshAfterChange(queryClient),
  });
}

/** DELETE /api/ip-addresses/:id (204, no body). */
export function useDeleteIpMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (id: number): Promise<void> => {
      await apiRequest('DELETE', `/api/ip-addresses/${id}`);
    },
    onSuccess: (_answer, id) => {
      // Gone from the list at once; the refetch confirms it.
      queryClient.setQueryData<IpAddress[]>(IP_ADDRESSES_QUERY_KEY, (old) => old?.filter((ip) => ip.id !== id));
      queryClient.removeQueries({ queryKey: [...LISTINGS_KEY, { ipAddressId: id }], exact: true });
      return refreshAfterChange(queryClient);
    },
  });
}
