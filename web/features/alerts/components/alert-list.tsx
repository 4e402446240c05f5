import { BellOff, History } from 'lucide-react';
import type { Alert } from '@contracts/alerts';
import { Card } from '../../../components/ui/card';
import { AlertCard } from './alert-card';

const EMPTY = {
  active: {
    icon: BellOff,
    title: 'No active alerts',
    text: 'You are all caught up. New alerts appear here when a check finds a problem with your domains, IP addresses or mail.',
  },
  history: {
    icon: History,
    title: 'No alert history yet',
    text: 'Alerts you mark as read or acknowledge are kept here.',
  },
} as const;

/** The alerts of one tab, newest first as the server sends them, or the tab's empty state in words. */
export function AlertList({
  alerts,
  kind,
  onDelete,
}: {
  alerts: Alert[];
  kind: 'active' | 'history';
  onDelete: (alert: Alert) => void;
}) {
  if (alerts.length === 0) {
    const { icon: Icon, title, text } = EMPTY[kind];
    return (
      <Card data-testid={`${kind}-empty`} className="flex flex-col items-center gap-3 px-4 py-12 text-center">
        <Icon className="size-10 text-muted-foreground" aria-hidden="true" />
        <h2 className="text-lg font-semibold">{title}</h2>
        <p className="max-w-md text-sm text-muted-foreground">{text}</p>
      </Card>
    );
  }
  return (
    <ul className="space-y-3" data-testid={`${kind}-alerts`}>
      {alerts.map((alert) => (
        <AlertCard key={alert.id} alert={alert} onDelete={onDelete} />
      ))}
    </ul>
  );
}
