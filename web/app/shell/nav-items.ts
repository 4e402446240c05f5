import type { LucideIcon } from 'lucide-react';
import { Bell, CreditCard, Globe, Inbox, LayoutDashboard, Plug, Settings, ShieldCheck, TrendingUp } from 'lucide-react';
import { TOUR_ANCHORS } from '../../features/tour/steps';
import { PATHS } from '../../lib/paths';

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
  /** Paths that also count as this item being the current page. */
  aliases?: string[];
  showUnreadAlerts?: boolean;
  /** `data-tour` anchor the onboarding tour points at. */
  tour?: string;
}

/** Part 1, section 2.7: the navigation table, in this order, with these labels. */
export const NAV_ITEMS: NavItem[] = [
  {
    to: PATHS.home,
    label: 'Dashboard',
    icon: LayoutDashboard,
    aliases: [PATHS.dashboard],
    tour: TOUR_ANCHORS.dashboard,
  },
  { to: PATHS.domains, label: 'Domains', icon: Globe, tour: TOUR_ANCHORS.domains },
  { to: PATHS.inboxPlacement, label: 'Inbox Tests', icon: Inbox, tour: TOUR_ANCHORS.inboxTests },
  { to: PATHS.reputation, label: 'Reputation', icon: TrendingUp },
  { to: PATHS.blacklistMonitoring, label: 'Blacklist Monitor', icon: ShieldCheck },
  { to: PATHS.alerts, label: 'Alerts', icon: Bell, showUnreadAlerts: true, tour: TOUR_ANCHORS.alerts },
  { to: PATHS.integrations, label: 'Integrations', icon: Plug },
  { to: PATHS.subscription, label: 'Subscription', icon: CreditCard },
  { to: PATHS.settings, label: 'Settings', icon: Settings },
];

export function isNavItemActive(item: NavItem, pathname: string): boolean {
  if ([item.to, ...(item.aliases ?? [])].includes(pathname)) return true;
  return item.to !== PATHS.home && pathname.startsWith(`${item.to}/`);
}
