import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import {
  LoginResponse,
  PasswordSetResponse,
  RegisterResponse,
  ValidateResetTokenResponse,
  VerifyEmailResponse,
  type LoginBody,
  type RegisterBody,
  type ResetPasswordBody,
} from '@contracts/auth';
import { MessageBody } from '@contracts/errors';
import { apiJson, apiRequest } from '../../lib/api-client';
import { PATHS } from '../../lib/paths';
import { useApiMutation } from '../../lib/query-client';
import { USER_QUERY_KEY } from '../../lib/session';

export function useLoginMutation() {
  return useApiMutation({
    mutationFn: async (body: LoginBody) => LoginResponse.parse(await apiJson('POST', '/api/login', body)),
  });
}

export function useRegisterMutation() {
  return useApiMutation({
    mutationFn: async (body: RegisterBody) => RegisterResponse.parse(await apiJson('POST', '/api/register', body)),
  });
}

export function useForgotPasswordMutation() {
  return useApiMutation({
    mutationFn: async (email: string) => MessageBody.parse(await apiJson('POST', '/api/forgot-password', { email })),
  });
}

export function useResetPasswordMutation() {
  return useApiMutation({
    mutationFn: async (body: ResetPasswordBody) =>
      PasswordSetResponse.parse(await apiJson('POST', '/api/reset-password', body)),
  });
}

export function useResendVerificationMutation() {
  return useApiMutation({
    mutationFn: async (email: string) =>
      MessageBody.parse(await apiJson('POST', '/api/resend-verification-public', { email })),
  });
}

// Token checks are POSTs run once when a page opens. As queries keyed by the token they run once
// even when React mounts the page twice (StrictMode) and are not repeated on focus; gcTime 0 so
// a token used up by a reset is checked again if the page is opened again.
export function resetTokenQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['/api/validate-reset-token', token],
    queryFn: async () =>
      ValidateResetTokenResponse.parse(await apiJson('POST', '/api/validate-reset-token', { token })),
    staleTime: Infinity,
    gcTime: 0,
  });
}

export function verifyEmailQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['/api/verify-email', token],
    queryFn: async () => VerifyEmailResponse.parse(await apiJson('POST', '/api/verify-email', { token })),
    staleTime: Infinity,
    gcTime: 0,
  });
}

/**
 * Part 1, section 4: logging out clears every cached answer and goes to '/', whether or not the
 * server call worked (a dead session must still be able to leave).
 */
export function useLogoutMutation() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useApiMutation({
    mutationFn: () => apiRequest('POST', '/api/logout'),
    onSettled: () => {
      // Observers of the user query hear "signed out" first, so nothing signed-in renders again...
      queryClient.setQueryData(USER_QUERY_KEY, null);
      queryClient.clear();
      // ...and after the wipe the cache says so too, so '/' shows the landing page without a refetch.
      queryClient.setQueryData(USER_QUERY_KEY, null);
      void navigate(PATHS.home);
    },
  });
}
