import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
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
  const refs = useRef<Partial<Record<AlertTab, HTMLButtonElement | null>>>({});
  const labels: Record<AlertTab, ReactNode> = {
    active: (
      <>
        Active Alerts
        {activeCount !== null && (
          <span
            data-testid="active-count"
            className={cn('ml-1.5 rounded-full px-1.5 text-xs font-semibold', activeCount > 0 ? 'bg-red-600 text-white' : 'bg-muted-foreground/20')}
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
          <span data-testid="history-count" className="ml-1.5 rounded-full bg-muted-foreground/20 px-1.5 text-xs font-semibold">
            {badgeCount(historyCount)}
          </span>
        )}
      </>
    ),
    settings: 'Alert Settings',
  };

  function onKey(event: KeyboardEvent) {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const next = ALERT_TABS[(ALERT_TABS.indexOf(tab) + step + ALERT_TABS.length) % ALERT_TABS.length];
    onTab(next);
    refs.current[next]?.focus();
  }

  return (
    <div className="space-y-4">
      <div role="tablist" aria-label="Alerts" className="grid grid-cols-3 gap-1 rounded-md bg-muted p-1">
        {ALERT_TABS.map((id) => (
          <button
            key={id}
            ref={(element) => {
              refs.current[id] = element;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${id}`}
            aria-selected={tab === id}
            aria-controls={`${baseId}-panel`}
            tabIndex={tab === id ? 0 : -1}
            onClick={() => onTab(id)}
            onKeyDown={onKey}
            className={cn(
              'flex flex-wrap items-center justify-center gap-y-1 rounded-sm px-2 py-1.5 text-xs font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring sm:text-sm',
              tab === id ? 'bg-background shadow-sm' : 'text-muted-foreground',
            )}
          >
            {labels[id]}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-tab-${tab}`}>
        {children}
      </div>
    </div>
  );
}
