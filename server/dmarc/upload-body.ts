import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { AppError } from '../platform/errors';

/** An upload is read whole before unpacking; compressed reports are small, so 10 MB is plenty. */
export const UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;

// The format is told from the bytes afterwards; these are the types browsers and scripts send
// for .xml, .gz, .zip and .eml files.
const UPLOAD_TYPES = new Set([
  'application/xml',
  'text/xml',
  'application/gzip',
  'application/x-gzip',
  'application/zip',
  'application/x-zip-compressed',
  'message/rfc822',
  'application/octet-stream',
]);

export const UNSUPPORTED_UPLOAD =
  'Send the report file itself as the request body with Content-Type application/xml, application/gzip, application/zip, message/rfc822 or application/octet-stream.';
const TOO_LARGE = `The file is too large: uploads are limited to ${UPLOAD_LIMIT_BYTES / 1024 / 1024} MB.`;

/**
 * Makes the routes of this plugin take the raw request body as a Buffer. Scoped to the plugin
 * (Fastify encapsulation), so the rest of the API still speaks JSON only, with its 1 MB limit.
 */
export function acceptRawUploads(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (request: FastifyRequest, payload: Readable) => readUpload(request, payload));
}

async function readUpload(request: FastifyRequest, payload: Readable): Promise<Buffer> {
  const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type && !UPLOAD_TYPES.has(type)) throw new AppError('unsupported_media_type', UNSUPPORTED_UPLOAD);
  if (Number(request.headers['content-length']) > UPLOAD_LIMIT_BYTES) throw new AppError('payload_too_large', TOO_LARGE);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload) {
    size += (chunk as Buffer).length;
    // Chunked uploads declare no length: counted as they arrive.
    if (size > UPLOAD_LIMIT_BYTES) throw new AppError('payload_too_large', TOO_LARGE);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
