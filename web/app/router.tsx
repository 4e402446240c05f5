import { lazy } from 'react';
import type { RouteObject } from 'react-router';
import { AuthGate, gated, LOGIN_TITLE } from './auth-gate';
import { NotFoundPage } from './not-found-page';
import { PublicExtras, PublicExtrasLayout } from './public-extras';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';
import type { TitledHandle } from './route-title';
import type { ShellMeta } from './shell/shell-meta';
import { LandingPage } from '../features/landing/landing-page';
import { DOMAIN_COMPLIANCE_ROUTE, DOMAIN_TIMELINE_ROUTE, IP_TIMELINE_ROUTE, PATHS } from '../lib/paths';

// Only the landing page is in the first chunk; every other page is fetched when first shown.
const LoginPage = lazy(() => import('../features/auth/login-page'));
const RegisterPage = lazy(() => import('../features/auth/register-page'));
const ResetPasswordPage = lazy(() => import('../features/auth/reset-password-page'));
const VerifyEmailPage = lazy(() => import('../features/auth/verify-email-page'));
const EmailConfirmationPage = lazy(() => import('../features/auth/email-confirmation-page'));

const DashboardPage = lazy(() => import('../features/dashboard/dashboard-page'));
const DomainManagementPage = lazy(() => import('./domain-management-page'));
const DomainTimelinePage = lazy(() => import('../features/timeline/timeline-page'));
const CompliancePage = lazy(() => import('../features/compliance/compliance-page'));
const IpTimelinePage = lazy(() => import('../features/timeline/ip-timeline-page'));
const InboxPlacementPage = lazy(() => import('../features/inbox-placement/inbox-placement-page'));
const InboxPlacementSignedOut = lazy(() => import('../features/inbox-placement/signed-out-page'));
const ReputationPage = lazy(() => import('../features/reputation/reputation-page'));
const ReputationTestPage = lazy(() => import('../features/reputation/reputation-test-page'));
const BlacklistMonitoringPage = lazy(() => import('../features/blacklist-monitoring/blacklist-monitoring-page'));
const AlertsPage = lazy(() => import('../features/alerts/alerts-page'));
const IntegrationsPage = lazy(() => import('../features/integrations/integrations-page'));
const SettingsPage = lazy(() => import('./settings-page'));
const SubscriptionPage = lazy(() => import('../features/billing/subscription-page'));

const PricingPage = lazy(() => import('../features/billing/pricing-page'));
const CheckoutPage = lazy(() => import('../features/billing/checkout-page'));
const IntegrationsMarketingPage = lazy(() => import('../features/integrations/integrations-marketing-page'));
const Smtp2goPage = lazy(() => import('../features/docs/smtp2go-integration-page'));
const PostfixPage = lazy(() => import('../features/docs/postfix-integration-page'));
const ApiDocsPage = lazy(() => import('../features/docs/api-docs-page'));
const WebhookDocsPage = lazy(() => import('../features/docs/webhook-docs-page'));
const MtaIntegrationPage = lazy(() => import('../features/docs/mta-integration-page'));
const AlertCapabilitiesPage = lazy(() => import('../features/docs/alert-capabilities-page'));
const PrivacyPolicyPage = lazy(() => import('../features/legal/privacy-policy-page'));
const TermsOfServicePage = lazy(() => import('../features/legal/terms-of-service-page'));

/** Header of each signed-in page (part 1, 2.7; breadcrumb labels from part 2, section 2). */
const SHELL: Record<string, ShellMeta> = {
  dashboard: {
    title: 'Dashboard',
    description: 'Monitor your email deliverability and domain health',
    showAddDomain: true,
  },
  domains: {
    title: 'Domain Management',
    description: 'Add and verify your sending domains and follow their authentication',
    breadcrumbs: [{ label: 'Domains' }],
  },
  domainTimeline: {
    title: 'Deliverability Timeline',
    description: 'Placement, authentication, blocklists, bounce and complaint rates and your notes on one time axis',
    // The page puts the domain's name in the middle once it has loaded it (usePageTrail).
    breadcrumbs: [{ label: 'Domains', to: PATHS.domains }, { label: 'Timeline' }],
  },
  domainCompliance: {
    title: 'Bulk-Sender Compliance',
    description: 'Gmail, Yahoo, Microsoft and Apple sender rules, each judged from your evidence',
    // The page puts the domain's name in the middle once it has loaded it (usePageTrail).
    breadcrumbs: [{ label: 'Domains', to: PATHS.domains }, { label: 'Compliance' }],
  },
  inboxPlacement: {
    title: 'Inbox Placement Testing',
    description: 'Test where your email lands across mailbox providers',
    breadcrumbs: [{ label: 'Inbox Tests' }],
  },
  reputation: {
    title: 'Reputation Monitoring',
    description: 'Follow the sender reputation of your IP addresses and domains',
    breadcrumbs: [{ label: 'Reputation' }],
  },
  ipTimeline: {
    title: 'IP Address Timeline',
    description: 'Bounce and complaint rates and blocklist listings of one sending IP on one time axis',
    // The page puts the address in the middle once it has loaded it (usePageTrail).
    breadcrumbs: [{ label: 'Reputation', to: PATHS.reputation }, { label: 'Timeline' }],
  },
  reputationTest: {
    title: 'Reputation Test',
    description: 'Diagnostics of your reputation checks',
    breadcrumbs: [{ label: 'Reputation', to: PATHS.reputation }, { label: 'Reputation Test' }],
  },
  blacklistMonitoring: {
    title: 'Blacklist Monitoring',
    description: 'Check your IP addresses against DNS blocklists',
    breadcrumbs: [{ label: 'Blacklist Monitor' }],
  },
  alerts: {
    title: 'Alerts',
    description: 'Review deliverability alerts and choose how you are notified',
    breadcrumbs: [{ label: 'Alerts' }],
  },
  integrations: {
    title: 'Integrations',
    description: 'Connect your email service providers and mail transfer agents',
    breadcrumbs: [{ label: 'Integrations' }],
  },
  settings: {
    title: 'Settings',
    description: 'API access, webhooks and your account',
    breadcrumbs: [{ label: 'Settings' }],
  },
  subscription: {
    title: 'Subscription',
    description: 'Your plan, usage and billing',
    breadcrumbs: [{ label: 'Subscription' }],
  },
};

