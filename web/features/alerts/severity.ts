import { AlertOctagon, Info, TriangleAlert, XCircle, type LucideIcon } from 'lucide-react';
import type { AlertSeverity, AlertType } from '@contracts/alerts';

/** ADR 004: the alerts page labels the four stored severities as they are, each with its own icon and colour. */
export const SEVERITY_LOOK: Record<AlertSeverity, { icon: LucideIcon; iconClass: string; badgeClass: string }> = {
  critical: { icon: AlertOctagon, iconClass: 'text-red-700', badgeClass: 'border-red-300 bg-red-600 text-white' },
  error: { icon: XCircle, iconClass: 'text-red-600', badgeClass: 'border-red-200 bg-red-100 text-red-800' },
  warning: {
    icon: TriangleAlert,
    iconClass: 'text-yellow-600',
    badgeClass: 'border-yellow-200 bg-yellow-100 text-yellow-800',
  },
  info: { icon: Info, iconClass: 'text-blue-600', badgeClass: 'border-blue-200 bg-blue-100 text-blue-800' },
};

/** Alert types in words (contracts/alerts.ts holds the union of both screens' lists). */
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
};
