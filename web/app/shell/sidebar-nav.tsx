import { Link, useLocation } from 'react-router';
import { useUnreadAlertCount } from '../../lib/queries/alerts';
import { badgeCount } from '../../lib/format';
import { cn } from '../../lib/utils';
import { isNavItemActive, NAV_ITEMS } from './nav-items';

/**
 * The navigation list shared by the desktop sidebar and the mobile drawer; the unread badge lives on the
 * Alerts link.
 */
export function SidebarNav({ onNavigate }: { onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const unread = useUnreadAlertCount();
  return (
    <nav aria-label="Main navigation" className="flex-1 overflow-y-auto px-3 py-4">
      <ul className="space-y-1">
        {NAV_ITEMS.map((item) => {
          const active = isNavItemActive(item, pathname);
          const Icon = item.icon;
          const rowClass =
            'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';
          return (
            <li key={item.to}>
              <Link
                to={item.to}
                onClick={onNavigate}
                data-tour={item.tour}
                aria-current={active ? 'page' : undefined}
                className={cn(
                  rowClass,
                  active
                    ? 'bg-sidebar-accent text-white'
                    : 'text-sidebar-muted hover:bg-sidebar-accent hover:text-white',
                )}
              >
                <Icon className="size-4 shrink-0" aria-hidden="true" />
                <span className="flex-1">{item.label}</span>
                {item.showUnreadAlerts && unread > 0 && (
                  <span
                    className="rounded-full bg-red-600 px-2 py-0.5 text-xs font-semibold text-white"
                    data-testid="unread-alerts-badge"
                    aria-label={`${unread} unread ${unread === 1 ? 'alert' : 'alerts'}`}
                  >
                    {badgeCount(unread)}
                  </span>
                )}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
