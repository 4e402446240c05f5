import { queryOptions, useQuery } from '@tanstack/react-query';
import { IntegrationList, type Integration } from '../../../contracts/integrations';
import { getQueryFn } from '../../lib/api-client';
import { useAuth } from '../../lib/session';

export const INTEGRATIONS_QUERY_KEY = ['/api/integrations'] as const;

const fetchIntegrations = getQueryFn<unknown>({ on401: 'throw' });

/** Installed integrations with their last 30 days of synced figures. */
export function integrationsQueryOptions(enabled = true) {
  return queryOptions({
    queryKey: INTEGRATIONS_QUERY_KEY,
    queryFn: async (context): Promise<Integration[]> => IntegrationList.parse(await fetchIntegrations(context)),
    enabled,
  });
}

export function useIntegrations() {
  const { isAuthenticated } = useAuth();
  return useQuery(integrationsQueryOptions(isAuthenticated));
}
