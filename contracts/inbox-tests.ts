import { z } from 'zod';

export const INBOX_TEST_STATUSES = ['awaiting_email', 'running', 'completed', 'failed'] as const;
export const InboxTestStatus = z.enum(INBOX_TEST_STATUSES);

/** An inbox placement test with its totals over every seed (dashboard and list use). */
export const InboxTest = z.object({
  id: z.number().int(),
  status: InboxTestStatus,
  testType: z.string(),
  testEmailAddress: z.string(),
  subject: z.string().nullable(),
  /** The sending provider detected on the received message, when known. */
  provider: z.string().nullable(),
  totalSeeds: z.number().int(),
  inboxCount: z.number().int(),
  spamCount: z.number().int(),
  missingCount: z.number().int(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type InboxTest = z.infer<typeof InboxTest>;
export const InboxTestList = z.array(InboxTest);

export const InboxTestIdParams = z.object({
  id: z.coerce.number({ error: 'Test id must be a number' }).int('Test id must be a whole number').positive('Test id must be positive'),
});
