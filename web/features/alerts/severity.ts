import { AlertOctagon, Info, TriangleAlert, XCircle, type LucideIcon } from 'lucide-react';
import type { AlertSeverity } from '@contracts/alerts';

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
