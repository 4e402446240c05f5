import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Integration as Plugin } from '@content/integrations';
import { GOOGLE_NOT_CONFIGURED, type PostmasterStatus } from '@contracts/postmaster';
import { ConnectGoogleButton } from '../../../components/connect-google-button';
import { QueryState } from '../../../components/query-state';
import { Button } from '../../../components/ui/button';
import { DialogFooter } from '../../../components/ui/dialog';
import { Pill } from '../../../components/ui/pill';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { POSTMASTER_STATUS_QUERY_KEY, usePostmasterStatus } from '../../../lib/queries/postmaster';
import { useIntegrations, useUninstallMutation } from '../api';
import { installedOf, POSTMASTER_PLUGIN_ID } from '../plugins';
import { CredentialsStep, StepIndicator } from './install-wizard';

/** What a connected account brings (docs/decisions/029). */
const IMPORTS =
  'Gmail’s daily figures for each domain the Google account verified in Postmaster Tools: the user-reported spam rate, SPF, DKIM and DMARC success, TLS encryption, domain and IP reputation, and delivery errors with their reasons. Imported every day.';

/**
 * Google Postmaster Tools (ADR 029): no key to paste. Step 1 says what Google needs (a domain
 * verified in Postmaster Tools), step 2 signs in with Google; Google sends the browser back to this
 * page, which says how it went. Connected, it shows the account's domains and imports.
 */
export function PostmasterPanel({ plugin, onCancel }: { plugin: Plugin; onCancel: () => void }) {
  const status = usePostmasterStatus();
  return (
    <QueryState
      query={status}
      loading={
        <div className="flex justify-center py-8">
          <Spinner label="Loading the Google Postmaster Tools connection" />
        </div>
      }
      errorMessage={(error) => serverMessageOr(error, 'Could not load the Google Postmaster Tools connection.')}
    >
      {(data) =>
        data.state === 'connected' || data.state === 'needs_reconnect' ? (
          <ConnectedView status={data} plugin={plugin} />
        ) : (
          <ConnectSteps plugin={plugin} configured={data.state !== 'not_configured'} onCancel={onCancel} />
        )
      }
    </QueryState>
  );
}

function ConnectSteps({ plugin, configured, onCancel }: { plugin: Plugin; configured: boolean; onCancel: () => void }) {
  const [step, setStep] = useState<1 | 2>(1);
  return (
    <div className="space-y-4">
      <StepIndicator step={step} />
      {step === 1 ? (
        <>
          <h3 className="text-base font-semibold">Step 1 of 2: Get your Google Postmaster Tools access</h3>
          <CredentialsStep plugin={plugin} imports={IMPORTS} />
          <DialogFooter>
            <Button variant="outline" onClick={onCancel}>
              Cancel
            </Button>
            <Button onClick={() => setStep(2)}>Next</Button>
          </DialogFooter>
        </>
      ) : (
        <>
          <h3 className="text-base font-semibold">Step 2 of 2: Connect your Google account</h3>
          {configured ? (
            <p className="text-sm">
              Sign in with the Google account that verified your domains in Postmaster Tools and allow InboxPulse to
              read its Postmaster Tools data (read only). Google then sends you back here.
            </p>
          ) : (
            <p
              role="note"
              className="rounded-md border border-yellow-200 bg-yellow-50 p-3 text-sm text-yellow-900"
              data-testid="google-not-configured"
            >
              {GOOGLE_NOT_CONFIGURED}
            </p>
          )}
          <DialogFooter>
            <Button variant="outline" onClick={() => setStep(1)}>
              Back
            </Button>
            {configured && <ConnectGoogleButton size="default" />}
          </DialogFooter>
        </>
      )}
    </div>
  );
}

function ConnectedView({ status, plugin }: { status: PostmasterStatus; plugin: Plugin }) {
  const integrations = useIntegrations();
  const integration = installedOf(integrations.data, POSTMASTER_PLUGIN_ID);
  const queryClient = useQueryClient();
  const uninstall = useUninstallMutation(() => {
    toast({ title: `${plugin.name} disconnected`, description: 'Its imported figures were removed.' });
    void queryClient.invalidateQueries({ queryKey: POSTMASTER_STATUS_QUERY_KEY });
  });
  const reconnect = status.state === 'needs_reconnect';
  return (
    <div className="space-y-4" data-testid="postmaster-connected">
      <Pill tone={reconnect ? 'bad' : 'good'} testId="integration-status">
        {reconnect ? 'Needs reconnecting' : 'Connected'}
      </Pill>
      {reconnect && (
        <p className="text-sm">
          Google no longer accepts InboxPulse’s access to this account: connect it again to resume the daily import.
        </p>
      )}
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-6 gap-y-1.5 text-sm">
        <dt className="text-muted-foreground">Connected</dt>
        <dd>{formatDateTime(status.connectedAt)}</dd>
        <dt className="text-muted-foreground">Domains</dt>
        <dd className="wrap-anywhere" data-testid="postmaster-domains">
          {status.domains.length > 0 ? status.domains.join(', ') : 'None verified in Postmaster Tools yet'}
        </dd>
        <dt className="text-muted-foreground">Last import</dt>
        <dd>{status.lastImportAt ? formatDateTime(status.lastImportAt) : 'Not yet'}</dd>
        <dt className="text-muted-foreground">Last error</dt>
        <dd className="wrap-anywhere">
          {status.lastError ? <span className="text-red-700">{status.lastError}</span> : 'None'}
        </dd>
      </dl>
      <div className="flex flex-wrap gap-2">
        <ConnectGoogleButton reconnect />
        {integration && (
          <Button
            size="sm"
            variant="outline"
            className="text-destructive"
            disabled={uninstall.isPending}
            onClick={() =>
              uninstall.mutate(
                { id: integration.id, keepMetrics: false },
                {
                  onError: (error) =>
                    toast({
                      title: 'Not disconnected',
                      description: serverMessageOr(error, 'It could not be disconnected. Try again.'),
                      variant: 'destructive',
                    }),
                },
              )
            }
          >
            {uninstall.isPending ? 'Disconnecting...' : 'Disconnect'}
          </Button>
        )}
      </div>
    </div>
  );
}
