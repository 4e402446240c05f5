import { useState } from 'react';
import { ChangePasswordBody, type AccountSession } from '@contracts/account';
import { AUTH_MESSAGES } from '@contracts/auth';
import { Form, FormError, SubmitButton } from '../../components/form';
import { Badge } from '../../components/ui/badge';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { Skeleton } from '../../components/ui/skeleton';
import { toast } from '../../components/ui/use-toast';
import { QueryState } from '../../components/query-state';
import { serverMessageOr } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { StorageCard } from './storage-card';
import { useChangePasswordMutation, useRevokeSessionMutation, useSessions, useSignOutOthersMutation } from './api';

/** The account's own parts of Settings: password, signed-in devices, storage (composed in web/app/settings-page.tsx). */
export function AccountSecuritySections() {
  return (
    <>
      <section aria-labelledby="security-heading" className="space-y-6">
        <h2 id="security-heading" className="text-xl font-semibold">
          Security
        </h2>
        <ChangePasswordCard />
        <SessionsCard />
      </section>
      <StorageCard />
    </>
  );
}

const EMPTY_FORM: ChangePasswordBody = {
  currentPassword: '',
  newPassword: '',
  confirmPassword: '',
  revokeApiAccess: false,
};

function ChangePasswordCard() {
  const change = useChangePasswordMutation();
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h3">Change password</CardTitle>
        <CardDescription>
          Your other devices are signed out when the password changes; this one stays signed in.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form
          schema={ChangePasswordBody}
          defaultValues={EMPTY_FORM}
          pending={change.isPending}
          className="max-w-md space-y-4"
          aria-label="Change password"
          onSubmit={(body, refuse, form) =>
            change.mutate(body, {
              onSuccess: ({ message, apiAccessRevoked }) => {
                form.reset(EMPTY_FORM);
                const description = apiAccessRevoked ? `${message} ${AUTH_MESSAGES.apiAccessRevoked}` : message;
                toast({ title: 'Password changed', description });
              },
              onError: (error) => refuse(error, 'Unable to change your password. Please try again.'),
            })
          }
        >
          {({ register, formState: { errors } }) => (
            <>
              <FormField id="current-password" label="Current Password" error={errors.currentPassword?.message}>
                <Input type="password" autoComplete="current-password" {...register('currentPassword')} />
              </FormField>
              <FormField
                id="new-password"
                label="New Password"
                error={errors.newPassword?.message}
                hint="At least 8 characters."
              >
                <Input type="password" autoComplete="new-password" {...register('newPassword')} />
              </FormField>
              <FormField id="confirm-new-password" label="Confirm New Password" error={errors.confirmPassword?.message}>
                <Input type="password" autoComplete="new-password" {...register('confirmPassword')} />
              </FormField>
              <label htmlFor="revoke-api-access" className="flex items-center gap-2 text-sm">
                <input id="revoke-api-access" type="checkbox" className="size-4" {...register('revokeApiAccess')} />
                Also revoke my API key and webhook token
              </label>
              <FormError />
              <SubmitButton pending="Changing...">Change Password</SubmitButton>
            </>
          )}
        </Form>
      </CardContent>
    </Card>
  );
}

function SessionsCard() {
  const sessions = useSessions();
  const signOutOthers = useSignOutOthersMutation();
  const [confirming, setConfirming] = useState(false);
  const hasOthers = sessions.data?.some((s) => !s.current) ?? false;

  const confirm = () =>
    signOutOthers.mutate(undefined, {
      onSuccess: ({ revoked }) => {
        setConfirming(false);
        toast({
          title: 'Signed out everywhere else',
          description: `${revoked} other session${revoked === 1 ? '' : 's'} signed out.`,
        });
      },
      onError: (error) => {
        setConfirming(false);
        toast({
          title: 'Unable to sign out other sessions',
          description: serverMessageOr(error, 'Please try again.'),
          variant: 'destructive',
        });
      },
    });

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-4 space-y-0">
        <div className="space-y-1.5">
          <CardTitle as="h3">Active sessions</CardTitle>
          <CardDescription>The devices signed in to your account. Revoke any you do not recognise.</CardDescription>
        </div>
        <Button variant="outline" onClick={() => setConfirming(true)} disabled={!hasOthers}>
          Sign out everywhere else
        </Button>
      </CardHeader>
      <CardContent>
        <QueryState
          query={sessions}
          loading={
            <div className="space-y-2" aria-label="Loading sessions">
              <Skeleton className="h-14 w-full" />
              <Skeleton className="h-14 w-full" />
            </div>
          }
          errorMessage={(error) => serverMessageOr(error, 'Unable to load your sessions.')}
          isEmpty={(list) => list.length === 0}
          empty={<p className="text-sm text-muted-foreground">No active sessions.</p>}
        >
          {(list) => (
            <ul className="divide-y" aria-label="Active sessions">
              {list.map((session) => (
                <SessionRow key={session.id} session={session} />
              ))}
            </ul>
          )}
        </QueryState>
      </CardContent>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Sign out everywhere else?"
        description="Every other device signed in to your account is signed out. This device stays signed in."
        confirmLabel="Sign out"
        pendingLabel="Signing out..."
        pending={signOutOthers.isPending}
        onConfirm={confirm}
        testId="sign-out-others-dialog"
      />
    </Card>
  );
}

function SessionRow({ session }: { session: AccountSession }) {
  const revoke = useRevokeSessionMutation();
  const onRevoke = () =>
    revoke.mutate(session, {
      onError: (error) =>
        toast({
          title: 'Unable to revoke session',
          description: serverMessageOr(error, 'Please try again.'),
          variant: 'destructive',
        }),
    });
  return (
    <li
      className="flex flex-wrap items-center justify-between gap-3 py-3"
      data-testid="session-row"
      data-session-id={session.id}
    >
      <div className="min-w-0 space-y-1">
        <p className="flex items-center gap-2 font-medium">
          <span className="truncate" title={session.userAgent ?? undefined}>
            {session.device}
          </span>
          {session.current && <Badge variant="secondary">This device</Badge>}
        </p>
        <p className="text-sm text-muted-foreground">
          {session.ip ?? 'Unknown IP'} · Signed in {formatDateTime(session.createdAt)}
        </p>
      </div>
      <Button
        variant="outline"
        size="sm"
        onClick={onRevoke}
        disabled={revoke.isPending}
        aria-label={`Revoke ${session.device}${session.current ? ' (this device)' : ''}`}
      >
        {revoke.isPending ? 'Revoking...' : 'Revoke'}
      </Button>
    </li>
  );
}
