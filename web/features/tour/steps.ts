import { PATHS } from '../../lib/paths';

/** Part 2, section 3: an onboarding tour step. */
export interface TourStep {
  id: 'welcome' | 'dashboard' | 'domains' | 'inbox-tests' | 'alerts' | 'mobile-nav' | 'complete';
  title: string;
  description: string;
  /** CSS selector of the element the step points at; 'body' means no element (the card is centred). */
  target: string;
  position: 'top' | 'bottom' | 'right';
  /** Page the step is about; the tour goes there when the step is shown. */
  route?: string;
  /** A short hint of what to do on this step. */
  action?: string;
}

/** The `data-tour` anchors the app shell carries for the steps below. */
export const TOUR_ANCHORS = {
  dashboard: 'nav-dashboard',
  domains: 'nav-domains',
  inboxTests: 'nav-inbox-tests',
  alerts: 'nav-alerts',
  mobileNav: 'mobile-nav',
} as const;

const anchor = (name: string) => `[data-tour="${name}"]`;

/** Part 2, section 2: seven steps, in this order. A step's route is always a built screen. */
export const TOUR_STEPS: TourStep[] = [
  {
    id: 'welcome',
    title: 'Welcome to InboxPulse!',
    description:
      "Let's take a quick tour of the tools that help your email reach the inbox. It takes less than a minute, and you can skip it at any time.",
    target: 'body',
    position: 'bottom',
  },
  {
    id: 'dashboard',
    title: 'Your Dashboard',
    description:
      'Your email health score, domain authentication, inbox test results, connected providers and recent alerts, all in one place. Switch the data source to focus on one of them.',
    target: anchor(TOUR_ANCHORS.dashboard),
    position: 'right',
    route: PATHS.home,
  },
  {
    id: 'domains',
    title: 'Domains',
    description:
      'Add your sending domains and verify them with a DNS record. InboxPulse then checks their SPF, DKIM and DMARC authentication for you.',
    target: anchor(TOUR_ANCHORS.domains),
    position: 'right',
    route: PATHS.domains,
    action: 'Add your first domain',
  },
  {
    id: 'inbox-tests',
    title: 'Inbox Placement Tests',
    description:
      'Send a real email to our test address and see whether it lands in the inbox, the spam folder or goes missing at Gmail, Outlook, Yahoo and 25+ other providers.',
    target: anchor(TOUR_ANCHORS.inboxTests),
    position: 'right',
    route: PATHS.inboxPlacement,
    action: 'Run an inbox test',
  },
  {
    id: 'alerts',
    title: 'Alerts',
    description:
      'Get told when authentication fails, your reputation drops or an IP address lands on a blacklist. The red badge counts the alerts you have not read yet.',
    target: anchor(TOUR_ANCHORS.alerts),
    position: 'right',
    route: PATHS.alerts,
  },
  {
    id: 'mobile-nav',
    title: 'Navigation on the go',
    description:
      'On a phone or a narrow window, the menu button at the top of the screen opens the same navigation, with your plan and Logout at the bottom.',
    target: anchor(TOUR_ANCHORS.mobileNav),
    position: 'bottom',
  },
  {
    id: 'complete',
    title: "You're all set!",
    description:
      'Start by adding your first domain, then run an inbox test. You can take this tour again at any time with the help button in the page header.',
    target: 'body',
    position: 'bottom',
  },
];
