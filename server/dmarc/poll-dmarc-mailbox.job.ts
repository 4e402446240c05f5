import { z } from 'zod';
import { jobType } from '../platform/job-sender';

/** Takes the unread messages of the DMARC_IMAP_URL mailbox in. Only its schedule sends it. */
export const pollDmarcMailboxJob = jobType('poll-dmarc-mailbox', z.object({}).passthrough());
