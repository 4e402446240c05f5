import { queryOptions, useQuery } from '@tanstack/react-query';
import { ComplianceScorecard } from '@contracts/compliance';
import { apiJson } from '../../lib/api-client';
import { LOGGED_OUT_NOTICE } from '../../lib/query-client';
import { useAuth } from '../../lib/session';

/** Starts with the domain's key (as its detail and timeline do), so one prefix reaches everything about it. */
export function complianceQueryOptions(domainId: number) {
  return queryOptions({
    queryKey: ['/api/domains', domainId, 'compliance'] as const,
    queryFn: async (): Promise<ComplianceScorecard> =>
      ComplianceScorecard.parse(await apiJson('GET', `/api/domains/${domainId}/compliance`)),
    meta: { unauthorized: LOGGED_OUT_NOTICE },
  });
}

/** GET /api/domains/:id/compliance: the domain's scorecard. */
export function useCompliance(domainId: number) {
  const { isAuthenticated } = useAuth();
  return useQuery({ ...complianceQueryOptions(domainId), enabled: isAuthenticated });
}
