/**
 * Every screen of the app and whether it is built yet: the server's chat assistant answers from it what the
 * product does today (server/chatbot/knowledge.ts). A screen that is not live still has its route, showing an
 * honest "Not available yet" page. Every screen is live now, so the web links them all (web/lib/paths.ts); a
 * screen added unbuilt would need the web's links to ask this list again.
 *
 * Keys and paths are those of web/lib/paths.ts (a test checks they agree). Plain data, no imports.
 */

export interface Screen {
  path: string;
  /** The name users know it by (the navigation's label where it has one). */
  name: string;
  live: boolean;
  /** Live: what a user can do there today, as a phrase ("add a domain, ..."). Not live: what it will do. */
  does: string;
  /** Where it is: the signed-in app, or the public site. */
  area: 'app' | 'public';
}

const screens = {
  home: { path: '/', name: 'Home', live: true, area: 'public', does: 'the landing page; signed in, the Dashboard' },
  login: {
    path: '/login',
    name: 'Login',
    live: true,
    area: 'public',
    does: 'sign in, or ask for a password reset link',
  },
  register: { path: '/register', name: 'Register', live: true, area: 'public', does: 'create a free account' },
  resetPassword: {
    path: '/reset-password',
    name: 'Reset Password',
    live: true,
    area: 'public',
    does: 'choose a new password from a reset link',
  },
  verifyEmail: {
    path: '/verify-email',
    name: 'Verify Email',
    live: true,
    area: 'public',
    does: 'confirm your e-mail address from the link we sent',
  },
  emailConfirmation: {
    path: '/email-confirmation',
    name: 'Email Confirmation',
    live: true,
    area: 'public',
    does: 'see whether your account needs its e-mail address confirmed',
  },
  pricing: {
    path: '/pricing',
    name: 'Pricing',
    live: true,
    area: 'public',
    does: 'compare the Free, Professional and Custom Enterprise plans, billed monthly or annually; signed in, upgrade, change or downgrade your plan and apply a coupon',
  },
  integrations: {
    path: '/integrations',
    name: 'Integrations',
    live: true,
    area: 'app',
    does: 'install an ESP plugin with an API key (tested with the provider first), see its last sync and errors, sync it now, change or uninstall it; connect Google Postmaster Tools; and find your own endpoints for Postfix, PowerMTA, GreenArrow, Halon, KumoMTA and Postal',
  },
  apiDocs: {
    path: '/api-docs',
    name: 'API Documentation',
    live: true,
    area: 'public',
    does: 'read how to call the REST API with an API key: every endpoint with a request and an answer example, rate limits, and an interactive reference',
  },
  webhookDocs: {
    path: '/webhook-docs',
    name: 'Webhook Documentation',
    live: true,
    area: 'public',
    does: 'read how to receive webhooks: the events, the signature and its check, retries, and receiver code in Node.js and Python',
  },
  mtaIntegration: {
    path: '/mta-integration',
    name: 'MTA Integration Guide',
    live: true,
    area: 'public',
    does: 'read how Postfix, PowerMTA, GreenArrow, Halon, KumoMTA and Postal post their delivery results to InboxPulse: each one’s configuration, its authentication and a command that checks the endpoint',
  },
  alertCapabilities: {
    path: '/alert-capabilities',
    name: 'Alert Capabilities',
    live: true,
    area: 'public',
    does: 'read which alerts InboxPulse raises, on which channels, how often and at which thresholds',
  },
  smtp2goIntegration: {
    path: '/integrations/smtp2go',
    name: 'SMTP2GO Integration',
    live: true,
    area: 'public',
    does: 'read how to connect SMTP2GO: the API key and its permissions, installing the plugin, the optional webhook, API examples and troubleshooting',
  },
  postfixIntegration: {
    path: '/integrations/postfix',
    name: 'Postfix Integration Guide',
    live: true,
    area: 'public',
    does: 'set Postfix up to send its delivered, bounced and deferred results: the main.cf lines, the log-monitoring script and its service, the Postfix endpoints and troubleshooting',
  },
  privacyPolicy: {
    path: '/privacy-policy',
    name: 'Privacy Policy',
    live: true,
    area: 'public',
    does: 'read what information InboxPulse collects, how it is used, shared, secured and kept, your rights, and how to contact us',
  },
  termsOfService: {
    path: '/terms-of-service',
    name: 'Terms of Service',
    live: true,
    area: 'public',
    does: 'read the terms of using InboxPulse: accounts, acceptable use, plans and billing, support levels, liability and termination',
  },
  checkout: {
    path: '/checkout',
    name: 'Checkout',
    live: true,
    area: 'public',
    does: 'pay for a paid plan by card when this server takes payments (Stripe); on a server without billing, plan changes need no payment',
  },
  dashboard: {
    path: '/dashboard',
    name: 'Dashboard',
    live: true,
    area: 'app',
    does: 'see your email health score, the authentication of your domains, your inbox test results and recent alerts',
  },
  domains: {
    path: '/domains',
    name: 'Domains',
    live: true,
    area: 'app',
    does: 'add a sending domain, verify it with a DNS TXT record, check its SPF, DKIM and DMARC records with suggested fixes, read its DMARC reports, and open its deliverability timeline: placement, DMARC, bounce and complaint rates over time, with each drop explained by the changes and events before it',
  },
  inboxPlacement: {
    path: '/inbox-placement',
    name: 'Inbox Tests',
    live: true,
    area: 'app',
    does: 'create an inbox placement test, send a real email to its address, and see where it landed with an analysis of the message',
  },
  reputation: {
    path: '/reputation',
    name: 'Reputation',
    live: true,
    area: 'app',
    does: 'add your sending IP addresses one at a time or as a CIDR block (Professional plan), see the sender score of each IP and how it was made, its listing history and its timeline, and the reputation, age and registrar of your domains',
  },
  reputationTest: {
    path: '/reputation-test',
    name: 'Reputation Test',
    live: true,
    area: 'app',
    does: 'see your sign-in status, whether your IP addresses loaded, and the status of each',
  },
  blacklistMonitoring: {
    path: '/blacklist-monitoring',
    name: 'Blacklist Monitor',
    live: true,
    area: 'app',
    does: 'see whether your IP addresses and domains are on DNS blocklists (checked every 2 hours or when you press Refresh Monitoring), with the answer of every list, its removal link and a switch to ignore a list',
  },
  alerts: {
    path: '/alerts',
    name: 'Alerts',
    live: true,
    area: 'app',
    does: 'see your active alerts and alert history, open an alert to see what was found (for a blocklist listing, the answer of every list) and its history, mark alerts read, acknowledge or delete them, and choose which alerts are e-mailed to you, their thresholds, how often, quiet hours and alert rules of your own (Slack, SMS and webhook alerts need the Professional plan)',
  },
  settings: {
    path: '/settings',
    name: 'Settings',
    live: true,
    area: 'app',
    does: 'generate, regenerate and revoke your API key (API access needs the Professional plan) and your webhook token, copy ready-to-run API examples (cURL, Node.js, Python), change your password, see and sign out your other sessions, see how much data your account keeps, and delete your account',
  },
  subscription: {
    path: '/subscription',
    name: 'Subscription',
    live: true,
    area: 'app',
    does: 'see your plan, its status and next billing date, your usage against the plan’s limits and your invoices; open the billing portal, cancel or reactivate your subscription',
  },
} satisfies Record<string, Screen>;

export type ScreenId = keyof typeof screens;
export const SCREENS: Record<ScreenId, Screen> = screens;

/** Whether the screen at this path (query and fragment ignored) is built; unknown paths are not. */
export function isLiveScreenPath(to: string): boolean {
  const path = to.split(/[?#]/, 1)[0] || '/';
  return Object.values(SCREENS).some((screen) => screen.path === path && screen.live);
}
