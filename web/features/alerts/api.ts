import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { Alert as AlertSchema, type Alert } from '@contracts/alerts';
import {
  AlertRule as AlertRuleSchema,
  AlertSettings as AlertSettingsSchema,
  SavedAlertSettings as SavedAlertSettingsSchema,
  type AlertRule,
  type AlertSettings,
  type CreateAlertRule,
  type SavedAlertSettings,
  type UpdateAlertSettings,
} from '@contracts/alert-settings';
import { MessageBody } from '@contracts/errors';
import { apiJson, apiRequest } from '../../lib/api-client';
import { ALERTS_QUERY_KEY, alertsQueryOptions } from '../../lib/queries/alerts';
import { LOGGED_OUT_NOTICE, useApiMutation } from '../../lib/query-client';
import { useAuth } from '../../lib/session';

// Part 2, section 8: every alert call that meets a lost session says "Unauthorized: You are logged out.
// Logging in again..."; the client then shows the login screen in the page's place (AuthGate).
const meta = { unauthorized: LOGGED_OUT_NOTICE };

export const ALERT_SETTINGS_QUERY_KEY = ['/api/alert-settings'] as const;
export const ALERT_RULES_QUERY_KEY = ['/api/alerts/rules'] as const;

const RuleList = z.array(AlertRuleSchema);

/** GET /api/alerts: the same cache as the navigation badge and the dashboard (lib/queries/alerts.ts). */
export function useAlertList() {
  const { isAuthenticated } = useAuth();
  return useQuery({ ...alertsQueryOptions(isAuthenticated), meta });
}

/** Under the list's key, so whatever refreshes the list refreshes an open alert too. */
export function alertQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...ALERTS_QUERY_KEY, id] as const,
    queryFn: async (): Promise<Alert> => AlertSchema.parse(await apiJson('GET', `/api/alerts/${id}`)),
    meta,
  });
}

/** GET /api/alerts/:id: an alert the list no longer holds (an old link) opens too. */
export function useAlert(id: number | null) {
  const { isAuthenticated } = useAuth();
  return useQuery({ ...alertQueryOptions(id ?? 0), enabled: isAuthenticated && id !== null });
}

/** An alert that changed: its own cache is the answer, and the list (and the badge) asks again. */
function useAlertChange(url: (id: number) => string, method: 'PATCH' | 'POST') {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (id: number): Promise<Alert> => AlertSchema.parse(await apiJson(method, url(id))),
    meta,
    onSuccess: (alert) => {
      queryClient.setQueryData(alertQueryOptions(alert.id).queryKey, alert);
      queryClient.setQueryData<Alert[]>(ALERTS_QUERY_KEY, (old) =>
        old?.map((each) => (each.id === alert.id ? alert : each)),
      );
      return queryClient.invalidateQueries({ queryKey: ALERTS_QUERY_KEY, exact: true });
    },
  });
}

/** PATCH /api/alerts/:id/read. */
export function useMarkReadMutation() {
  return useAlertChange((id) => `/api/alerts/${id}/read`, 'PATCH');
}

/** POST /api/alerts/:id/acknowledge: read and acknowledged, with a history entry. */
export function useAcknowledgeMutation() {
  return useAlertChange((id) => `/api/alerts/${id}/acknowledge`, 'POST');
}

/** DELETE /api/alerts/:id (204, no body). */
export function useDeleteAlertMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (id: number): Promise<void> => {
      await apiRequest('DELETE', `/api/alerts/${id}`);
    },
    meta,
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<Alert[]>(ALERTS_QUERY_KEY, (old) => old?.filter((alert) => alert.id !== id));
      queryClient.removeQueries({ queryKey: alertQueryOptions(id).queryKey, exact: true });
      return queryClient.invalidateQueries({ queryKey: ALERTS_QUERY_KEY, exact: true });
    },
  });
}

/** GET /api/alert-settings: the spec's defaults until the user saves. */
export function useAlertSettings() {
  const { isAuthenticated } = useAuth();
  return useQuery({
    queryKey: ALERT_SETTINGS_QUERY_KEY,
    queryFn: async (): Promise<AlertSettings> =>
      AlertSettingsSchema.parse(await apiJson('GET', ALERT_SETTINGS_QUERY_KEY[0])),
    enabled: isAuthenticated,
    meta,
  });
}

/**
 * PUT /api/alert-settings with the changed fields only; the answer is the whole saved form, with the
 * webhook's signing secret when a new one was made. The secret is the caller's to show once: the
 * cache keeps the form without it.
 */
export function useUpdateAlertSettingsMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (changes: UpdateAlertSettings): Promise<SavedAlertSettings> =>
      SavedAlertSettingsSchema.parse(await apiJson('PUT', ALERT_SETTINGS_QUERY_KEY[0], changes)),
    meta,
    onSuccess: ({ webhookSigningSecret: _secret, ...saved }) =>
      queryClient.setQueryData(ALERT_SETTINGS_QUERY_KEY, saved),
  });
}

/** POST /api/alert-settings/sms-code: texts a code to the saved number; the answer says where it went. */
export function useSendSmsCodeMutation() {
  return useApiMutation({
    mutationFn: async () => MessageBody.parse(await apiJson('POST', '/api/alert-settings/sms-code')),
    meta,
  });
}

/** POST /api/alert-settings/sms-code/verify: the answer is the settings with the number verified. */
export function useVerifySmsCodeMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (code: string): Promise<AlertSettings> =>
      AlertSettingsSchema.parse(await apiJson('POST', '/api/alert-settings/sms-code/verify', { code })),
    meta,
    onSuccess: (settings) => queryClient.setQueryData(ALERT_SETTINGS_QUERY_KEY, settings),
  });
}

/** GET /api/alerts/rules. */
export function useAlertRules() {
  const { isAuthenticated } = useAuth();
  return useQuery({
    queryKey: ALERT_RULES_QUERY_KEY,
    queryFn: async (): Promise<AlertRule[]> => RuleList.parse(await apiJson('GET', ALERT_RULES_QUERY_KEY[0])),
    enabled: isAuthenticated,
    meta,
  });
}

/** POST /api/alerts/rules. */
export function useCreateRuleMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (rule: CreateAlertRule): Promise<AlertRule> =>
      AlertRuleSchema.parse(await apiJson('POST', ALERT_RULES_QUERY_KEY[0], rule)),
    meta,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ALERT_RULES_QUERY_KEY }),
  });
}

/** DELETE /api/alerts/rules/:id (204, no body). */
export function useDeleteRuleMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (id: number): Promise<void> => {
      await apiRequest('DELETE', `${ALERT_RULES_QUERY_KEY[0]}/${id}`);
    },
    meta,
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<AlertRule[]>(ALERT_RULES_QUERY_KEY, (old) => old?.filter((rule) => rule.id !== id));
      return queryClient.invalidateQueries({ queryKey: ALERT_RULES_QUERY_KEY });
    },
  });
}
