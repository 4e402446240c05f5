import { z } from 'zod';

/** Domain health (part 2, section 3). `pending` until the first DNS check has run. */
export const DOMAIN_STATUSES = ['healthy', 'warning', 'error', 'pending'] as const;
export const DomainStatus = z.enum(DOMAIN_STATUSES);

/** A record check's outcome; null until checked. */
export const RecordStatus = z.enum(['valid', 'invalid', 'missing']).nullable();

export const Domain = z.object({
  id: z.number().int(),
  domain: z.string(),
  status: DomainStatus,
  isVerified: z.boolean(),
  spfRecord: z.string().nullable(),
  dkimRecord: z.string().nullable(),
  dmarcRecord: z.string().nullable(),
  spfStatus: RecordStatus,
  dkimStatus: RecordStatus,
  dmarcStatus: RecordStatus,
  reputationScore: z.number().nullable(),
  lastCheckedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Domain = z.infer<typeof Domain>;
export const DomainList = z.array(Domain);
