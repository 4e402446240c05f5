import {
  Ban,
  FileDiff,
  Inbox,
  Plug,
  ShieldAlert,
  ShieldCheck,
  StickyNote,
  TrendingDown,
  UserX,
  type LucideIcon,
} from 'lucide-react';
import type { TimelineEvent, TimelineEventKind, TimelineSeverity } from '@contracts/timeline';

/** How each kind of event is named and drawn, in the list and as a marker on the chart. */
export const EVENT_KINDS: Record<TimelineEventKind, { label: string; icon: LucideIcon }> = {
  dns_change: { label: 'DNS change', icon: FileDiff },
  dns_check_failed: { label: 'DNS check failed', icon: ShieldAlert },
  listing: { label: 'Blocklist listing', icon: Ban },
  delisting: { label: 'Blocklist delisting', icon: ShieldCheck },
  dmarc_new_source: { label: 'New failing DMARC source', icon: UserX },
  placement_test: { label: 'Inbox test', icon: Inbox },
  integration: { label: 'Integration', icon: Plug },
  note: { label: 'Note', icon: StickyNote },
  drop: { label: 'Drop', icon: TrendingDown },
};

export const SEVERITY_COLOR: Record<TimelineSeverity, string> = {
  info: '#64748b',
  warning: '#d97706',
  critical: '#dc2626',
};

export const SEVERITY_TEXT: Record<TimelineSeverity, string> = {
  info: 'text-muted-foreground',
  warning: 'text-yellow-700',
  critical: 'text-red-700',
};

/** The note's own id, carried at the end of its event id (the server's `note:<id>`). */
export function noteIdOf(event: TimelineEvent): number | null {
  if (event.kind !== 'note') return null;
  const match = /(\d+)$/.exec(event.id);
  return match ? Number(match[1]) : null;
}
