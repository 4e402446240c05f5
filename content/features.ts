/**
 * Product capabilities and the marketing numbers (part 1, section 1; part 2, section 9).
 * The claims disagree with each other on purpose: each is kept as written and used where the spec
 * puts it (see CLAIMS). Plain data, no React or Node imports.
 */

/** Marketing numbers as named constants. Pick the one for the place you are writing. */
export const CLAIMS = {
  /** Mailbox providers: landing page, API docs, inbox tests. */
  providersLanding: '45+',
  /** Mailbox providers: FAQ, login page, onboarding text, one integration page. */
  providersFaq: '25+',
  /** Mailbox providers: integrations marketing ("15+ major providers"). */
  providersIntegrations: '15+',
  /** Seed-network status default when the status call returns nothing. */
  seedNetworkDefaultProviders: 31,
  /** Global Providers figure on the dashboard. */
  globalProvidersDashboard: 45,
  regions: 5,
  setupMinutes: 10,
  sampleTestSeconds: 45,
  /** Blacklist providers: monitoring default. */
  blacklistsMonitoring: 47,
  /** Blacklist providers: overview text ("about 50"). */
  blacklistsOverview: 50,
  /** Blacklist providers: API documentation. */
  blacklistsDocs: 52,
  alertCategories: 14,
  /** Alert types listed in the documentation. */
  alertTypesDocumented: 11,
  /** Blacklist checks run every 2 hours. */
  monitoringIntervalHours: 2,
} as const;

export interface Feature {
  id: string;
  title: string;
  description: string;
}

export const FEATURES: Feature[] = [
  {
    id: 'inbox-placement',
    title: 'Inbox Placement Testing',
    description: `Send one real email to your test address and see whether it lands in the inbox, the spam folder or goes missing at ${CLAIMS.providersLanding} mailbox providers, reported by provider, region, country and mailbox system.`,
  },
  {
    id: 'authentication',
    title: 'DMARC, SPF & DKIM Monitoring',
    description:
      'Check the SPF, DKIM and DMARC records of every sending domain, get DNS setup suggestions and follow your DMARC reports to see who sends mail on your behalf.',
  },
  {
    id: 'health-scoring',
    title: 'Health Scoring with AI-Powered Insights',
    description:
      'One email health score out of 100 built from domain reputation, IP reputation, authentication and deliverability, with AI-powered insights on what to improve first.',
  },
  {
    id: 'reputation',
    title: 'Reputation & Blacklist Monitoring',
    description: `Monitor single IP addresses or whole CIDR blocks and your domains against ${CLAIMS.blacklistsMonitoring} blacklist providers, checked every ${CLAIMS.monitoringIntervalHours} hours.`,
  },
  {
    id: 'alerts',
    title: 'Smart Alerts',
    description: `Alerts in ${CLAIMS.alertCategories} categories (critical, reputation and performance) delivered by email, Slack, SMS or webhook, immediately or as a summary.`,
  },
  {
    id: 'integrations',
    title: 'ESP & MTA Integrations',
    description:
      'Connect SendGrid, Mailchimp, Klaviyo, Mailgun and more with an API key, add Google Postmaster Tools data, and stream events from Postfix, PowerMTA and other MTAs.',
  },
  {
    id: 'api',
    title: 'REST API & Webhooks',
    description:
      'Automate domains, inbox tests, blacklist checks and alerts with a REST API secured by bearer API keys, signed webhooks and SDK pointers for Node.js, Python, PHP and Ruby.',
  },
];

export interface OnboardingStep {
  step: number;
  title: string;
  description: string;
}

/** Getting started takes three steps (part 1, section 1). */
export const ONBOARDING_STEPS: OnboardingStep[] = [
  {
    step: 1,
    title: 'Add & verify your domain',
    description: 'Add your sending domain and verify that you own it by publishing one DNS TXT record.',
  },
  {
    step: 2,
    title: 'Connect your ESP',
    description:
      'Connect SendGrid, Mailchimp, Klaviyo or another email service provider with an API key to import your sending metrics.',
  },
  {
    step: 3,
    title: 'Run inbox tests',
    description: 'Send a real email to your test address and see where it lands across mailbox providers and regions.',
  },
];

export interface AlertChannel {
  id: 'email' | 'slack' | 'sms' | 'webhook';
  name: string;
  description: string;
  /** The plan that unlocks the channel. */
  plan: 'Free' | 'Professional';
}

export const ALERT_CHANNELS: AlertChannel[] = [
  {
    id: 'email',
    name: 'Email',
    description: 'Alerts in your inbox, immediately or as an hourly, daily or weekly summary.',
    plan: 'Free',
  },
  {
    id: 'slack',
    name: 'Slack',
    description: 'Post alerts to the Slack channel your team already watches.',
    plan: 'Professional',
  },
  {
    id: 'sms',
    name: 'SMS',
    description: 'Text messages for the critical problems that cannot wait.',
    plan: 'Professional',
  },
  {
    id: 'webhook',
    name: 'Webhook',
    description: 'Signed HTTPS callbacks to feed alerts into your own tools.',
    plan: 'Professional',
  },
];

export interface AlertCategoryGroup {
  id: 'critical' | 'reputation' | 'performance';
  name: string;
  examples: string[];
}

/** The three groups the 14 alert categories fall into, with examples from the alert types. */
export const ALERT_CATEGORY_GROUPS: AlertCategoryGroup[] = [
  {
    id: 'critical',
    name: 'Critical',
    examples: ['Authentication failure', 'DNS changes', 'Certificate expiry', 'Suspicious activity'],
  },
  {
    id: 'reputation',
    name: 'Reputation',
    examples: ['Blacklist detection', 'Reputation decline', 'Provider blocking'],
  },
  { id: 'performance', name: 'Performance', examples: ['Deliverability drop', 'Bounce rate', 'Spam complaints'] },
];

export interface ComparisonRow {
  feature: string;
  /** true = included, false = not included, string = included with this limit. */
  free: boolean | string;
  professional: boolean | string;
  enterprise: boolean | string;
}

/** The feature comparison table of the landing page; agrees with the landing plan cards. */
export const COMPARISON_ROWS: ComparisonRow[] = [
  { feature: 'Domains', free: '1', professional: 'Unlimited', enterprise: 'Unlimited' },
  { feature: 'Inbox placement testing', free: true, professional: true, enterprise: true },
  { feature: 'SPF, DKIM & DMARC monitoring', free: 'Basic', professional: true, enterprise: true },
  { feature: 'Real-time monitoring', free: false, professional: true, enterprise: true },
  { feature: 'Email alerts', free: true, professional: true, enterprise: true },
  { feature: 'Slack, SMS & webhook alerts', free: false, professional: true, enterprise: true },
  { feature: 'Advanced analytics', free: false, professional: true, enterprise: true },
  { feature: 'API access', free: false, professional: true, enterprise: true },
  { feature: 'Bulk IP import (CIDR)', free: false, professional: true, enterprise: true },
  { feature: 'ESP & MTA integrations', free: 'Basic', professional: 'All', enterprise: 'All + custom' },
  { feature: 'White-label options', free: false, professional: false, enterprise: true },
  { feature: 'SLA guarantees', free: false, professional: false, enterprise: true },
  { feature: 'Data retention', free: '7 days', professional: '90 days', enterprise: 'Custom' },
  { feature: 'Support', free: 'Email', professional: 'Priority', enterprise: 'Dedicated' },
];
