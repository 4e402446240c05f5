import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Serves the built front end: hashed assets cached for a year, index.html for every other
 * non-API GET so the client router can draw the page. Unknown /api/* paths answer 404 JSON.
 */
export async function registerSpa(app: FastifyInstance, webRoot: string | undefined): Promise<void> {
  const indexFile = webRoot ? path.join(webRoot, 'index.html') : undefined;
  const built = indexFile !== undefined && existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: path.resolve(webRoot!),
      wildcard: false,
      index: false,
      cacheControl: false, // ours below: long for hashed assets, none for the rest
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0];
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(pathname);
    if (wantsPage && built) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    if (wantsPage) {
      return reply
        .code(404)
        .send({ code: 'not_found', message: 'The front end is not built. Run `npm run build` or `npm start`.' });
    }
    return reply.code(404).send({ code: 'not_found', message: `No API route ${request.method} ${pathname}` });
  });
}

/**
 * Paths a program asks for, never a page: the API, the MTA pages' /v1/postfix/... calls and /oauth/...
 * (only the Google callback is a route). A client that calls one the app does not serve gets a JSON
 * 404 it can read, not the SPA's HTML.
 */
const API_PREFIXES = ['/api', '/v1', '/oauth'];

function isApiPath(pathname: string): boolean {
  return API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}
