import { z } from 'zod';

/** Every code an error body can carry: the server throws only these, the browser tells them apart by them. */
export const ErrorCode = z.enum([
  'validation_error',
  'invalid_token',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  /** An Idempotency-Key sent again with a different request (422). */
  'idempotency_key_reused',
  'internal',
  'unavailable',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** The one error body every failing API call answers with. */
export const ErrorBody = z.object({
  code: ErrorCode,
  message: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** A plain acknowledgement: the server did it and says so in words a user can read. */
export const MessageBody = z.object({ message: z.string() });
export type MessageBody = z.infer<typeof MessageBody>;
