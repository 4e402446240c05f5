import type { IpAddress } from '@contracts/reputation';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { useDeleteIpMutation } from '../api';

/** The delete confirmation of a monitored IP; toasts from part 2, section 8. */
export function DeleteIpDialog({
  ip,
  open,
  onOpenChange,
}: {
  ip: IpAddress;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const remove = useDeleteIpMutation();

  function confirm() {
    remove.mutate(ip.id, {
      onSuccess: () => {
        onOpenChange(false);
        toast({ title: 'Success', description: `${ip.ipAddress} is no longer monitored.` });
      },
      onError: (failure) =>
        toast({
          title: 'Error',
          description: serverMessageOr(failure, 'Failed to delete IP address'),
          variant: 'destructive',
        }),
    });
  }

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Delete IP Address"
      description={`Are you sure you want to stop monitoring ${ip.ipAddress}? Its check results and listing history are removed. This cannot be undone.`}
      pending={remove.isPending}
      onConfirm={confirm}
      testId="delete-ip-dialog"
    />
  );
}
