import { queryOptions } from '@tanstack/react-query';
import { Diagnosis } from '@contracts/timeline';
import { apiJson } from '../api-client';

// A domain's diagnosis (its detected drops and their likely causes) is shown by the timeline page
// and, for the last 7 days, by the dashboard: one definition, one cache.

/** Starts with the domain's key, so a change to the domain's evidence (a note) refreshes it by prefix. */
export function diagnosisQueryKey(domainId: number, days?: number) {
  return days === undefined
    ? (['/api/domains', domainId, 'diagnosis'] as const)
    : (['/api/domains', domainId, 'diagnosis', days] as const);
}

export function diagnosisQueryOptions(domainId: number, days: number, enabled = true) {
  return queryOptions({
    queryKey: diagnosisQueryKey(domainId, days),
    // The default fetcher GETs queryKey[0] only, so the id and the period go into the path here.
    queryFn: async (): Promise<Diagnosis> =>
      Diagnosis.parse(await apiJson('GET', `/api/domains/${domainId}/diagnosis?days=${days}`)),
    enabled,
  });
}
