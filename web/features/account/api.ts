import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AccountSessionList,
  AccountStorage,
  SignOutOthersResponse,
  type AccountSession,
  type ChangePasswordBody,
} from '@contracts/account';
import { PasswordSetResponse } from '@contracts/auth';
import { apiJson, apiRequest } from '../../lib/api-client';
import { LOGGED_OUT_NOTICE, useApiMutation } from '../../lib/query-client';
import { USER_QUERY_KEY } from '../../lib/session';

export const SESSIONS_QUERY_KEY = ['/api/account/sessions'] as const;

/** GET /api/account/sessions: the signed-in user's live sessions, this device's marked current. */
export function sessionsQueryOptions() {
  return queryOptions({
    queryKey: SESSIONS_QUERY_KEY,
    queryFn: async (): Promise<AccountSession[]> =>
      AccountSessionList.parse(await apiJson('GET', '/api/account/sessions')).sessions,
    meta: { unauthorized: LOGGED_OUT_NOTICE },
  });
}

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}

/** DELETE /api/account/sessions/:id. Revoking this device's own session signs it out: the session is asked for again. */
export function useRevokeSessionMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (session: Pick<AccountSession, 'id' | 'current'>) => {
      await apiRequest('DELETE', `/api/account/sessions/${encodeURIComponent(session.id)}`);
    },
    meta: { unauthorized: LOGGED_OUT_NOTICE },
    onSuccess: (_data, session) => {
      if (session.current) return queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      return queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY });
    },
  });
}

/** POST /api/account/sessions/sign-out-others: every session but this one ends. */
export function useSignOutOthersMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async () => SignOutOthersResponse.parse(await apiJson('POST', '/api/account/sessions/sign-out-others')),
    meta: { unauthorized: LOGGED_OUT_NOTICE },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY }),
  });
}

/** POST /api/account/password: the other sessions end, so the list is asked for again. */
export function useChangePasswordMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (body: ChangePasswordBody) =>
      PasswordSetResponse.parse(await apiJson('POST', '/api/account/password', body)),
    meta: { unauthorized: LOGGED_OUT_NOTICE },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY }),
  });
}

/** GET /api/account/storage: what the account keeps, measured by the server. */
export function useAccountStorage() {
  return useQuery({
    queryKey: ['/api/account/storage'],
    queryFn: async () => AccountStorage.parse(await apiJson('GET', '/api/account/storage')),
    meta: { unauthorized: LOGGED_OUT_NOTICE },
  });
}
