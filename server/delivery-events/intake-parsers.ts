import type { FastifyInstance } from 'fastify';
import { AppError } from '../platform/errors';

const UNSUPPORTED =
  'Send text/plain (Postfix lines), text/csv (PowerMTA accounting), application/json or application/x-ndjson (records), or form fields';

/**
 * The bodies delivery-event intake takes besides JSON and text/plain. Each intake plugin calls this
 * on its own instance (Fastify encapsulation), so the rest of the API parses bodies as before.
 */
export function registerIntakeParsers(app: FastifyInstance): void {
  app.addContentTypeParser(
    [
      'text/csv',
      'application/csv',
      'application/x-ndjson',
      'application/ndjson',
      'application/jsonl',
      'application/x-jsonlines',
    ],
    { parseAs: 'string' },
    (_request, body, done) => done(null, body),
  );
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.addContentTypeParser('*', (_request, _payload, done) =>
    done(new AppError('unsupported_media_type', UNSUPPORTED), undefined),
  );
}
