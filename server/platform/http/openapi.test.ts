// GET /api/openapi.json: a valid OpenAPI 3.1 document, generated from the route schemas, that covers
// every route the app registers. The routes are heard as Fastify adds them (an onRoute hook put on
// the app the moment it is made), so a route added later without the document knowing fails here.
import { Validator } from '@seriousme/openapi-schema-validator';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../../test/test-app';

const heard = vi.hoisted(() => [] as Pick<RouteOptions, 'method' | 'url'>[]);
vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof import('fastify')>();
  const create = ((options?: Parameters<typeof actual.default>[0]) => {
    const app = actual.default(options);
    app.addHook('onRoute', (route) => void heard.push({ method: route.method, url: route.url }));
    return app;
  }) as typeof actual.default;
  return { ...actual, default: create };
});

/**
 * What the document leaves out, on purpose; every other route is in it, wherever its path starts (the
 * Postfix API is under /v1/). The built web app's files are not routes here (no webRoot), and the
 * pages and JSON 404s are the not-found handler, not routes.
 * - HEAD: Fastify answers HEAD for every GET by itself (exposeHeadRoutes); the GET documents it.
 * - Google's OAuth callback: only Google's redirect of the user's browser calls it, with a one-time code.
 */
const HIDDEN = ['GET /oauth/google/callback'];
const LEFT_OUT = (method: string, url: string) => method === 'HEAD' || HIDDEN.includes(`${method} ${url}`);

interface Operation {
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Record<string, unknown> }> }>;
}
interface Document {
  openapi: string;
  servers: { url: string }[];
  tags: { name: string }[];
  components: { securitySchemes: Record<string, Record<string, string>>; schemas: Record<string, unknown> };
  paths: Record<string, Record<string, Operation>>;
}

let t: TestApp;
let document: Document;
beforeAll(async () => {
  t = await createTestApp({ env: { APP_URL: 'https://pulse.example.com' } });
  const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  document = res.json();
});
afterAll(() => t?.close());

const operations = () =>
  Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );

describe('the OpenAPI document', () => {
  it('validates as OpenAPI 3.1, and every $ref in it resolves', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(
      structuredClone(document) as unknown as Parameters<Validator['validate']>[0],
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);

    const refs = new Set<string>();
    JSON.stringify(document, (key, value: unknown) => {
      if (key === '$ref' && typeof value === 'string') refs.add(value);
      return value;
    });
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(document.components.schemas, ref).toHaveProperty([ref.split('/').pop()!]);
    }
  });

  it('has every route the app registers, with its method, and nothing else', () => {
    // Each route left out on purpose is still a route: the list says why, and stays that short.
    for (const hidden of HIDDEN) expect(heard.map(({ method, url }) => `${method} ${url}`)).toContain(hidden);
    const registered = new Set(
      heard
        .flatMap(({ method, url }) => (Array.isArray(method) ? method : [method]).map((m) => ({ method: m, url })))
        .filter(({ method, url }) => !LEFT_OUT(method, url))
        .map(({ method, url }) => `${method} ${url.replace(/:(\w+)/g, '{$1}')}`),
    );
    expect(registered.size).toBeGreaterThan(50);
    const documented = new Set(operations().map(({ method, path }) => `${method} ${path}`));
    expect([...documented].sort()).toEqual([...registered].sort());
  });

  it('gives every operation its tag, a unique operationId, who may call it, its parameters and its answers', () => {
    const tagNames = document.tags.map((tag) => tag.name);
    const ids = operations().map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(document.paths['/api/inbox-tests/{id}'].get.operationId).toBe('getInboxTestsById');
    expect(document.paths['/api/openapi.json'].get.operationId).toBe('getOpenapiJson');
    for (const { path, method, op } of operations()) {
      const where = `${method} ${path}`;
      expect(op.tags, where).toHaveLength(1);
      expect(tagNames, where).toContain(op.tags![0]);
      expect(op.security, where).toBeDefined();
      for (const name of path.match(/\{(\w+)\}/g) ?? []) {
        expect(
          op.parameters?.find((p) => p.in === 'path' && `{${p.name}}` === name),
          `${where} ${name}`,
        ).toMatchObject({ required: true });
      }
      expect(
        Object.keys(op.responses).some((code) => /^2\d\d$/.test(code)),
        where,
      ).toBe(true);
      expect(op.responses.default.content?.['application/json'].schema, where).toMatchObject({
        required: ['code', 'message'],
      });
    }
  });

  it('has the Postfix API the MTA pages document, for scripts with an API key only', () => {
    for (const [method, path] of [
      ['post', '/v1/postfix/logs'],
      ['post', '/v1/postfix/queue'],
      ['get', '/v1/postfix/analytics'],
      ['get', '/v1/postfix/config'],
    ] as const) {
      const op = document.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.tags).toEqual(['Delivery events']);
      expect(op.security, path).toEqual([{ bearerKey: [] }]);
      expect(Object.keys(op.responses)).toContain('200');
    }
    expect(document.paths['/v1/postfix/queue'].post.operationId).toBe('postV1PostfixQueue');
  });

  it('describes the two ways in and the server from APP_URL', () => {
    expect(document.servers).toEqual([{ url: 'https://pulse.example.com' }]);
    expect(document.components.securitySchemes.bearerKey).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'ipk_...',
    });
    expect(document.components.securitySchemes.sessionCookie).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'inboxpulse_session',
    });
    const op = (method: string, path: string) => document.paths[path][method];
    expect(op('get', '/api/domains').security).toEqual([{ sessionCookie: [] }, { bearerKey: [] }]);
    expect(op('delete', '/api/account').security).toEqual([{ sessionCookie: [] }]);
    expect(op('get', '/api/subscription').security).toEqual([{ sessionCookie: [] }]);
    expect(op('post', '/api/integrations/google-postmaster/connect').security).toEqual([{ sessionCookie: [] }]);
    expect(op('post', '/api/login').security).toEqual([]);
    expect(op('get', '/api/domains').tags).toEqual(['Domains']);
    expect(op('post', '/api/dmarc/upload').tags).toEqual(['DMARC']);
  });

  it('carries the route schemas: params, query, body and response', () => {
    const create = document.paths['/api/domains'].post;
    const body = create.requestBody!.content['application/json'].schema as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
    };
    expect(body.properties.domain).toMatchObject({ type: 'string' });
    expect(body.properties.type).toMatchObject({ enum: ['sending', 'mta'], default: 'sending' });
    expect(body.properties.verifyDns).toMatchObject({ type: 'boolean', default: false });
    expect(body.required).toEqual(['domain']);

    const one = document.paths['/api/inbox-tests/{id}'].get;
    expect(one.parameters).toEqual([expect.objectContaining({ in: 'path', name: 'id', required: true })]);
    expect(one.responses['200'].content!['application/json'].schema).toMatchObject({
      type: 'object',
      properties: { testEmailAddress: { type: 'string' } },
    });

    const reports = document.paths['/api/dmarc/reports'].get;
    expect(reports.parameters?.filter((p) => p.in === 'query').length).toBeGreaterThan(0);
  });
});

describe('GET /api/openapi.json', () => {
  it('is public and cached: the same ETag, and 304 when the client has it', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    expect(first.headers['cache-control']).toBe('public, max-age=3600');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // Signed in or not, the same document.
    const { client } = await signUp(t.app);
    const signedIn = await client.get('/api/openapi.json');
    expect(signedIn.headers.etag).toBe(etag);
  });
});
