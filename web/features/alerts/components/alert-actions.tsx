import { Check, CheckCheck, Trash2 } from 'lucide-react';
import type { Alert } from '@contracts/alerts';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { useAcknowledgeMutation, useMarkReadMutation } from '../api';

/** Mark Read, Acknowledge and Delete of one alert; the delete asks first (the page holds its dialog). */
export function AlertActions({ alert, onDelete }: { alert: Alert; onDelete: (alert: Alert) => void }) {
  const markRead = useMarkReadMutation();
  const acknowledge = useAcknowledgeMutation();

  const read = () =>
    markRead.mutate(alert.id, {
      onError: (failure) =>
        toast({
          title: 'Error',
          description: serverMessageOr(failure, 'Failed to mark alert as read'),
          variant: 'destructive',
        }),
    });
  const ack = () =>
    acknowledge.mutate(alert.id, {
      onSuccess: () => toast({ title: 'Alert acknowledged', description: alert.title }),
      onError: (failure) =>
        toast({
          title: 'Error',
          description: serverMessageOr(failure, 'Failed to acknowledge alert'),
          variant: 'destructive',
        }),
    });

  return (
    <div className="flex flex-wrap items-center gap-2">
      {!alert.isRead && (
        <Button
          variant="outline"
          size="sm"
          onClick={read}
          disabled={markRead.isPending}
          aria-label={`Mark Read: ${alert.title}`}
        >
          <Check aria-hidden="true" />
          Mark Read
        </Button>
      )}
      {!alert.acknowledgedAt && (
        <Button
          variant="outline"
          size="sm"
          onClick={ack}
          disabled={acknowledge.isPending}
          aria-label={`Acknowledge: ${alert.title}`}
        >
          <CheckCheck aria-hidden="true" />
          Acknowledge
        </Button>
      )}
      <Button
        variant="ghost"
        size="sm"
        className="text-muted-foreground hover:text-destructive"
        onClick={() => onDelete(alert)}
        aria-label={`Delete alert ${alert.title}`}
      >
        <Trash2 aria-hidden="true" />
        Delete
      </Button>
    </div>
  );
}
