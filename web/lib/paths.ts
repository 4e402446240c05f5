/** Every route path of the app (part 1, section 2.1; part 2, section 2). Links use these, never literals. */
export const PATHS = {
  home: '/',
  // Account flows (public)
  login: '/login',
  register: '/register',
  resetPassword: '/reset-password',
  verifyEmail: '/verify-email',
  emailConfirmation: '/email-confirmation',
  // Public marketing, documentation and legal pages
  pricing: '/pricing',
  integrations: '/integrations',
  apiDocs: '/api-docs',
  webhookDocs: '/webhook-docs',
  mtaIntegration: '/mta-integration',
  alertCapabilities: '/alert-capabilities',
  smtp2goIntegration: '/integrations/smtp2go',
  postfixIntegration: '/integrations/postfix',
  privacyPolicy: '/privacy-policy',
  termsOfService: '/terms-of-service',
  checkout: '/checkout',
  // Signed-in only
  dashboard: '/dashboard',
  domains: '/domains',
  inboxPlacement: '/inbox-placement',
  reputation: '/reputation',
  reputationTest: '/reputation-test',
  blacklistMonitoring: '/blacklist-monitoring',
  alerts: '/alerts',
  settings: '/settings',
  subscription: '/subscription',
} as const;

/**
 * Where registration lands; `sent` carries the server's emailSent flag to pick the message, `plan`
 * the price a signed-out visitor chose on /pricing (/register?plan=), to carry on with once signed in.
 */
export function emailConfirmationPath(email: string, sent: boolean, plan?: string): string {
  const query = new URLSearchParams({ email, sent: sent ? '1' : '0', ...(plan ? { plan } : {}) });
  return `${PATHS.emailConfirmation}?${query.toString()}`;
}

/**
 * The route of a page about one domain, its id in the path (links: domainTimelinePath in
 * contracts/timeline.ts). Not in PATHS, which lists the screens of content/screens.ts one for one.
 */
export const DOMAIN_TIMELINE_ROUTE = '/domains/:id/timeline';
/** A domain's bulk-sender compliance scorecard (links: domainCompliancePath in contracts/compliance.ts). */
export const DOMAIN_COMPLIANCE_ROUTE = '/domains/:id/compliance';

/** A sending IP's timeline (its rates and listings), reached from its card on /reputation. */
export const IP_TIMELINE_ROUTE = '/reputation/ips/:id/timeline';
export const ipTimelinePath = (id: number) => IP_TIMELINE_ROUTE.replace(':id', String(id));

/** Whether `to` names a screen of the app (its query and fragment aside): the chat links only these. */
export function isAppPath(to: string): boolean {
  const path = to.split(/[?#]/, 1)[0] || '/';
  return Object.values<string>(PATHS).includes(path);
}
