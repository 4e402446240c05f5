import type { Domain } from '@contracts/domains';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { toast } from '../../../components/ui/use-toast';
import { useDeleteDomainMutation } from '../api';

/** The delete confirmation (part 2, section 2); texts from sections 8 and 9. */
export function DeleteDomainDialog({
  domain,
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  domain: Domain;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes back to: the dialog is opened from a menu, not from a trigger of its own. */
  onCloseAutoFocus?: (event: Event) => void;
}) {
  const remove = useDeleteDomainMutation();

  function confirm() {
    remove.mutate(domain.id, {
      onSuccess: () => {
        onOpenChange(false);
        toast({ title: 'Domain Deleted', description: `${domain.domain} was deleted.` });
      },
      onError: () =>
        toast({
          title: 'Delete Failed',
          description: 'Could not delete domain. Please try again.',
          variant: 'destructive',
        }),
    });
  }

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Delete Domain"
      description={`Are you sure you want to delete ${domain.domain}? Its DNS check results and notes are removed. This cannot be undone.`}
      pending={remove.isPending}
      onConfirm={confirm}
      testId="delete-domain-dialog"
      onCloseAutoFocus={onCloseAutoFocus}
    />
  );
}
