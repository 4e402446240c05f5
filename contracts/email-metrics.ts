import { z } from 'zod';
import { DateFilter } from './input';

/**
 * One provider's sending figures for one day (UTC), as synced from an ESP or summed from an MTA's
 * delivery events. `id` is the provider's first row of that day (an MTA keeps a row per mailbox
 * provider and sending IP).
 */
export const EmailMetric = z.object({
  id: z.number().int(),
  provider: z.string(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  emailsSent: z.number().int(),
  delivered: z.number().int(),
  bounced: z.number().int(),
  complaints: z.number().int(),
});
export type EmailMetric = z.infer<typeof EmailMetric>;
export const EmailMetricList = z.array(EmailMetric);

/** GET /api/email-metrics: one day, or a range of days (UTC, both inclusive); without either, the latest rows. */
export const EmailMetricsQuery = z
  .object({ date: DateFilter('date').optional(), from: DateFilter('from').optional(), to: DateFilter('to').optional() })
  .refine((q) => !(q.date && (q.from || q.to)), 'Give either date or from/to, not both')
  .refine((q) => !q.from || !q.to || q.from <= q.to, 'from must not be after to');
