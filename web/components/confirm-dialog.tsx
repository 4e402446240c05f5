import type { ReactNode } from 'react';
import { Button } from './ui/button';
import { ModalDialog } from './ui/dialog';

/**
 * The one "are you sure" dialog: before a deletion (the default labels) or another step that cannot be
 * taken back, such as revoking a key. It cannot be dismissed while the call runs.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel = 'Delete',
  pendingLabel = 'Deleting...',
  cancelLabel = 'Cancel',
  pending,
  onConfirm,
  testId,
  onCloseAutoFocus,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel?: string;
  pendingLabel?: string;
  cancelLabel?: string;
  pending: boolean;
  onConfirm: () => void;
  testId: string;
  onCloseAutoFocus?: (event: Event) => void;
  /** What the user may choose along with the confirmation, such as keeping some data. */
  children?: ReactNode;
}) {
  return (
    <ModalDialog
      open={open}
      onOpenChange={(next) => !pending && onOpenChange(next)}
      role="alertdialog"
      data-testid={testId}
      onCloseAutoFocus={onCloseAutoFocus}
      // A name in the question (an alert's title, a test's subject) may be one long word.
      title={title}
      titleClassName="wrap-anywhere pr-6"
      description={description}
      descriptionClassName="wrap-anywhere"
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            {cancelLabel}
          </Button>
          <Button variant="destructive" onClick={onConfirm} disabled={pending}>
            {pending ? pendingLabel : confirmLabel}
          </Button>
        </>
      }
    >
      {children}
    </ModalDialog>
  );
}
