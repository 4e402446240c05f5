import type { CheckStatus, Domain } from '@contracts/domains';

import type { Tone } from '../../components/ui/pill';

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
