import { ConfirmDialog } from '../../../components/confirm-dialog';
import { toast } from '../../../components/ui/use-toast';
import { useDeleteDomainMutation } from '../api';
import type { DomainDialogProps } from './domain-dialog';

/** The delete confirmation (part 2, section 2); texts from sections 8 and 9. */
export function DeleteDomainDialog({ domain, open, onOpenChange, onCloseAutoFocus }: DomainDialogProps) {
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
