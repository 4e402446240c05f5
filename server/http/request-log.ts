import type { FastifyInstance } from 'fastify';

/**
 * One log line a request, when it is answered: method, path, client, status and time, under the
 * request id the client also gets. Fastify's own logging writes two lines at info (received and
 * answered), which cost a fifth of a signed-in request's CPU; the "received" line is kept at debug,
 * for the rare hunt for a request that never finishes.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    request.log.debug({ req: { method: request.method, url: request.url, remoteAddress: request.ip } }, 'incoming request');
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      { req: { method: request.method, url: request.url, remoteAddress: request.ip }, res: { statusCode: reply.statusCode }, responseTime: Math.round(reply.elapsedTime * 10) / 10 },
      'request completed',
    );
  });
}
