import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, ERROR_STATUS, type ErrorCode } from '../errors';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Fastify's own 4xx errors, said in words a user can act on. */
const FASTIFY_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'Request body must be JSON (Content-Type: application/json)',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'validation_error', message: 'Request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'validation_error',
    message: 'Request body is empty; send a JSON object',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'validation_error',
    message: 'Content-Length does not match the body',
  },
};

const PART_NAMES: Record<string, string> = { body: 'Request body', querystring: 'Query string', params: 'URL' };

// zod's own messages ("Too big: expected string to have <=255 characters") do not say which field they
// are about; the contracts' messages do. These get the field's path in front.
const ZOD_DEFAULT_MESSAGE =
  /^(Invalid (input|option|string|number|key|value in|discriminator)|Too (big|small):|Unrecognized key)/;

/** 1 MB, 3 MB, 512 KB. */
function sizeInWords(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? `${mb} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** Every error body carries a code of contracts/errors.ts: another 4xx Fastify raises gets the code of its status. */
function codeOfStatus(status: number): ErrorCode {
  const code = (Object.keys(ERROR_STATUS) as ErrorCode[]).find((c) => ERROR_STATUS[c] === status);
  return code ?? 'validation_error';
}

/**
 * Errors Fastify raises before routing (a URL with broken percent-encoding), which never reach the
 * error handler: the same `{ code, message }` body (Fastify's `frameworkErrors` option).
 */
export function answerFrameworkError(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (err.code === 'FST_ERR_BAD_URL') {
    void reply
      .code(400)
      .send({ code: 'validation_error', message: 'The URL is not valid: it has broken percent-encoding' });
    return;
  }
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  void reply.code(status).send({ code: codeOfStatus(status), message: 'The request could not be read' });
}

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
      // A field the schema does not know (a strict body) is reported at the root, where the body itself is fine.
      if (!field)
        message =
          issue.keyword === 'unrecognized_keys' ? `${part}: ${message}` : `${part} is missing or not a JSON object`;
      else if (ZOD_DEFAULT_MESSAGE.test(message)) message = `${field}: ${message}`;
      return reply.code(400).send({ code: 'validation_error', message });
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // The route's own limit when it has one (POST /api/simulate-email takes 3 MB).
      const limit = request.routeOptions.bodyLimit ?? BODY_LIMIT_BYTES;
      return reply
        .code(413)
        .send({ code: 'payload_too_large', message: `Request body is too large (limit ${sizeInWords(limit)})` });
    }
    const known = err.code ? FASTIFY_ERRORS[err.code] : undefined;
    if (known) return reply.code(known.status).send({ code: known.code, message: known.message });
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.code(err.statusCode).send({ code: codeOfStatus(err.statusCode), message: err.message });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ code: 'internal', message: 'Something went wrong on our side. Please try again.' });
  });
}
