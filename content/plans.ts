/**
 * The plan cards of the landing page (part 1, sections 6 and 9). The pricing page and the older
 * subscription table state other limits (part 2, section 9); those readings live with those pages.
 * This is the landing page's marketing wording and what the chat assistant quotes.
 */
export type PlanCardId = 'free' | 'professional' | 'enterprise';

export interface PlanCard {
  id: PlanCardId;
  name: string;
  /** What the card shows as the price, e.g. '$49'. */
  priceLabel: string;
  /** The unit under the price, e.g. 'per month'. */
  pricePeriod: string;
  /** Monthly price in US dollars; null when the price is agreed with sales. */
  priceMonthly: number | null;
  description: string;
  features: string[];
  limitations: string[];
  retention: string;
  popular?: boolean;
}

export const PLANS: PlanCard[] = [
  {
    id: 'free',
    name: 'Free',
    priceLabel: '$0',
    pricePeriod: 'forever',
    priceMonthly: 0,
    description: 'Free forever, no credit card required. Everything you need to start monitoring one domain.',
    features: [
      '1 domain',
      'Basic monitoring',
      'Email alerts only',
      'Email support',
      '7-day data retention',
      'Basic ESP/MTA integrations',
    ],
    limitations: ['No real-time monitoring', 'No advanced analytics', 'No API access', 'No bulk IP import'],
    retention: '7 days',
  },
  {
    id: 'professional',
    name: 'Professional',
    priceLabel: '$49',
    pricePeriod: 'per month',
    priceMonthly: 49,
    description: 'For teams that depend on email: unlimited domains, every alert channel and the API.',
    features: [
      'Unlimited domains',
      'All alert channels (Slack, SMS)',
      'Real-time monitoring',
      'Advanced analytics',
      'API access',
      'Bulk IP import by CIDR',
      'All integrations',
      'Priority support',
      '90-day data retention',
    ],
    limitations: [],
    retention: '90 days',
    popular: true,
  },
  {
    id: 'enterprise',
    name: 'Custom Enterprise',
    priceLabel: 'Custom',
    pricePeriod: 'contact sales',
    priceMonthly: null,
    description: 'For high-volume senders and agencies that need tailored limits, support and terms.',
    features: [
      'Everything in Professional',
      'Custom integrations',
      'Dedicated support',
      'White-label options',
      'Custom data retention',
      'SLA guarantees',
      'Custom volume limits',
    ],
    limitations: [],
    retention: 'Custom',
  },
];
