import { useId, useState } from 'react';
import { planHasFeature } from '@contracts/plans';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../components/ui/dialog';
import { TabList } from '../../../components/ui/tab-list';
import { useAuth } from '../../../lib/session';
import { BulkImportForm } from './bulk-import-form';
import { PlanRequiredBanner } from '../../../components/plan-required-banner';
import { SingleIpForm } from './single-ip-form';

const TAB_IDS = ['single', 'bulk'] as const;
type TabId = (typeof TAB_IDS)[number];
const TAB_LABELS: Record<TabId, string> = { single: 'Single IP', bulk: 'Bulk Import' };

/** The Add IP Address dialog with its two tabs (part 2, section 2). Closing it unmounts the forms, which clears them. */
export function AddIpDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { user } = useAuth();
  const [tab, setTab] = useState<TabId>('single');
  const baseId = useId();
  const canBulkImport = user ? planHasFeature(user.subscriptionPlan, 'bulk_ip_import') : false;
  const close = () => onOpenChange(false);

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
          <DialogDescription>
            Monitored addresses are checked against the DNS blocklists every 2 hours.
          </DialogDescription>
        </DialogHeader>
        <TabList
          ids={TAB_IDS}
          labels={TAB_LABELS}
          selected={tab}
          onSelect={setTab}
          label="How to add"
          tabIdOf={(id) => `${baseId}-tab-${id}`}
          panelIdOf={(id) => `${baseId}-panel-${id}`}
          className="grid grid-cols-2"
        />
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
