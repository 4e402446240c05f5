import { useId, type ReactNode } from 'react';
import { TabList } from '../../../components/ui/tab-list';
import { badgeCount } from '../../../lib/format';
import { cn } from '../../../lib/utils';

export const ALERT_TABS = ['active', 'history', 'settings'] as const;
export type AlertTab = (typeof ALERT_TABS)[number];

/** The three tabs (part 2, section 2) with the WAI-ARIA tabs keys; counts beside the first two, the active one as a badge. */
export function AlertTabs({
  tab,
  onTab,
  activeCount,
  historyCount,
  children,
}: {
  tab: AlertTab;
  onTab: (tab: AlertTab) => void;
  activeCount: number | null;
  historyCount: number | null;
  children: ReactNode;
}) {
  const baseId = useId();
  const labels: Record<AlertTab, ReactNode> = {
    active: (
      <>
        Active Alerts
        {activeCount !== null && (
          <span
            data-testid="active-count"
            className={cn(
              'ml-1.5 rounded-full px-1.5 text-xs font-semibold',
              activeCount > 0 ? 'bg-red-600 text-white' : 'bg-muted-foreground/20',
            )}
          >
            {badgeCount(activeCount)}
          </span>
        )}
      </>
    ),
    history: (
      <>
        Alert History
        {historyCount !== null && (
          <span
            data-testid="history-count"
            className="ml-1.5 rounded-full bg-muted-foreground/20 px-1.5 text-xs font-semibold"
          >
            {badgeCount(historyCount)}
          </span>
        )}
      </>
    ),
    settings: 'Alert Settings',
  };

  return (
    <div className="space-y-4">
      <TabList
        ids={ALERT_TABS}
        labels={labels}
        selected={tab}
        onSelect={onTab}
        label="Alerts"
        tabIdOf={(id) => `${baseId}-tab-${id}`}
        panelIdOf={() => `${baseId}-panel`}
        className="grid grid-cols-3"
        tabClassName="flex flex-wrap items-center justify-center gap-y-1 px-2 text-xs sm:text-sm"
      />
      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-tab-${tab}`}>
        {children}
      </div>
    </div>
  );
}
