import type { ErrorCode } from '@contracts/errors';

/** The HTTP status of each error code (contracts/errors.ts). */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  validation_error: 400,
  invalid_token: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  idempotency_key_reused: 422,
  internal: 500,
  unavailable: 503,
};

export type { ErrorCode };

/** Every failure a service reports to a caller. Routes never catch; the error handler maps these. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}
