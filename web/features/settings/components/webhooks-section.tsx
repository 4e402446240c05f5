import { useState } from 'react';
import type { Webhook } from '@contracts/webhooks';
import { QueryState } from '../../../components/query-state';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { formatDateTime } from '../../../lib/format';
import { useSendTestEventMutation, useWebhooks } from '../api';

/**
 * The account's outgoing webhooks (registered through the API, or Alert Settings' webhook URL), each
 * saying plainly when its deliveries are paused because its endpoint kept failing (ADR 051).
 */
export function WebhooksSection() {
  const webhooks = useWebhooks();
  return (
    <Card id="webhooks" data-testid="webhooks-card" className="min-w-0">
      <CardHeader>
        <CardTitle>Webhooks</CardTitle>
        <CardDescription>Where InboxPulse sends your events as they happen.</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState
          query={webhooks}
          loading={<Skeleton className="h-16 w-full" aria-label="Loading webhooks" />}
          errorMessage="Unable to load your webhooks."
          isEmpty={(list) => list.length === 0}
          empty={
            <p className="text-sm text-muted-foreground">
              You have no webhooks. Register one through the API (POST /api/webhooks) or turn on the webhook URL in
              Alert Settings.
            </p>
          }
        >
          {(list) => (
            <ul className="divide-y">
              {list.map((webhook) => (
                <WebhookItem key={webhook.id} webhook={webhook} />
              ))}
            </ul>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}

function WebhookItem({ webhook }: { webhook: Webhook }) {
  return (
    <li data-testid={`webhook-${webhook.id}`} className="min-w-0 space-y-1 py-3 first:pt-0 last:pb-0">
      <p className="truncate font-mono text-sm" title={webhook.url}>
        {webhook.url}
      </p>
      <p className="text-xs text-muted-foreground">
        {webhook.description ? `${webhook.description} · ` : ''}
        {webhook.events.join(', ')}
      </p>
      {webhook.pausedUntil && <PauseNotice webhook={webhook} pausedUntil={webhook.pausedUntil} />}
    </li>
  );
}

function PauseNotice({ webhook, pausedUntil }: { webhook: Webhook; pausedUntil: string }) {
  const sendTest = useSendTestEventMutation();
  // Past its time the pause lasts until one attempt (the probe) is delivered. Read against the time the notice appeared.
  const [shownAt] = useState(() => Date.now());
  const waiting = Date.parse(pausedUntil) > shownAt;
  return (
    <div role="status" className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
      <p>
        {waiting
          ? `Deliveries are paused until ${formatDateTime(pausedUntil)} because the endpoint kept failing.`
          : 'Deliveries are paused because the endpoint kept failing: the next delivery tries it again.'}{' '}
        Last error: {webhook.pauseReason}. Events wait meanwhile and use none of their attempts.
      </p>
      <Button
        size="sm"
        variant="outline"
        disabled={sendTest.isPending}
        onClick={() =>
          sendTest.mutate(webhook.id, {
            onSuccess: () =>
              toast({
                title: 'Test event sent',
                description: 'Deliveries resume as soon as the endpoint answers it with a 2xx status.',
              }),
            onError: () => toast({ title: 'Failed to send the test event. Please try again.', variant: 'destructive' }),
          })
        }
      >
        Resume deliveries
      </Button>
    </div>
  );
}
