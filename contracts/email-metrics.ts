import { z } from 'zod';

/** One provider's sending figures for one day (UTC), as synced from an ESP or MTA. */
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
