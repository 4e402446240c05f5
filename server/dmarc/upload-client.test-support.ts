import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { TestClient } from '../test/test-app';

/** Test helper: POST /api/dmarc/upload with a raw body, as a browser's fetch(file) sends it. */
export function uploadReport(
  app: FastifyInstance,
  client: TestClient | undefined,
  body: Uint8Array | string,
  options: { contentType?: string; fileName?: string } = {},
): Promise<LightMyRequestResponse> {
  const query = options.fileName ? `?filename=${encodeURIComponent(options.fileName)}` : '';
  return app.inject({
    method: 'POST',
    url: `/api/dmarc/upload${query}`,
    remoteAddress: client?.ip ?? '127.0.0.1',
    headers: {
      'content-type': options.contentType ?? 'application/xml',
      ...(client?.cookie ? { cookie: client.cookie } : {}),
    },
    // light-my-request sends a plain Uint8Array as JSON: only a Buffer goes as raw bytes.
    payload: typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength),
  });
}
