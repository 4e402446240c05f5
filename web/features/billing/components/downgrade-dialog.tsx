import { PLAN_LIMITS } from '@contracts/plans';
import { ConfirmDialog } from '../../../components/confirm-dialog';

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
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Downgrade to Free?"
      description={`The features of your paid plan stop at once, and data older than ${free.retentionDays ?? 0} days will be deleted. The Free plan monitors up to ${free.domains ?? 0} domains.`}
      cancelLabel="Keep my plan"
      confirmLabel="Downgrade to Free"
      pendingLabel="Downgrading..."
      pending={pending}
      onConfirm={onConfirm}
      testId="downgrade-dialog"
    />
  );
}
