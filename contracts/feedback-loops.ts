import { z } from 'zod';

/*
 * Complaint feedback loops (server/feedback-loops/, ADR 054): the address loops are given on the product's inbound
 * SMTP listener. Sub-addressing (fbl+yahoo@) reaches the same mailbox.
 */
export const FBL_LOCAL_PART = 'fbl';
export const feedbackLoopAddress = (inboundDomain: string) => `${FBL_LOCAL_PART}@${inboundDomain}`;

/** GET /api/feedback-loops: where the account's feedback loops send complaints, and what has arrived. */
export const FeedbackLoopStatus = z.object({
  address: z.string(),
  /** Complaints counted from feedback-loop reports in the last 30 days. */
  complaints30d: z.number().int(),
  /** When the latest counted complaint happened; null when none has. */
  lastComplaintAt: z.string().nullable(),
});
export type FeedbackLoopStatus = z.infer<typeof FeedbackLoopStatus>;
