import type { ThreatSeverity } from '@contracts/dmarc';

/** Failed messages from one source in the period at or above which it gets this severity; below medium it is low. */
export const THREAT_THRESHOLDS = { critical: 1000, high: 100, medium: 10 } as const;

export function threatSeverity(failed: number): ThreatSeverity {
  if (failed >= THREAT_THRESHOLDS.critical) return 'critical';
  if (failed >= THREAT_THRESHOLDS.high) return 'high';
  if (failed >= THREAT_THRESHOLDS.medium) return 'medium';
  return 'low';
}
