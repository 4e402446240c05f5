import type { CheckStatus, Domain } from '../../../contracts/domains';

export type Tone = 'good' | 'warn' | 'bad' | 'none';

/** Part 2, section 4: healthy "Verified", warning "Issues", error "Critical", anything else "Pending". */
export function domainStatusLabel(status: Domain['status'] | string): string {
  switch (status) {
    case 'healthy':
      return 'Verified';
    case 'warning':
      return 'Issues';
    case 'error':
      return 'Critical';
    default:
      return 'Pending';
  }
}

export function domainStatusTone(status: Domain['status'] | string): Tone {
  switch (status) {
    case 'healthy':
      return 'good';
    case 'warning':
      return 'warn';
    case 'error':
      return 'bad';
    default:
      return 'none';
  }
}

export const CHECK_STATUS: Record<CheckStatus, { label: string; tone: Tone }> = {
  valid: { label: 'Valid', tone: 'good' },
  invalid: { label: 'Invalid', tone: 'bad' },
  missing: { label: 'Missing', tone: 'bad' },
};

export const TONE_PILL: Record<Tone, string> = {
  good: 'border-green-200 bg-green-100 text-green-800',
  warn: 'border-yellow-200 bg-yellow-100 text-yellow-800',
  bad: 'border-red-200 bg-red-100 text-red-800',
  none: 'border-border bg-muted text-muted-foreground',
};

/** Part 2, section 8: a missing date shows "N/A", an unreadable one "Invalid date". */
export function formatDate(value: string | null | undefined): string {
  if (!value) return 'N/A';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return 'Invalid date';
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

export function formatDateTime(value: string | null | undefined): string {
  if (!value) return 'N/A';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return 'Invalid date';
  return date.toLocaleString('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}
