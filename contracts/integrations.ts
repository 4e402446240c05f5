import { z } from 'zod';

export const IntegrationStatus = z.enum(['active', 'inactive', 'error']);

/** An installed integration, with the figures of its synced email metrics over the last 30 days. */
export const Integration = z.object({
  id: z.number().int(),
  provider: z.string(),
  type: z.enum(['esp', 'analytics', 'mta']),
  status: IntegrationStatus,
  lastSync: z.string().nullable(),
  createdAt: z.string(),
  emailsSent: z.number().int(),
  /** Delivered / sent over 30 days, in percent; null when nothing was sent. */
  deliveryRate: z.number().nullable(),
  /** How many daily metric rows were synced. */
  dataPoints: z.number().int(),
});
export type Integration = z.infer<typeof Integration>;
export const IntegrationList = z.array(Integration);
