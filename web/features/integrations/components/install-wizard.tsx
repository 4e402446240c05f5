import { useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { ExternalLink, KeyRound, Settings2 } from 'lucide-react';
import type { Integration as Plugin } from '@content/integrations';
import type { Integration } from '@contracts/integrations';
import { Form } from '../../../components/form';
import { Button } from '../../../components/ui/button';
import { DialogFooter } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { cn } from '../../../lib/utils';
import { useInstallMutation } from '../api';
import {
  configDefaults,
  configSchema,
  missingFields,
  refusalIn,
  useConfigFormContext,
  useConnectionTest,
  type ConfigValues,
} from '../config-form';
import { filledConfig } from '../plugins';
import { ConfigFields } from './config-fields';
import { ConnectionResult } from './connection-result';

/** Step 1 of the guided setup: where to get the credentials, what they need, the provider's documentation. */
export function CredentialsStep({ plugin, imports = plugin.syncs }: { plugin: Plugin; imports?: string }) {
  return (
    <div className="space-y-4 text-sm" data-testid="step-credentials">
      <p>{plugin.keyHint.where}</p>
      <dl className="space-y-2">
        <div>
          <dt className="font-medium">Permissions</dt>
          <dd className="text-muted-foreground">{plugin.keyHint.permissions}</dd>
        </div>
        {plugin.keyHint.format && (
          <div>
            <dt className="font-medium">What it looks like</dt>
            <dd className="text-muted-foreground">{plugin.keyHint.format}</dd>
          </div>
        )}
        <div>
          <dt className="font-medium">You need</dt>
          <dd>
            <ul className="list-disc pl-5 text-muted-foreground">
              {plugin.requirements.map((requirement) => (
                <li key={requirement}>{requirement}</li>
              ))}
            </ul>
          </dd>
        </div>
        <div>
          <dt className="font-medium">What InboxPulse imports</dt>
          <dd className="text-muted-foreground">{imports}</dd>
        </div>
      </dl>
      <a
        href={plugin.documentation}
        target="_blank"
        rel="noopener noreferrer"
        className="inline-flex items-center gap-1.5 font-medium text-primary underline underline-offset-4 hover:no-underline"
      >
        {plugin.name} documentation
        <ExternalLink className="size-3.5" aria-hidden="true" />
        <span className="sr-only">(opens in a new tab)</span>
      </a>
    </div>
  );
}

/** Which step of two the dialog is on, as a list the screen reader reads with the current one marked. */
export function StepIndicator({ step }: { step: 1 | 2 }) {
  const steps = [
    { n: 1, label: 'Get credentials', icon: KeyRound },
    { n: 2, label: 'Configure', icon: Settings2 },
  ] as const;
  return (
    <ol className="grid grid-cols-2 gap-2 text-xs sm:text-sm" aria-label="Setup steps">
      {steps.map(({ n, label, icon: Icon }) => (
        <li
          key={n}
          aria-current={step === n ? 'step' : undefined}
          className={cn(
            'flex items-center gap-2 rounded-md border px-2 py-1.5',
            step === n ? 'border-primary bg-primary/5 font-medium' : 'text-muted-foreground',
          )}
        >
          <Icon className="size-4 shrink-0" aria-hidden="true" />
          <span>
            Step {n}: {label}
          </span>
        </li>
      ))}
    </ol>
  );
}

/** Field labels as a sentence's list: "API key", "API key and API URL". */
const listOf = (labels: string[]) => new Intl.ListFormat('en', { type: 'conjunction' }).format(labels);

/**
 * The Install dialog's two-step guided setup (part 2, section 2): get the credentials, then the
 * plugin's config fields with Test Connection and Install. Install sends the config; the server
 * tests it with the provider before storing anything, and its refusal is shown in the provider's words.
 */
export function InstallWizard({
  plugin,
  onInstalled,
  onCancel,
}: {
  plugin: Plugin;
  onInstalled: (integration: Integration) => void;
  onCancel: () => void;
}) {
  const [step, setStep] = useState<1 | 2>(1);
  const connection = useConnectionTest(plugin);
  const install = useInstallMutation((integration) => {
    toast({
      title: `${plugin.name} installed`,
      description:
        'The connection test passed. The first sync is running; its figures appear on the dashboard when it ends.',
    });
    onInstalled(integration);
  });
  const stepHeading = useRef<HTMLHeadingElement>(null);

  function go(next: 1 | 2) {
    setStep(next);
    // The content changes in place: move focus to the new step's heading so it is read.
    requestAnimationFrame(() => stepHeading.current?.focus());
  }

  function submit(values: ConfigValues) {
    install.mutate(
      { pluginId: plugin.id, config: filledConfig(plugin, values), provider: plugin.id },
      {
        onError: (error) => {
          const message = serverMessageOr(error, 'The integration could not be installed. Please try again.');
          const refusal = refusalIn(message);
          if (refusal) connection.setOutcome({ success: false, error: refusal });
          toast({ title: 'Installation Failed', description: message, variant: 'destructive' });
        },
      },
    );
  }

  return (
    <div className="space-y-4">
      <StepIndicator step={step} />
      <h3 ref={stepHeading} tabIndex={-1} className="text-base font-semibold focus:outline-none">
        {step === 1 ? `Step 1 of 2: Get your ${plugin.name} credentials` : `Step 2 of 2: Configure ${plugin.name}`}
      </h3>
      {step === 1 ? (
        <>
          <CredentialsStep plugin={plugin} />
          <DialogFooter>
            <Button variant="outline" onClick={onCancel}>
              Cancel
            </Button>
            <Button onClick={() => go(2)}>Next</Button>
          </DialogFooter>
        </>
      ) : (
        <Form
          schema={configSchema(plugin)}
          defaultValues={configDefaults(plugin)}
          pending={install.isPending}
          onSubmit={submit}
          className="space-y-4"
          data-testid="step-configure"
        >
          {() => (
            <ConfigureStep
              plugin={plugin}
              connection={connection}
              installing={install.isPending}
              onBack={() => go(1)}
            />
          )}
        </Form>
      )}
    </div>
  );
}

/** Step 2: the config fields, Test Connection and Install, both waiting until the required fields are filled. */
function ConfigureStep({
  plugin,
  connection,
  installing,
  onBack,
}: {
  plugin: Plugin;
  connection: ReturnType<typeof useConnectionTest>;
  installing: boolean;
  onBack: () => void;
}) {
  const { control, getValues, trigger } = useConfigFormContext();
  useWatch({ control });
  const missing = missingFields(plugin, getValues());
  const unfilled = missing.length > 0;
  const busy = installing || connection.testing;
  return (
    <>
      <ConfigFields plugin={plugin} disabled={installing} onEdited={() => connection.setOutcome(null)} />
      <ConnectionResult outcome={connection.outcome} />
      {unfilled && (
        <p className="text-sm text-muted-foreground" id="install-needs">
          Fill in {listOf(missing)} to test the connection and install.
        </p>
      )}
      <DialogFooter className="gap-2">
        <Button variant="outline" onClick={onBack} disabled={busy}>
          Back
        </Button>
        <Button
          variant="outline"
          onClick={async () => {
            if (await trigger()) connection.run(getValues());
          }}
          disabled={busy || unfilled}
          aria-describedby={unfilled ? 'install-needs' : undefined}
        >
          {connection.testing ? 'Testing...' : 'Test Connection'}
        </Button>
        <Button type="submit" disabled={busy || unfilled} aria-describedby={unfilled ? 'install-needs' : undefined}>
          {installing ? 'Installing...' : 'Install'}
        </Button>
      </DialogFooter>
    </>
  );
}
