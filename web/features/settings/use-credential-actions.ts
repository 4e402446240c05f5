import { useState } from 'react';
import type { UseMutationResult } from '@tanstack/react-query';
import { toast } from '../../components/ui/use-toast';
import { serverMessageOr } from '../../lib/api-client';

export type CredentialAction = 'generate' | 'regenerate' | 'revoke';

export interface CredentialActions {
  /** The whole key or token, while it is on screen right after it was made; null otherwise. */
  issued: string | null;
  dismissIssued: () => void;
  pending: CredentialAction | null;
  generate: () => void;
  /** `settle` runs when the call ends either way (the confirmation dialog closes). */
  regenerate: (settle: () => void) => void;
  revoke: (settle: () => void) => void;
}

/**
 * Generate, regenerate and revoke of a key or a token, alike for both: the new value is kept for the
 * screen (never in the query cache), and a failure is told in the spec's words (part 2, section 8),
 * with the server's own sentence beneath when it gave one.
 */
export function useCredentialActions<T>({
  generate,
  regenerate,
  revoke,
  valueOf,
  errors,
  revokedTitle,
}: {
  generate: UseMutationResult<T, Error, void>;
  regenerate: UseMutationResult<T, Error, void>;
  revoke: UseMutationResult<void, Error, void>;
  valueOf: (answer: T) => string;
  errors: Record<CredentialAction, string>;
  revokedTitle: string;
}): CredentialActions {
  const [issued, setIssued] = useState<string | null>(null);
  const failed = (action: CredentialAction) => (error: Error) =>
    toast({ title: errors[action], description: serverMessageOr(error, '') || undefined, variant: 'destructive' });

  return {
    issued,
    dismissIssued: () => setIssued(null),
    pending: generate.isPending ? 'generate' : regenerate.isPending ? 'regenerate' : revoke.isPending ? 'revoke' : null,
    generate: () =>
      generate.mutate(undefined, { onSuccess: (answer) => setIssued(valueOf(answer)), onError: failed('generate') }),
    regenerate: (settle) =>
      regenerate.mutate(undefined, {
        onSuccess: (answer) => setIssued(valueOf(answer)),
        onError: failed('regenerate'),
        onSettled: settle,
      }),
    revoke: (settle) =>
      revoke.mutate(undefined, {
        onSuccess: () => {
          setIssued(null);
          toast({ title: revokedTitle });
        },
        onError: failed('revoke'),
        onSettled: settle,
      }),
  };
}
