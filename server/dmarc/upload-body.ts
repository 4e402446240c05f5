import { Busboy } from '@fastify/busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { UploadQuery } from '@contracts/dmarc';
import { AppError } from '../platform/errors';
import { UPLOAD_LIMIT_BYTES, type UploadedFile } from './unpack';

/** A form carries at most this many files, and as many other fields: a day's reports, not an archive (a zip holds more). */
export const MAX_FORM_FILES = 20;

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
  'Send the report file itself as the request body with Content-Type application/xml, application/gzip, application/zip, message/rfc822 or application/octet-stream, or send report files as the files of a multipart/form-data form.';
const TOO_LARGE = `The file is too large: uploads are limited to ${UPLOAD_LIMIT_BYTES / 1024 / 1024} MB.`;
const TOO_MANY_PARTS = `The form has too many parts: send at most ${MAX_FORM_FILES} files (and at most ${MAX_FORM_FILES} other fields) in one form.`;
const NO_FILE = 'The form has no file: send each report as a file part, as curl -F file=@report.xml.gz does.';
const FORM_FILE_NAME = UploadQuery.shape.filename.unwrap();

/** A multipart/form-data upload, as the content-type parser hands it to the route: its files in form order. */
export class UploadForm {
  constructor(readonly files: UploadedFile[]) {}
}

/**
 * Makes the routes of this plugin take the raw request body as a Buffer, or a form as an UploadForm.
 * Scoped to the plugin (Fastify encapsulation), so the rest of the API still speaks JSON only, with
 * its 1 MB limit.
 */
export function acceptRawUploads(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (request: FastifyRequest, payload: Readable) => readUpload(request, payload));
}

/** The files an upload route received: a raw body is one file, named by the query; a form names its own. */
export function uploadedFiles(body: unknown, fileName: string): { files: UploadedFile[]; form: boolean } {
  if (body instanceof UploadForm) return { files: body.files, form: true };
  if (Buffer.isBuffer(body)) return { files: [{ fileName, data: body }], form: false };
  throw new AppError('validation_error', UNSUPPORTED_UPLOAD);
}

async function readUpload(request: FastifyRequest, payload: Readable): Promise<Buffer | UploadForm> {
  const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const form = type === 'multipart/form-data';
  if (type && !form && !UPLOAD_TYPES.has(type)) throw new AppError('unsupported_media_type', UNSUPPORTED_UPLOAD);
  if (Number(request.headers['content-length']) > UPLOAD_LIMIT_BYTES)
    throw new AppError('payload_too_large', TOO_LARGE);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload) {
    size += (chunk as Buffer).length;
    // Chunked uploads declare no length: counted as they arrive.
    if (size > UPLOAD_LIMIT_BYTES) throw new AppError('payload_too_large', TOO_LARGE);
    chunks.push(chunk as Buffer);
  }
  const body = Buffer.concat(chunks);
  return form ? readForm(request.headers, body) : body;
}

/**
 * The file parts of a form. The body is already read whole, under the same 10 MB cap as a raw
 * upload, so busboy only splits it: no per-file size limit or stream back-pressure to manage, and
 * no multipart support anywhere else in the API. Fields that are not files are ignored.
 */
function readForm(headers: IncomingHttpHeaders, body: Buffer): Promise<UploadForm> {
  return new Promise((resolve, reject) => {
    const badForm = (error: unknown) =>
      reject(
        new AppError('validation_error', `The form (multipart/form-data) cannot be read: ${(error as Error).message}.`),
      );
    const tooMany = () => reject(new AppError('payload_too_large', TOO_MANY_PARTS));
    const parts: { fileName: string; chunks: Buffer[] }[] = [];
    let busboy;
    try {
      busboy = Busboy({
        headers: { ...headers, 'content-type': headers['content-type'] ?? '' },
        limits: { files: MAX_FORM_FILES, fields: MAX_FORM_FILES },
      });
    } catch (error) {
      return badForm(error);
    }
    busboy.on('file', (_field, stream, fileName) => {
      const part = { fileName, chunks: [] as Buffer[] };
      parts.push(part);
      stream.on('data', (chunk: Buffer) => part.chunks.push(chunk));
      // A part cut short errs on its own stream too: unhandled, that would end the process.
      stream.on('error', badForm);
    });
    busboy.on('filesLimit', tooMany);
    busboy.on('fieldsLimit', tooMany);
    busboy.on('error', badForm);
    // Emitted once every file part has been read to its end.
    busboy.on('finish', () => {
      // A file input left empty is sent as a part with no name and no bytes: no file.
      const files = parts
        .filter((p) => p.fileName || p.chunks.length > 0)
        .map((p) => ({ fileName: p.fileName || 'upload', data: Buffer.concat(p.chunks) }));
      if (files.length === 0) return reject(new AppError('validation_error', NO_FILE));
      for (const file of files) {
        const name = FORM_FILE_NAME.safeParse(file.fileName);
        if (!name.success) return reject(new AppError('validation_error', name.error.issues[0].message));
        file.fileName = name.data;
      }
      resolve(new UploadForm(files));
    });
    busboy.end(body);
  });
}
