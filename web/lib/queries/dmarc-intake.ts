import { queryOptions, useQuery } from '@tanstack/react-query';
import { DmarcIntake } from '@contracts/dmarc';
import { apiJson } from '../api-client';
import { useAuth } from '../session';

// The report address (rua=) is shown by the DNS setup of Domain Management and by the DMARC panel:
// one definition, one cache, and the address itself only ever from the server.

export const DMARC_INTAKE_KEY = ['/api/dmarc/intake'] as const;

/** Where receivers should send reports (the rua= address); it does not change while the app runs. */
export function intakeQueryOptions() {
  return queryOptions({
    queryKey: DMARC_INTAKE_KEY,
    queryFn: async () => DmarcIntake.parse(await apiJson('GET', '/api/dmarc/intake')),
    staleTime: Infinity,
  });
}

export function useDmarcIntake(enabled = true) {
  const { isAuthenticated } = useAuth();
  return useQuery({ ...intakeQueryOptions(), enabled: isAuthenticated && enabled });
}
