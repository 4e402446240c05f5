import { useState, type ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { QueryState } from '../../../components/query-state';
import { serverMessageOr } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import type { CredentialActions } from '../use-credential-actions';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { RevealedSecret } from './revealed-secret';

/** What the card shows of a stored key or token: never the value, only its preview and dates. */
export interface CredentialView {
  exists: boolean;
  preview: string | null;
  createdAt: string | null;
  /** Undefined when the kind does not record it (webhook tokens). */
  lastUsedAt?: string | null;
}

export interface CredentialTexts {
  title: string;
  description: ReactNode;
  /** "API key", "webhook token": the words of the buttons, the dialogs and the warning. */
  noun: string;
  generateLabel: string;
  emptyText: string;
  /** What breaks when it is replaced or removed, for the confirmations. */
  regenerateWarning: string;
  revokeWarning: string;
  loadError: string;
}

/**
 * One credential of the user (part 2, section 4): none, then active (generate); regenerate replaces
 * it, revoke removes it. The whole value appears only right after it was made (RevealedSecret).
 */
export function CredentialCard<T>({
  texts,
  query,
  toView,
  actions,
  hideable = false,
  testId,
  titleIcon,
  children,
}: {
  texts: CredentialTexts;
  query: UseQueryResult<T>;
  toView: (status: T) => CredentialView;
  actions: CredentialActions;
  hideable?: boolean;
  testId: string;
  titleIcon?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Card data-testid={testId} className="min-w-0">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          {titleIcon}
          {texts.title}
        </CardTitle>
        <CardDescription>{texts.description}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {children}
        <QueryState
          query={query}
          loading={<Skeleton className="h-16 w-full" aria-label={`Loading ${texts.noun}`} />}
          errorMessage={(error) => serverMessageOr(error, texts.loadError)}
        >
          {(status) => (
            <CredentialBody texts={texts} view={toView(status)} actions={actions} hideable={hideable} testId={testId} />
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}

function CredentialBody({
  texts,
  view,
  actions,
  hideable,
  testId,
}: {
  texts: CredentialTexts;
  view: CredentialView;
  actions: CredentialActions;
  hideable: boolean;
  testId: string;
}) {
  const [confirming, setConfirming] = useState<'regenerate' | 'revoke' | null>(null);
  const close = () => setConfirming(null);
  const busy = actions.pending !== null;

  if (!view.exists) {
    return (
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground" data-testid={`${testId}-empty`}>
          {texts.emptyText}
        </p>
        <Button onClick={actions.generate} disabled={busy}>
          {actions.pending === 'generate' ? 'Generating...' : texts.generateLabel}
        </Button>
      </div>
    );
  }

  return (
    <div className="space-y-4">
      {actions.issued && (
        <RevealedSecret
          value={actions.issued}
          noun={texts.noun}
          hideable={hideable}
          onDone={actions.dismissIssued}
          testId={`${testId}-revealed`}
        />
      )}
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-6 gap-y-1 text-sm">
        <dt className="text-muted-foreground">{capitalise(texts.noun)}</dt>
        <dd className="font-mono break-all" data-testid={`${testId}-preview`}>
          {view.preview ?? 'N/A'}
        </dd>
        <dt className="text-muted-foreground">Created</dt>
        <dd data-testid={`${testId}-created`}>{formatDateTime(view.createdAt)}</dd>
        {view.lastUsedAt !== undefined && (
          <>
            <dt className="text-muted-foreground">Last used</dt>
            <dd data-testid={`${testId}-last-used`}>{view.lastUsedAt ? formatDateTime(view.lastUsedAt) : 'Never'}</dd>
          </>
        )}
      </dl>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => setConfirming('regenerate')} disabled={busy}>
          Regenerate
        </Button>
        <Button variant="outline" className="text-destructive" onClick={() => setConfirming('revoke')} disabled={busy}>
          Revoke
        </Button>
      </div>
      <ConfirmDialog
        open={confirming === 'regenerate'}
        onOpenChange={(open) => !open && close()}
        title={`Regenerate ${texts.noun}?`}
        description={texts.regenerateWarning}
        confirmLabel="Regenerate"
        pendingLabel="Regenerating..."
        pending={actions.pending === 'regenerate'}
        onConfirm={() => actions.regenerate(close)}
        testId={`${testId}-confirm-regenerate`}
      />
      <ConfirmDialog
        open={confirming === 'revoke'}
        onOpenChange={(open) => !open && close()}
        title={`Revoke ${texts.noun}?`}
        description={texts.revokeWarning}
        confirmLabel="Revoke"
        pendingLabel="Revoking..."
        pending={actions.pending === 'revoke'}
        onConfirm={() => actions.revoke(close)}
        testId={`${testId}-confirm-revoke`}
      />
    </div>
  );
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
