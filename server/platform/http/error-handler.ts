import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../errors';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Fastify's own 4xx errors, said in words a user can act on. */
const FASTIFY_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large', message: 'Request body is too large (limit 1 MB)' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'unsupported_media_type', message: 'Request body must be JSON (Content-Type: application/json)' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'validation_error', message: 'Request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'validation_error', message: 'Request body is empty; send a JSON object' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'validation_error', message: 'Content-Length does not match the body' },
};

const PART_NAMES: Record<string, string> = { body: 'Request body', querystring: 'Query string', params: 'URL' };

/** One JSON error body `{ code, message }` for every failure; 5xx never shows internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      return reply.code(err.status).headers(err.headers).send({ code: err.code, message: err.message });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issue = err.validation[0];
      const part = PART_NAMES[err.validationContext ?? 'body'] ?? 'Request';
      const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      let message = issue.message ?? 'Invalid input';
      if (!field) message = `${part} is missing or not a JSON object`;
      else if (message.startsWith('Invalid input')) message = `${field}: ${message}`;
      return reply.code(400).send({ code: 'validation_error', message });
    }
    const known = err.code ? FASTIFY_ERRORS[err.code] : undefined;
    if (known) return reply.code(known.status).send({ code: known.code, message: known.message });
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.code(err.statusCode).send({ code: 'bad_request', message: err.message });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ code: 'internal', message: 'Something went wrong on our side. Please try again.' });
  });
}
