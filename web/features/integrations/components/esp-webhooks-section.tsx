import { Webhook } from 'lucide-react';
import { EspWebhookSecretBody, type EspWebhookProvider, type EspWebhookStatus } from '@contracts/esp-webhooks';
import { CopyButton } from '../../../components/copy-button';
import { Form, FormError, SubmitButton } from '../../../components/form';
import { QueryState } from '../../../components/query-state';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { formatDateTime, relativeAge } from '../../../lib/format';
import { useEspSecretMutation, useEspWebhooks } from '../api';

/** What each ESP calls the secret InboxPulse checks its posts with, and where to find it (docs/esp-webhooks.md). */
const PROVIDERS: Record<EspWebhookProvider, { name: string; secret: string; hint: string }> = {
  sendgrid: {
    name: 'SendGrid',
    secret: 'Verification key',
    hint: 'Settings, Mail Settings, Event Webhook: turn on Signed Event Webhook Requests and copy its key.',
  },
  mailgun: {
    name: 'Mailgun',
    secret: 'HTTP webhook signing key',
    hint: 'Sending, Webhooks: the HTTP webhook signing key.',
  },
  postmark: {
    name: 'Postmark',
    secret: 'Basic-auth credentials (user:password)',
    hint: 'Optional: the credentials you add to the webhook URL in Postmark. Without them the token in the URL is the secret.',
  },
  ses: { name: 'Amazon SES', secret: '', hint: '' },
  sparkpost: {
    name: 'SparkPost',
    secret: 'Basic-auth credentials (user:password)',
    hint: 'Optional: the Basic Auth username and password set on the webhook in SparkPost. Without them the token in the URL is the secret.',
  },
  mailjet: {
    name: 'Mailjet',
    secret: 'Basic-auth credentials (user:password)',
    hint: 'Optional: the user:password you put in the Event API URL (https://user:password@…). Without them the token in the URL is the secret.',
  },
  brevo: {
    name: 'Brevo',
    secret: 'Basic-auth credentials (user:password)',
    hint: 'Optional: the basic authentication username and password set on the webhook in Brevo. Without them the token in the URL is the secret.',
  },
};

function SecretForm({ status }: { status: EspWebhookStatus }) {
  const provider = PROVIDERS[status.provider];
  const save = useEspSecretMutation(status.provider);
  const id = `esp-secret-${status.provider}`;
  return (
    <Form
      schema={EspWebhookSecretBody}
      defaultValues={{ secret: '' }}
      pending={save.isPending}
      className="space-y-2"
      aria-label={`${provider.name} ${provider.secret}`}
      onSubmit={({ secret }, refuse, form) =>
        save.mutate(secret, {
          onSuccess: () => {
            form.reset();
            toast({ title: `${provider.name} secret saved` });
          },
          onError: (err) => refuse(err, 'Could not save the secret.'),
        })
      }
    >
      {({ register, formState: { errors } }) => (
        <>
          <FormField id={id} label={provider.secret} error={errors.secret?.message} hint={provider.hint}>
            <Input autoComplete="off" spellCheck={false} {...register('secret')} />
          </FormField>
          <FormError />
          <div className="flex flex-wrap items-center gap-2">
            <SubmitButton pending="Saving...">{status.secretSet ? 'Replace secret' : 'Save secret'}</SubmitButton>
            {status.secretSet && (
              <Button
                type="button"
                variant="outline"
                disabled={save.isPending}
                onClick={() =>
                  save.mutate(null, {
                    onSuccess: () => toast({ title: `${provider.name} secret removed` }),
                    onError: (err) =>
                      toast({
                        title: 'Could not remove the secret',
                        description: serverMessageOr(err, 'Please try again.'),
                        variant: 'destructive',
                      }),
                  })
                }
              >
                Remove secret
              </Button>
            )}
          </div>
        </>
      )}
    </Form>
  );
}

/** Whether the receiver can take posts now, in words: a SendGrid or Mailgun post is refused until its secret is saved. */
function secretState(status: EspWebhookStatus): string {
  if (status.provider === 'ses') return 'No secret needed: each message is checked against AWS’s signing certificate.';
  if (status.secretSet) return 'Secret saved: posts are checked with it.';
  return status.secretRequired
    ? 'No secret saved yet: its posts are refused until you save it.'
    : 'No credentials saved: the token in the URL alone authenticates its posts.';
}

function ProviderCard({ status, baseUrl }: { status: EspWebhookStatus; baseUrl: string }) {
  const provider = PROVIDERS[status.provider];
  const url = `${baseUrl}${status.path}?token=iwt_your_webhook_token`;
  return (
    <Card data-testid={`esp-webhook-${status.provider}`} aria-labelledby={`esp-webhook-${status.provider}-title`}>
      <CardHeader className="pb-3">
        <h4 id={`esp-webhook-${status.provider}-title`} className="text-base font-semibold leading-none">
          {provider.name}
        </h4>
      </CardHeader>
      <CardContent className="space-y-3 text-sm">
        <div className="flex min-w-0 items-start gap-1">
          <code className="min-w-0 flex-1 rounded bg-muted px-2 py-1.5 font-mono text-xs break-all">{url}</code>
          <CopyButton value={url} label={`Copy the ${provider.name} webhook URL`} />
        </div>
        <p className="text-muted-foreground" data-testid="esp-webhook-secret-state">
          {secretState(status)}
        </p>
        {status.provider !== 'ses' && <SecretForm status={status} />}
        <p className="text-xs" data-testid="esp-webhook-last-event">
          {status.lastEventAt ? (
            <span title={formatDateTime(status.lastEventAt)}>
              Last event {relativeAge(status.lastEventAt).toLowerCase()}
            </span>
          ) : (
            <span className="text-muted-foreground">No events received yet</span>
          )}
        </p>
        {!!status.droppedLast30Days && (
          <p className="text-xs" data-testid="esp-webhook-dropped">
            {status.droppedLast30Days.toLocaleString('en-US')} {status.droppedLast30Days === 1 ? 'message' : 'messages'}{' '}
            not sent by {provider.name} in the last 30 days (dropped or suppressed before sending)
          </p>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * ESP event webhooks (issue 37): for SendGrid, Mailgun, Postmark and Amazon SES, the URL to paste in the ESP (with
 * the account's webhook token), the secret its posts are checked with, and when its last event arrived.
 */
export function EspWebhooksSection() {
  const webhooks = useEspWebhooks(true);
  const baseUrl = window.location.origin;
  return (
    <Card data-testid="esp-webhooks">
      <CardHeader className="pb-3">
        <CardTitle as="h3" className="flex items-center gap-2 text-lg">
          <Webhook className="size-5" aria-hidden="true" />
          ESP event webhooks
        </CardTitle>
        <CardDescription>
          Each message’s delivery, bounce and complaint as your ESP reports it. Paste the URL in your ESP with your
          webhook token (Settings, Webhook Token) in place of iwt_your_webhook_token.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState
          query={webhooks}
          loading={<Skeleton className="h-24 w-full" />}
          errorMessage={(error) => serverMessageOr(error, 'Unable to load your ESP webhooks.')}
        >
          {(list) => (
            <div className="grid gap-4 md:grid-cols-2">
              {list.map((status) => (
                <ProviderCard key={status.provider} status={status} baseUrl={baseUrl} />
              ))}
            </div>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
