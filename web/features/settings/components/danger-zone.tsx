import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { DialogFooter, ModalDialog } from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { useAuth } from '../../../lib/session';
import { useDeleteAccountMutation } from '../api';

/** Part 2, section 8. */
export const DELETE_ACCOUNT_ERROR = 'Failed to delete account. Please contact support.';

/** The word that confirms a deletion as well as the username does. */
export const DELETE_WORD = 'DELETE';

/** Whether what the user typed confirms the deletion: their username, or the word DELETE. */
export function confirmsDeletion(typed: string, username: string): boolean {
  const text = typed.trim();
  return text.length > 0 && (text === username || text === DELETE_WORD);
}

/** Deleting the account, behind a dialog that asks for the username (or DELETE) before it lets anyone go on. */
export function DangerZone() {
  const [open, setOpen] = useState(false);
  return (
    <Card data-testid="danger-zone" className="min-w-0 border-destructive/50">
      <CardHeader>
        <CardTitle className="text-destructive">Danger Zone</CardTitle>
        <CardDescription>Actions here cannot be undone.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center justify-between gap-4">
        <div className="min-w-0 flex-1 basis-64 space-y-1">
          <p className="font-medium">Delete Account</p>
          <p className="text-sm text-muted-foreground">
            Your account and everything it holds are deleted: domains, inbox tests, IP addresses, reports, alerts,
            integrations, your API key and webhook token. Every device is signed out.
          </p>
        </div>
        <Button variant="destructive" onClick={() => setOpen(true)}>
          Delete Account
        </Button>
      </CardContent>
      {open && <DeleteAccountDialog onClose={() => setOpen(false)} />}
    </Card>
  );
}

function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const { user } = useAuth();
  const remove = useDeleteAccountMutation();
  const [typed, setTyped] = useState('');
  const username = user?.username ?? '';
  const confirmed = confirmsDeletion(typed, username);

  const onDelete = () =>
    remove.mutate(undefined, {
      onError: (error) =>
        toast({
          title: DELETE_ACCOUNT_ERROR,
          description: serverMessageOr(error, '') || undefined,
          variant: 'destructive',
        }),
    });

  return (
    <ModalDialog
      open
      onOpenChange={(next) => !next && !remove.isPending && onClose()}
      role="alertdialog"
      data-testid="delete-account-dialog"
      title="Delete your account?"
      titleClassName="pr-6"
      description="This permanently deletes your account and all of its data, and signs out every device. It cannot be undone."
    >
      {/* eslint-disable-next-line form/one-form-style -- a typed confirmation, not data: Delete is enabled only when it matches */}
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (confirmed && !remove.isPending) onDelete();
        }}
        className="space-y-4"
      >
        <FormField
          id="delete-account-confirmation"
          label="Type your username or DELETE to confirm"
          hint={
            <>
              Your username is <span className="font-mono font-semibold break-all">{username}</span>.
            </>
          }
        >
          <Input
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoComplete="off"
            spellCheck={false}
            disabled={remove.isPending}
          />
        </FormField>
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="destructive" disabled={!confirmed || remove.isPending}>
            {remove.isPending ? 'Deleting...' : 'Delete Account'}
          </Button>
        </DialogFooter>
      </form>
    </ModalDialog>
  );
}
