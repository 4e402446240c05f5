import {
  BILLING_MESSAGES,
  PLAN_OF_PRICE,
  priceOfChoice,
  type BillingMode,
  type Invoice,
  type PlanChoice,
  type Subscription,
  type SubscriptionResponse,
} from '@contracts/billing';
import { PLAN_FEATURE_SETS, PLAN_LIMITS, type PlanId, type UsageResponse } from '@contracts/plans';
import { jsonResponse, makeUser, stubFetch } from '../../../test/test-utils';

type Handler = Parameters<typeof stubFetch>[0][string];

export function makeSubscription(overrides: Partial<Subscription> = {}): Subscription {
  return {
    plan: 'free',
    priceId: null,
    status: null,
    current_period_end: null,
    cancel_at_period_end: false,
    coupon: null,
    ...overrides,
  };
}

/** An active paid subscription, as Stripe mode reports one. */
export const PROFESSIONAL_MONTHLY = makeSubscription({
  plan: 'professional',
  priceId: 'professional_monthly',
  status: 'active',
  current_period_end: '2025-07-15T00:00:00.000Z',
});

export function makeUsage(plan: PlanId, usage: Partial<UsageResponse['usage']> = {}): UsageResponse {
  return {
    plan,
    limits: PLAN_LIMITS[plan],
    usage: { domains: 0, inboxTestsThisMonth: 0, emailsThisMonth: 0, alerts: 0, ...usage },
    features: [...PLAN_FEATURE_SETS[plan]],
  };
}

export function makeInvoice(overrides: Partial<Invoice> = {}): Invoice {
  return {
    id: 'in_1',
    number: 'INV-0001',
    created: '2025-06-15T10:00:00.000Z',
    amountPaidCents: 4_900,
    currency: 'usd',
    status: 'paid',
    hostedInvoiceUrl: 'https://invoice.example/in_1',
    ...overrides,
  };
}

function body(init: RequestInit | undefined): Record<string, unknown> {
  return init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
}

/**
 * The billing calls with a server that remembers, as the self-hosted mode behaves: an upgrade or a
 * change takes effect at once, and the user's plan follows the subscription. `overrides` replaces
 * any call (a failure, Stripe's client secret).
 */
export function stubBilling({
  subscription = makeSubscription(),
  mode = 'self-hosted',
  publishableKey = null,
  usage,
  invoices = [],
  overrides = {},
}: {
  subscription?: Subscription;
  mode?: BillingMode;
  publishableKey?: string | null;
  usage?: UsageResponse;
  invoices?: Invoice[];
  overrides?: Record<string, Handler>;
} = {}) {
  let current = subscription;
  const answer = (): SubscriptionResponse => ({ subscription: current, billing: { mode, publishableKey } });
  const take = (choice: PlanChoice) => {
    const price = priceOfChoice(choice);
    current =
      price === 'free'
        ? makeSubscription()
        : {
            ...current,
            plan: PLAN_OF_PRICE[price],
            priceId: price,
            status: 'active',
            cancel_at_period_end: false,
            current_period_end: null,
          };
    return price;
  };
  return stubFetch({
    'GET /api/user': () => jsonResponse(makeUser({ subscriptionPlan: current.plan })),
    'GET /api/alerts': () => jsonResponse([]),
    'GET /api/subscription': () => jsonResponse(answer()),
    'GET /api/usage': () => jsonResponse(usage ?? makeUsage(current.plan)),
    'GET /api/invoices': () => jsonResponse({ invoices }),
    'POST /api/upgrade-subscription': (init) => {
      const planId = take(body(init).planId as PlanChoice);
      return jsonResponse({ message: BILLING_MESSAGES.upgraded, planId });
    },
    'POST /api/change-subscription': (init) => {
      take(body(init).newPlanId as PlanChoice);
      return jsonResponse({ subscription: current });
    },
    'POST /api/downgrade-subscription': () => {
      take('free');
      return jsonResponse({ message: BILLING_MESSAGES.downgraded });
    },
    'POST /api/cancel-subscription': () => {
      current = { ...current, cancel_at_period_end: true };
      return jsonResponse({ message: BILLING_MESSAGES.canceled });
    },
    'POST /api/reactivate-subscription': () => {
      current = { ...current, cancel_at_period_end: false };
      return jsonResponse({ message: BILLING_MESSAGES.reactivated });
    },
    ...overrides,
  });
}

/** The 'METHOD /path' of every call made, in order. */
export function callsOf(mock: ReturnType<typeof stubFetch>): string[] {
  return mock.mock.calls.map(
    ([input, init]) => `${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`,
  );
}