/** The handle of a route that is the same for everyone: its tab title (route-title.ts). */
const titled = (title: string): TitledHandle => ({ title });

/** Every route with a page has a tab title in its handle, "Dashboard · InboxPulse" (route-title.ts); router.test.tsx checks it. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      {
        // Pages with a signed-in form. Signed out: the `signedOut` screen, or the login screen.
        element: <AuthGate />,
        children: [
          {
            index: true,
            element: <DashboardPage />,
            handle: gated(SHELL.dashboard, {
              title: 'Email Deliverability Monitoring',
              element: (
                <PublicExtras>
                  <LandingPage />
                </PublicExtras>
              ),
            }),
          },
          {
            path: PATHS.login,
            element: <DashboardPage />,
            handle: gated(SHELL.dashboard, { title: LOGIN_TITLE, element: <LoginPage /> }),
          },
          {
            path: PATHS.register,
            element: <DashboardPage />,
            handle: gated(SHELL.dashboard, { title: 'Create Account', element: <RegisterPage /> }),
          },
          {
            path: PATHS.integrations,
            element: <IntegrationsPage />,
            handle: gated(SHELL.integrations, {
              title: 'Integrations',
              element: (
                <PublicExtras>
                  <IntegrationsMarketingPage />
                </PublicExtras>
              ),
            }),
          },
          { path: PATHS.dashboard, element: <DashboardPage />, handle: gated(SHELL.dashboard) },
          { path: PATHS.domains, element: <DomainManagementPage />, handle: gated(SHELL.domains) },
          { path: DOMAIN_TIMELINE_ROUTE, element: <DomainTimelinePage />, handle: gated(SHELL.domainTimeline) },
          { path: DOMAIN_COMPLIANCE_ROUTE, element: <CompliancePage />, handle: gated(SHELL.domainCompliance) },
          {
            path: PATHS.inboxPlacement,
            element: <InboxPlacementPage />,
            handle: gated(SHELL.inboxPlacement, {
              title: 'Inbox Placement Testing',
              element: (
                <PublicExtras>
                  <InboxPlacementSignedOut />
                </PublicExtras>
              ),
            }),
          },
          { path: PATHS.reputation, element: <ReputationPage />, handle: gated(SHELL.reputation) },
          { path: PATHS.reputationTest, element: <ReputationTestPage />, handle: gated(SHELL.reputationTest) },
          { path: IP_TIMELINE_ROUTE, element: <IpTimelinePage />, handle: gated(SHELL.ipTimeline) },
          {
            path: PATHS.blacklistMonitoring,
            element: <BlacklistMonitoringPage />,
            handle: gated(SHELL.blacklistMonitoring),
          },
          { path: PATHS.alerts, element: <AlertsPage />, handle: gated(SHELL.alerts) },
          { path: PATHS.settings, element: <SettingsPage />, handle: gated(SHELL.settings) },
          { path: PATHS.subscription, element: <SubscriptionPage />, handle: gated(SHELL.subscription) },
        ],
      },
      // Public pages: the same for everyone.
      { path: PATHS.resetPassword, element: <ResetPasswordPage />, handle: titled('Reset Password') },
      { path: PATHS.verifyEmail, element: <VerifyEmailPage />, handle: titled('Verify Email') },
      { path: PATHS.emailConfirmation, element: <EmailConfirmationPage />, handle: titled('Check Your Email') },
      {
        // Marketing, documentation and legal pages: with the chat assistant and the cookie banner.
        element: <PublicExtrasLayout />,
        children: [
          { path: PATHS.pricing, element: <PricingPage />, handle: titled('Pricing') },
          // The spec registers /checkout as public first; the first registration wins.
          { path: PATHS.checkout, element: <CheckoutPage />, handle: titled('Checkout') },
          { path: PATHS.smtp2goIntegration, element: <Smtp2goPage />, handle: titled('SMTP2GO Integration') },
          { path: PATHS.postfixIntegration, element: <PostfixPage />, handle: titled('Postfix Integration Guide') },
          { path: PATHS.apiDocs, element: <ApiDocsPage />, handle: titled('API Documentation') },
          { path: PATHS.webhookDocs, element: <WebhookDocsPage />, handle: titled('Webhook Documentation') },
          { path: PATHS.mtaIntegration, element: <MtaIntegrationPage />, handle: titled('MTA Integration Guide') },
          { path: PATHS.alertCapabilities, element: <AlertCapabilitiesPage />, handle: titled('Alert Capabilities') },
          { path: PATHS.privacyPolicy, element: <PrivacyPolicyPage />, handle: titled('Privacy Policy') },
          { path: PATHS.termsOfService, element: <TermsOfServicePage />, handle: titled('Terms of Service') },
        ],
      },
      { path: '*', element: <NotFoundPage />, handle: titled('Page Not Found') },
    ],
  },
];
