import { CheckCircle2, XCircle } from 'lucide-react';
import { CONNECTION_SUCCESS, connectionFailed } from '../plugins';

export type ConnectionOutcome = { success: true } | { success: false; error: string };

/** What the last connection test said: the provider's success, or its refusal in its own words. Announced when it changes. */
export function ConnectionResult({ outcome }: { outcome: ConnectionOutcome | null }) {
  return (
    <div aria-live="polite" data-testid="connection-result">
      {outcome?.success === true && (
        <p className="flex items-start gap-2 rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-900">
          <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-green-600" aria-hidden="true" />
          {CONNECTION_SUCCESS}
        </p>
      )}
      {outcome?.success === false && (
        <p className="flex items-start gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900 wrap-anywhere">
          <XCircle className="mt-0.5 size-4 shrink-0 text-red-600" aria-hidden="true" />
          {connectionFailed(outcome.error)}
        </p>
      )}
    </div>
  );
}
