import type { InboxTest } from '@contracts/inbox-tests';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { useDeleteInboxTestMutation } from '../../../lib/queries/inbox-tests';
import { testSubject } from '../test-status';

/** Delete with confirmation (part 2, section 2); texts from sections 7 and 8. */
export function DeleteTestDialog({
  test,
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  test: InboxTest;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  const remove = useDeleteInboxTestMutation();

  function confirm() {
    remove.mutate(test.id, {
      onSuccess: () => {
        onOpenChange(false);
        toast({ title: 'Test Deleted', description: `${testSubject(test)} was deleted.` });
      },
      onError: (error) =>
        toast({ title: 'Error', description: serverMessageOr(error, 'Failed to delete test'), variant: 'destructive' }),
    });
  }

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Delete Inbox Test"
      description={`Are you sure you want to delete test #${test.id} (${testSubject(test)})? Its results and message analysis are removed. This cannot be undone.`}
      pending={remove.isPending}
      onConfirm={confirm}
      testId="delete-inbox-test-dialog"
      onCloseAutoFocus={onCloseAutoFocus}
    />
  );
}
