import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { WebhookTokenStatus as WebhookTokenStatusSchema, type WebhookTokenStatus } from '@contracts/api-keys';
import { StoredDeliveryEvent } from '@contracts/delivery-events';
import { EspWebhookList, type EspWebhookProvider, type EspWebhookStatus } from '@contracts/esp-webhooks';
import { FeedbackLoopStatus } from '@contracts/feedback-loops';
import {
  Integration as IntegrationSchema,
  IntegrationList,
  SyncQueued as SyncQueuedSchema,
  TestConnectionResult as TestConnectionResultSchema,
  type InstallIntegrationBody,
  type Integration,
  type SyncQueued,
  type TestConnectionBody,
  type TestConnectionResult,
  type UpdateIntegrationBody,
} from '@contracts/integrations';
import type { MtaId } from '@content/docs/mta-integration';
import { apiJson, apiRequest } from '../../lib/api-client';
import { LOGGED_OUT_NOTICE, useApiMutation } from '../../lib/query-client';
import { useAuth } from '../../lib/session';

// Every integrations call that meets a lost session says so once (the client toasts it) and the
// login screen takes the page's place.
const meta = { unauthorized: LOGGED_OUT_NOTICE };

/** The dashboard's ESP Data view reads the same list under the same key. */
export const INTEGRATIONS_QUERY_KEY = ['/api/integrations'] as const;
export const WEBHOOK_TOKEN_STATUS_QUERY_KEY = ['/api/webhook-tokens/status'] as const;

/** GET /api/integrations: the user's installed plugins with their sync state; never their secrets. */
export function useIntegrations() {
  const { isAuthenticated } = useAuth();
  return useQuery({
    queryKey: INTEGRATIONS_QUERY_KEY,
    queryFn: async (): Promise<Integration[]> => IntegrationList.parse(await apiJson('GET', INTEGRATIONS_QUERY_KEY[0])),
    enabled: isAuthenticated,
    meta,
  });
}

/** POST /api/integrations/test: the provider's own answer to the credentials; nothing is stored. */
export function useTestConnectionMutation() {
  return useApiMutation({
    mutationFn: async (body: TestConnectionBody): Promise<TestConnectionResult> =>
      TestConnectionResultSchema.parse(await apiJson('POST', '/api/integrations/test', body)),
    meta,
  });
}

function useSetIntegration() {
  const queryClient = useQueryClient();
  return (integration: Integration) => {
    queryClient.setQueryData<Integration[]>(INTEGRATIONS_QUERY_KEY, (old) =>
      old ? [...old.filter((each) => each.id !== integration.id), integration] : [integration],
    );
    return queryClient.invalidateQueries({ queryKey: INTEGRATIONS_QUERY_KEY, exact: true });
  };
}

/**
 * POST /api/integrations: the server tests the credentials first, then installs (409 when it is
 * installed already). `onInstalled` runs here rather than as a mutate() callback: the new list swaps
 * the install form for the installed plugin's view, and mutate()'s callbacks do not run once their
 * component is gone.
 */
export function useInstallMutation(onInstalled?: (integration: Integration) => void) {
  const setIntegration = useSetIntegration();
  return useApiMutation({
    mutationFn: async (body: InstallIntegrationBody): Promise<Integration> =>
      IntegrationSchema.parse(await apiJson('POST', '/api/integrations', body)),
    meta,
    onSuccess: (integration) => {
      onInstalled?.(integration);
      return setIntegration(integration);
    },
  });
}

/** PATCH /api/integrations/:id: changed settings (tested again when the provider sees them), or a pause or resume. */
export function useUpdateMutation() {
  const setIntegration = useSetIntegration();
  return useApiMutation({
    mutationFn: async ({ id, body }: { id: number; body: UpdateIntegrationBody }): Promise<Integration> =>
      IntegrationSchema.parse(await apiJson('PATCH', `/api/integrations/${id}`, body)),
    meta,
    onSuccess: setIntegration,
  });
}

