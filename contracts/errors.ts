import { z } from 'zod';

/** The one error body every failing API call answers with. */
export const ErrorBody = z.object({
  code: z.string(),
  message: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** A plain acknowledgement: the server did it and says so in words a user can read. */
export const MessageBody = z.object({ message: z.string() });
export type MessageBody = z.infer<typeof MessageBody>;
