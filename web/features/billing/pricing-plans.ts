import { COMPANY } from '@content/company';
import { PLAN_LIMITS } from '@contracts/plans';
import type { BillingPriceId } from '@contracts/billing';
import { formatCount } from '../../lib/format';

export type BillingPeriod = 'monthly' | 'annual';

/**
 * A plan as the pricing page shows it (part 2, section 3, "Plan definition (fixed in the client)").
 * The figures are the pricing page's, as the spec writes them (section 9, "Plans (pricing page)");
 * the landing page and the older subscription table say otherwise, each where the spec puts it.
 */
export interface PricingPlan {
  id: 'free' | 'professional' | 'enterprise';
  name: string;
  /** US dollars a month; null: custom pricing. */
  monthlyPrice: number | null;
  /** US dollars a month when billed annually; null: no annual billing. */
  annualPrice: number | null;
  period: string;
  description: string;
  features: string[];
  limitations: string[];
  popular: boolean;
  /** The prices the buttons send (contracts/billing.ts); null where there is none. */
  monthlyPriceId: BillingPriceId | 'free' | null;
  annualPriceId: BillingPriceId | 'free' | null;
  contactEmail?: string;
}

/** '10 inbox placement tests per month', or 'Unlimited …' for a limit the plan does not have. */
const limitText = (value: number | null, unit: string) =>
  value === null ? `Unlimited ${unit}` : `${formatCount(value)} ${unit}`;

/** The three tiers of the pricing page (part 2, section 1: Free, Professional and Custom Enterprise). */
export const PRICING_PLANS: PricingPlan[] = [
  {
    id: 'free',
    name: 'Free',
    monthlyPrice: 0,
    annualPrice: 0,
    period: 'forever',
    description: 'Everything you need to start monitoring your sending domains.',
    features: [
      '5 domains',
      '10,000 emails per month',
      '30-day data retention',
      limitText(PLAN_LIMITS.free.inboxTestsPerMonth, 'inbox placement tests per month'),
      'SPF, DKIM and DMARC monitoring',
      'Blacklist monitoring',
      'Email alerts',
    ],
    limitations: ['No API access', 'No bulk IP import', 'No advanced analytics', 'No Slack, SMS or webhook alerts'],
    popular: false,
    monthlyPriceId: 'free',
    annualPriceId: 'free',
  },
  {
    id: 'professional',
    name: 'Professional',
    monthlyPrice: 49,
    annualPrice: 40,
    period: 'per month',
    description: 'For teams that depend on email reaching the inbox.',
    features: [
      'Unlimited domains',
      'Unlimited email volume',
      '1-year data retention',
      'API access',
      limitText(PLAN_LIMITS.professional.inboxTestsPerMonth, 'inbox placement tests per month'),
      'Bulk IP import by CIDR',
      'Advanced analytics',
      'Slack, SMS and webhook alerts',
      'Priority support',
    ],
    limitations: [],
    popular: true,
    monthlyPriceId: 'professional_monthly',
    annualPriceId: 'professional_annual',
  },
  {
    id: 'enterprise',
    name: 'Custom Enterprise',
    monthlyPrice: null,
    annualPrice: null,
    period: 'custom pricing',
    description: 'For high-volume senders and agencies: limits, support and terms made for you.',
    features: [
      'Everything in Professional',
      'Custom integrations',
      'Dedicated support',
      'White-label options',
      'Single sign-on',
      'SLA guarantees',
      'Custom volume limits',
    ],
    limitations: [],
    popular: false,
    monthlyPriceId: null,
    annualPriceId: null,
    contactEmail: COMPANY.salesEmail,
  },
];

/** What a card's button sells in the chosen period. */
export function choiceFor(plan: PricingPlan, period: BillingPeriod): BillingPriceId | 'free' | 'enterprise' {
  if (plan.id === 'enterprise') return 'enterprise';
  const price = (period === 'annual' && plan.annualPriceId) || plan.monthlyPriceId;
  return price ?? 'free';
}

/** A plan id or price id from ?plan= or ?highlight= (an upgrade prompt's link), as the card and period it names. */
export function planFromParam(value: string | null): { plan: PricingPlan; period?: BillingPeriod } | null {
  if (!value) return null;
  for (const plan of PRICING_PLANS) {
    if (value === plan.id) return { plan };
    if (value === plan.monthlyPriceId && value !== 'free') return { plan, period: 'monthly' };
    if (value === plan.annualPriceId && value !== 'free') return { plan, period: 'annual' };
  }
  return null;
}

/** The "Save 25%" badge of the Monthly/Annual toggle, as the spec writes it. */
export const ANNUAL_BADGE = 'Save 25%';

export const SALES_MAILTO = `mailto:${COMPANY.salesEmail}`;

/** What the subscription costs, as the subscription page states it: from the price the server names. */
export function subscriptionPriceLabel(subscription: { plan: string; priceId: BillingPriceId | null }): string {
  switch (subscription.priceId) {
    case 'professional_annual':
      return '$480 per year ($40 a month)';
    case 'professional_monthly':
      return '$49 per month';
    case 'starter_monthly':
      return '$29 per month';
    default:
      return subscription.plan === 'enterprise'
        ? 'Custom pricing'
        : subscription.plan === 'free'
          ? '$0, free forever'
          : 'No charge';
  }
}
