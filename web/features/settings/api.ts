import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import {
  ApiKeyStatus as ApiKeyStatusSchema,
  GeneratedApiKey as GeneratedApiKeySchema,
  GeneratedWebhookToken as GeneratedWebhookTokenSchema,
  WebhookTokenStatus as WebhookTokenStatusSchema,
  type ApiKeyStatus,
  type GeneratedApiKey,
  type GeneratedWebhookToken,
  type WebhookTokenStatus,
} from '@contracts/api-keys';
import { WebhookList, type Webhook } from '@contracts/webhooks';
import { toast } from '../../components/ui/use-toast';
import { apiJson, apiRequest } from '../../lib/api-client';
import { PATHS } from '../../lib/paths';
import { LOGGED_OUT_NOTICE, useApiMutation } from '../../lib/query-client';
import { USER_QUERY_KEY } from '../../lib/session';

const meta = { unauthorized: LOGGED_OUT_NOTICE };

export const API_KEY_STATUS_QUERY_KEY = ['/api/api-keys/status'] as const;
export const WEBHOOK_TOKEN_STATUS_QUERY_KEY = ['/api/webhook-tokens/status'] as const;

/** GET /api/api-keys/status: whether there is a key, its preview and dates; never the key itself. */
export function useApiKeyStatus() {
  return useQuery({
    queryKey: API_KEY_STATUS_QUERY_KEY,
    queryFn: async (): Promise<ApiKeyStatus> => ApiKeyStatusSchema.parse(await apiJson('GET', '/api/api-keys/status')),
    meta,
  });
}

/**
 * POST /api/api-keys/generate or /regenerate. The answer is the only place the whole key appears: the
 * caller keeps it on screen, the cache keeps only the status it implies (a new key was never used).
 */
export function useIssueApiKeyMutation(action: 'generate' | 'regenerate') {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (): Promise<GeneratedApiKey> =>
      GeneratedApiKeySchema.parse(await apiJson('POST', `/api/api-keys/${action}`)),
    meta,
    onSuccess: ({ keyPreview, createdAt }) => {
      queryClient.setQueryData<ApiKeyStatus>(API_KEY_STATUS_QUERY_KEY, {
        hasApiKey: true,
        keyPreview,
        createdAt,
        lastUsedAt: null,
      });
    },
  });
}

/** DELETE /api/api-keys: the key stops working at once. */
export function useRevokeApiKeyMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async () => {
      await apiRequest('DELETE', '/api/api-keys');
    },
    meta,
    onSuccess: () => {
      queryClient.setQueryData<ApiKeyStatus>(API_KEY_STATUS_QUERY_KEY, {
        hasApiKey: false,
        keyPreview: null,
        createdAt: null,
        lastUsedAt: null,
      });
    },
  });
}

/** GET /api/webhook-tokens/status. */
export function useWebhookTokenStatus() {
  return useQuery({
    queryKey: WEBHOOK_TOKEN_STATUS_QUERY_KEY,
    queryFn: async (): Promise<WebhookTokenStatus> =>
      WebhookTokenStatusSchema.parse(await apiJson('GET', '/api/webhook-tokens/status')),
    meta,
  });
}

/** POST /api/webhook-tokens/generate or /regenerate: the whole token is in this answer only. */
export function useIssueWebhookTokenMutation(action: 'generate' | 'regenerate') {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (): Promise<GeneratedWebhookToken> =>
      GeneratedWebhookTokenSchema.parse(await apiJson('POST', `/api/webhook-tokens/${action}`)),
    meta,
    onSuccess: ({ tokenPreview, createdAt }) => {
      queryClient.setQueryData<WebhookTokenStatus>(WEBHOOK_TOKEN_STATUS_QUERY_KEY, {
        hasToken: true,
        tokenPreview,
        createdAt,
      });
    },
  });
}

/** DELETE /api/webhook-tokens. */
export function useRevokeWebhookTokenMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async () => {
      await apiRequest('DELETE', '/api/webhook-tokens');
    },
    meta,
    onSuccess: () => {
      queryClient.setQueryData<WebhookTokenStatus>(WEBHOOK_TOKEN_STATUS_QUERY_KEY, {
        hasToken: false,
        tokenPreview: null,
        createdAt: null,
      });
    },
  });
}

export const WEBHOOKS_QUERY_KEY = ['/api/webhooks'] as const;

/** GET /api/webhooks: the account's outgoing webhooks, each with its pause while its endpoint keeps failing. */
export function useWebhooks() {
  return useQuery({
    queryKey: WEBHOOKS_QUERY_KEY,
    queryFn: async (): Promise<Webhook[]> => WebhookList.parse(await apiJson('GET', '/api/webhooks')),
    meta,
  });
}

/** POST /api/webhooks/{id}/test: a test event, which tries a paused endpoint at once. */
export function useSendTestEventMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (webhookId: number) => {
      await apiJson('POST', `/api/webhooks/${webhookId}/test`);
    },
    meta,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_QUERY_KEY }),
  });
}

/**
 * DELETE /api/account: the server removes the user and everything they own and ends the session.
 * Like logging out (part 1, section 4), every cached answer goes and the app returns to '/'.
 */
export function useDeleteAccountMutation() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useApiMutation({
    mutationFn: async () => {
      await apiRequest('DELETE', '/api/account');
    },
    meta,
    onSuccess: () => {
      // Observers of the user query hear "signed out" first, so nothing signed-in renders again...
      queryClient.setQueryData(USER_QUERY_KEY, null);
      queryClient.clear();
      // ...and after the wipe the cache says so too, so '/' shows the landing page without a refetch.
      queryClient.setQueryData(USER_QUERY_KEY, null);
      // Said here, not by the dialog: the dialog is gone with the page once the app leaves it.
      toast({ title: 'Account deleted', description: 'Your account and all of its data have been deleted.' });
      void navigate(PATHS.home);
    },
  });
}