/** POST /api/integrations/:id/sync: a sync is queued and runs in the background. */
export function useSyncNowMutation() {
  const setIntegration = useSetIntegration();
  return useApiMutation({
    mutationFn: async (id: number): Promise<SyncQueued> =>
      SyncQueuedSchema.parse(await apiJson('POST', `/api/integrations/${id}/sync`)),
    meta,
    onSuccess: ({ integration }) => setIntegration(integration),
  });
}

/**
 * DELETE /api/integrations/:id (204): with `keepMetrics` the daily figures it synced stay.
 * `onUninstalled` runs here for the same reason as useInstallMutation's.
 */
export function useUninstallMutation(onUninstalled?: () => void) {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async ({ id, keepMetrics }: { id: number; keepMetrics: boolean }): Promise<void> => {
      await apiRequest('DELETE', `/api/integrations/${id}${keepMetrics ? '?keepMetrics=true' : ''}`);
    },
    meta,
    onSuccess: (_answer, { id }) => {
      onUninstalled?.();
      queryClient.setQueryData<Integration[]>(INTEGRATIONS_QUERY_KEY, (old) => old?.filter((each) => each.id !== id));
      return queryClient.invalidateQueries({ queryKey: INTEGRATIONS_QUERY_KEY, exact: true });
    },
  });
}

/** GET /api/webhook-tokens/status: whether the MTAs have a token to send, and its preview (Settings makes it). */
export function useWebhookTokenStatus(enabled: boolean) {
  const { isAuthenticated } = useAuth();
  return useQuery({
    queryKey: WEBHOOK_TOKEN_STATUS_QUERY_KEY,
    queryFn: async (): Promise<WebhookTokenStatus> =>
      WebhookTokenStatusSchema.parse(await apiJson('GET', WEBHOOK_TOKEN_STATUS_QUERY_KEY[0])),
    enabled: isAuthenticated && enabled,
    meta,
  });
}

const LatestEvents = z.array(StoredDeliveryEvent);

/** The latest delivery event each MTA posted (GET /api/delivery-events?source=…&limit=1), null for none yet. */
export function useLatestMtaEvents(ids: readonly MtaId[], enabled: boolean) {
  const { isAuthenticated } = useAuth();
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: [`/api/delivery-events?source=${id}&limit=1`] as const,
      queryFn: async () =>
        LatestEvents.parse(await apiJson('GET', `/api/delivery-events?source=${id}&limit=1`))[0] ?? null,
      enabled: isAuthenticated && enabled,
      meta,
    })),
  });
}

export const ESP_WEBHOOKS_QUERY_KEY = ['/api/esp-webhooks'] as const;

/** GET /api/esp-webhooks: each ESP event webhook's path, whether its secret is saved, and its last event. */
export function useEspWebhooks(enabled: boolean) {
  const { isAuthenticated } = useAuth();
  return useQuery({
    queryKey: ESP_WEBHOOKS_QUERY_KEY,
    queryFn: async (): Promise<EspWebhookStatus[]> =>
      EspWebhookList.parse(await apiJson('GET', ESP_WEBHOOKS_QUERY_KEY[0])),
    enabled: isAuthenticated && enabled,
    meta,
  });
}

/** PUT or DELETE /api/esp-webhooks/<provider>/secret: the secret is saved (or removed), then the list is read again. */
export function useEspSecretMutation(provider: EspWebhookProvider) {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (secret: string | null) =>
      secret === null
        ? apiJson('DELETE', `/api/esp-webhooks/${provider}/secret`)
        : apiJson('PUT', `/api/esp-webhooks/${provider}/secret`, { secret }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ESP_WEBHOOKS_QUERY_KEY, exact: true }),
    meta,
  });
}

export const FEEDBACK_LOOPS_QUERY_KEY = ['/api/feedback-loops'] as const;

/** GET /api/feedback-loops: the fbl@ address and the complaints the loops brought. */
export function useFeedbackLoops() {
  const { isAuthenticated } = useAuth();
  return useQuery({
    queryKey: FEEDBACK_LOOPS_QUERY_KEY,
    queryFn: async () => FeedbackLoopStatus.parse(await apiJson('GET', FEEDBACK_LOOPS_QUERY_KEY[0])),
    enabled: isAuthenticated,
    meta,
  });
}
