import { z } from 'zod';
import { IdParams } from './input';

/**
 * Alert types: the union of the ones the dashboard shows (part 1, section 3) and the alerts page
 * (part 2, section 3). Severities: one set for both screens, see docs/decisions/004.
 */
export const ALERT_TYPES = [
  'authentication_failure',
  'dns_changes',
  'certificate_expiry',
  'deliverability_drop',
  'provider_blocking',
  'blacklist_detection',
  'reputation_decline',
  'suspicious_activity',
  'deliverability',
  'reputation',
  'bounce',
  'spam',
  'compliance',
] as const;
export const AlertType = z.enum(ALERT_TYPES);
export type AlertType = z.infer<typeof AlertType>;

/** Alert types in words, as the screens and the SMS name them. */
export const ALERT_TYPE_LABELS: Record<AlertType, string> = {
  authentication_failure: 'Authentication failure',
  dns_changes: 'DNS change',
  certificate_expiry: 'Certificate expiry',
  deliverability_drop: 'Deliverability drop',
  provider_blocking: 'Provider blocking',
  blacklist_detection: 'Blacklist detection',
  reputation_decline: 'Reputation decline',
  suspicious_activity: 'Suspicious activity',
  deliverability: 'Deliverability',
  reputation: 'Reputation',
  bounce: 'Bounce',
  spam: 'Spam',
  compliance: 'Compliance',
};

export const ALERT_SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
export const AlertSeverity = z.enum(ALERT_SEVERITIES);
export type AlertSeverity = z.infer<typeof AlertSeverity>;

export const ALERT_HISTORY_EVENTS = ['raised', 'updated', 'resolved', 'acknowledged', 'read'] as const;

/** One line of an alert's history: what happened to it, when, in words. */
export const AlertHistoryEntry = z.object({
  at: z.string(),
  event: z.enum(ALERT_HISTORY_EVENTS),
  message: z.string(),
});
export type AlertHistoryEntry = z.infer<typeof AlertHistoryEntry>;

export const Alert = z.object({
  id: z.number().int(),
  type: AlertType,
  severity: AlertSeverity,
  title: z.string(),
  message: z.string(),
  domain: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  isRead: z.boolean(),
  createdAt: z.string(),
  /** The condition changed while it lasted (a new value, a higher severity). */
  updatedAt: z.string().nullable(),
  /** The data recovered; the alert stays. */
  resolvedAt: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
  history: z.array(AlertHistoryEntry),
});
export type Alert = z.infer<typeof Alert>;

export const AlertList = z.array(Alert);

export const AlertIdParams = IdParams('Alert id');
