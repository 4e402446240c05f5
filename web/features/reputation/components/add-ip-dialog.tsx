import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { planHasFeature } from '@contracts/plans';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../components/ui/dialog';
import { useAuth } from '../../../lib/session';
import { cn } from '../../../lib/utils';
import { BulkImportForm } from './bulk-import-form';
import { PlanRequiredBanner } from '../../../components/plan-required-banner';
import { SingleIpForm } from './single-ip-form';

const TABS = [
  { id: 'single', label: 'Single IP' },
  { id: 'bulk', label: 'Bulk Import' },
] as const;
type TabId = (typeof TABS)[number]['id'];

/** The Add IP Address dialog with its two tabs (part 2, section 2). Closing it unmounts the forms, which clears them. */
export function AddIpDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { user } = useAuth();
  const [tab, setTab] = useState<TabId>('single');
  const baseId = useId();
  const tabRefs = useRef<Record<TabId, HTMLButtonElement | null>>({ single: null, bulk: null });
  const canBulkImport = user ? planHasFeature(user.subscriptionPlan, 'bulk_ip_import') : false;
  const close = () => onOpenChange(false);

  // The arrow keys move between tabs (WAI-ARIA tabs pattern).
  function onTabKey(event: KeyboardEvent) {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const next: TabId = tab === 'single' ? 'bulk' : 'single';
    setTab(next);
    tabRefs.current[next]?.focus();
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) setTab('single');
      }}
    >
      <DialogContent data-testid="add-ip-dialog" className="max-h-[calc(100dvh-2rem)] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Add IP Address</DialogTitle>
          <DialogDescription>Monitored addresses are checked against the DNS blocklists every 2 hours.</DialogDescription>
        </DialogHeader>
        <div role="tablist" aria-label="How to add" className="grid grid-cols-2 gap-1 rounded-md bg-muted p-1">
          {TABS.map(({ id, label }) => (
            <button
              key={id}
              ref={(element) => {
                tabRefs.current[id] = element;
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${id}`}
              aria-selected={tab === id}
              aria-controls={`${baseId}-panel-${id}`}
              tabIndex={tab === id ? 0 : -1}
              onClick={() => setTab(id)}
              onKeyDown={onTabKey}
              className={cn(
                'rounded-sm px-3 py-1.5 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                tab === id ? 'bg-background shadow-sm' : 'text-muted-foreground',
              )}
            >
              {label}
            </button>
          ))}
        </div>
        <div role="tabpanel" id={`${baseId}-panel-${tab}`} aria-labelledby={`${baseId}-tab-${tab}`}>
          {tab === 'single' && <SingleIpForm onDone={close} />}
          {tab === 'bulk' &&
            (canBulkImport ? (
              <BulkImportForm onDone={close} />
            ) : (
              <PlanRequiredBanner feature="bulk_ip_import" testId="bulk-import-plan-banner">
                Bulk import adds a whole CIDR block at once. On your plan, add addresses one at a time with Single IP.
              </PlanRequiredBanner>
            ))}
        </div>
      </DialogContent>
    </Dialog>
  );
}
