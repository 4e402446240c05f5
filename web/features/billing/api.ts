import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ApplyCouponResponse,
  BillingPortalResponse,
  ChangeSubscriptionResponse,
  InvoicesResponse,
  SubscriptionResponse,
  UpgradeSubscriptionResponse,
  type ApplyCouponBody,
  type ChangeSubscriptionBody,
  type Invoice,
  type PlanChoice,
} from '@contracts/billing';
import { z } from 'zod';
import { apiJson } from '../../lib/api-client';
import { USAGE_QUERY_KEY } from '../../lib/queries/usage';
import { LOGGED_OUT_NOTICE, useApiMutation } from '../../lib/query-client';
import { useAuth, USER_QUERY_KEY } from '../../lib/session';

// A lost session on a billing call says so once (the client toasts it); the login screen takes over.
const meta = { unauthorized: LOGGED_OUT_NOTICE };

// GET /api/usage is read by Inbox Placement and Integrations too: one definition, in web/lib/queries.
export { useUsage } from '../../lib/queries/usage';

/** Part 2, section 7: the subscription is read "under a subscription key". */
export const SUBSCRIPTION_QUERY_KEY = ['subscription'] as const;
export const INVOICES_QUERY_KEY = ['/api/invoices'] as const;

/** How often, and how many times, the page asks again while a payment it returned from is being confirmed. */
const CONFIRMATION_POLL_MS = 2_000;
const CONFIRMATION_POLLS = 30;

/**
 * GET /api/subscription: the plan, its status and period, and which billing mode this server runs.
 * `awaitingPayment`: back from a card payment, the subscription turns active when Stripe's webhook
 * reaches the server; until then (for a minute at most) it is asked for again.
 */
export function useSubscription({ awaitingPayment = false }: { awaitingPayment?: boolean } = {}) {
  const { isAuthenticated } = useAuth();
  return useQuery({
    queryKey: SUBSCRIPTION_QUERY_KEY,
    queryFn: async (): Promise<SubscriptionResponse> =>
      SubscriptionResponse.parse(await apiJson('GET', '/api/subscription')),
    enabled: isAuthenticated,
    refetchInterval: (query) =>
      awaitingPayment &&
      query.state.data?.subscription.status !== 'active' &&
      query.state.dataUpdateCount < CONFIRMATION_POLLS
        ? CONFIRMATION_POLL_MS
        : false,
    meta,
  });
}

/** GET /api/invoices: newest first; always empty in self-hosted mode. */
export function useInvoices() {
  const { isAuthenticated } = useAuth();
  return useQuery({
    queryKey: INVOICES_QUERY_KEY,
    queryFn: async (): Promise<Invoice[]> =>
      InvoicesResponse.parse(await apiJson('GET', INVOICES_QUERY_KEY[0])).invoices,
    enabled: isAuthenticated,
    meta,
  });
}

/**
 * After any change of plan: the user (its plan opens or closes every gate of the app), the
 * subscription, the usage limits and the invoices are asked for again.
 */
export function useRefreshAfterPlanChange() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [USER_QUERY_KEY, SUBSCRIPTION_QUERY_KEY, USAGE_QUERY_KEY, INVOICES_QUERY_KEY].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey }),
      ),
    );
}

/** A plan change's answer: the server's sentence, when it sends one. */
const Message = z.object({ message: z.string() });

/** POST /api/upgrade-subscription: a client secret when a payment is due (Stripe), else done at once. */
export function useUpgradeMutation() {
  const refresh = useRefreshAfterPlanChange();
  return useApiMutation({
    mutationFn: async (planId: PlanChoice) =>
      UpgradeSubscriptionResponse.parse(await apiJson('POST', '/api/upgrade-subscription', { planId })),
    meta,
    onSuccess: (answer) => {
      // A payment still due changes nothing yet; checkout refreshes once it is paid.
      if (!('clientSecret' in answer)) return refresh();
    },
  });
}

/** POST /api/change-subscription: from one paid price to another, with the applied coupon. */
export function useChangePlanMutation() {
  const refresh = useRefreshAfterPlanChange();
  return useApiMutation({
    mutationFn: async (body: ChangeSubscriptionBody) =>
      ChangeSubscriptionResponse.parse(await apiJson('POST', '/api/change-subscription', body)),
    meta,
    onSuccess: () => refresh(),
  });
}

function useMessageMutation(path: string) {
  const refresh = useRefreshAfterPlanChange();
  return useApiMutation({
    mutationFn: async () => Message.parse(await apiJson('POST', path)).message,
    meta,
    onSuccess: () => refresh(),
  });
}

/** POST /api/downgrade-subscription: back to Free. */
export const useDowngradeMutation = () => useMessageMutation('/api/downgrade-subscription');
/** POST /api/cancel-subscription: canceled at the end of the paid period. */
export const useCancelMutation = () => useMessageMutation('/api/cancel-subscription');
/** POST /api/reactivate-subscription: the scheduled cancellation is withdrawn. */
export const useReactivateMutation = () => useMessageMutation('/api/reactivate-subscription');

/** POST /api/subscription/billing-portal: a one-time link to Stripe's billing portal (Stripe mode). */
export function useBillingPortalMutation() {
  return useApiMutation({
    mutationFn: async () => BillingPortalResponse.parse(await apiJson('POST', '/api/subscription/billing-portal')).url,
    meta,
  });
}

/** POST /api/apply-coupon: checks the code for the chosen plan; the server keeps it for the next paid subscription. */
export function useApplyCouponMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (body: ApplyCouponBody) =>
      ApplyCouponResponse.parse(await apiJson('POST', '/api/apply-coupon', body)),
    meta,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_QUERY_KEY }),
  });
}
