import { PLAN_LIMITS } from '@contracts/plans';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';

/**
 * "Downgrade to Free?" before the call: the Free plan closes the paid features at once, and its
 * retention job deletes what is older than the Free plan keeps. It cannot be dismissed while the call runs.
 */
export function DowngradeDialog({
  open,
  pending,
  onOpenChange,
  onConfirm,
}: {
  open: boolean;
  pending: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
}) {
  const free = PLAN_LIMITS.free;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent role="alertdialog" data-testid="downgrade-dialog">
        <DialogHeader>
          <DialogTitle className="pr-6">Downgrade to Free?</DialogTitle>
          <DialogDescription>
            {`The features of your paid plan stop at once, and data older than ${free.retentionDays ?? 0} days will be deleted. The Free plan monitors up to ${free.domains ?? 0} domains.`}
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            Keep my plan
          </Button>
          <Button variant="destructive" onClick={onConfirm} disabled={pending}>
            {pending ? 'Downgrading...' : 'Downgrade to Free'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
