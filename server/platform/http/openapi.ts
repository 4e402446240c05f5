import swagger from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ErrorBody } from '@contracts/errors';
import type { Env } from '../env';

/** Where the document is served: public, so API clients and the reference page read it without signing in. */
export const OPENAPI_PATH = '/api/openapi.json';
export const API_VERSION = '1.0.0';

/**
 * Tags by the first path segment after /api/, so the reference groups operations by feature. A segment
 * not listed gets its own name as its tag: a new feature's routes are never left out, only less neatly named.
 */
const TAG_OF_SEGMENT: Record<string, string> = {
  register: 'Account',
  login: 'Account',
  logout: 'Account',
  'forgot-password': 'Account',
  'validate-reset-token': 'Account',
  'reset-password': 'Account',
  'verify-email': 'Account',
  'resend-verification-public': 'Account',
  user: 'Account',
  account: 'Account',
  'api-keys': 'API keys and tokens',
  'webhook-tokens': 'API keys and tokens',
  domains: 'Domains',
  'inbox-tests': 'Inbox tests',
  'seed-network': 'Inbox tests',
  'simulate-email': 'Inbox tests',
  'ip-addresses': 'Reputation',
  'ip-monitoring': 'Reputation',
  blocklists: 'Reputation',
  reputation: 'Reputation',
  dmarc: 'DMARC',
  postmaster: 'Integrations',
  alerts: 'Alerts',
  'alert-settings': 'Alerts',
  webhooks: 'Webhooks',
  integrations: 'Integrations',
  'email-metrics': 'Integrations',
  smtp2go: 'Integrations',
  dashboard: 'Dashboard',
  chatbot: 'Assistant',
  'openapi.json': 'Reference',
  'delivery-events': 'Delivery events',
  events: 'Delivery events',
  postfix: 'Delivery events',
  v1: 'Delivery events',
  subscription: 'Billing',
  'upgrade-subscription': 'Billing',
  'change-subscription': 'Billing',
  'downgrade-subscription': 'Billing',
  'cancel-subscription': 'Billing',
  'reactivate-subscription': 'Billing',
  'apply-coupon': 'Billing',
  invoices: 'Billing',
  usage: 'Billing',
  stripe: 'Billing',
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An MTA webhook endpoint: the caller is the owner of a webhook token, not a session or an API key. */
    webhookToken?: boolean;
    /** A route for scripts that takes an API key and refuses the session cookie (the Postfix API under /v1/). */
    apiKeyOnly?: boolean;
  }
}

/** A route's path without the /api prefix most routes share: /api/domains is domains, /v1/postfix/queue is v1/postfix/queue. */
const segmentsOf = (url: string) =>
  url
    .replace(/^\/api(?=\/)/, '')
    .split('/')
    .slice(1);

export function tagOf(url: string): string {
  const segment = segmentsOf(url)[0] || 'api';
  return TAG_OF_SEGMENT[segment] ?? segment;
}

const pascal = (words: string) =>
  words.replace(/(^|[-_.])([a-z0-9])/g, (_, _sep: string, c: string) => c.toUpperCase());

/** A stable name for clients generated from the document: GET /api/inbox-tests/:id is getInboxTestsById. */
export function operationIdOf(method: string, url: string): string {
  const words = segmentsOf(url).map((segment) =>
    segment.startsWith(':') ? `By${pascal(segment.slice(1))}` : pascal(segment),
  );
  return method.toLowerCase() + words.join('');
}

const hasHooks = (hooks: RouteOptions['onRequest']) => (Array.isArray(hooks) ? hooks.length > 0 : Boolean(hooks));

/**
 * Who may call a route. Signed-in routes are the ones guarded by an onRequest hook (requireUser, the
 * one way every route signs its caller in); the others are public (sign-up, sign-in, the session probe,
 * this document).
 */
function securityOf(route: RouteOptions): Record<string, string[]>[] {
  if (!hasHooks(route.onRequest)) return [];
  if (route.config?.webhookToken) return [{ webhookToken: [] }, { webhookTokenHeader: [] }, { webhookTokenQuery: [] }];
  // Set on every route that refuses API keys, before this hears the route (refuseKeysOnSessionOnlyRoutes).
  if (route.config?.sessionOnly) return [{ sessionCookie: [] }];
  if (route.config?.apiKeyOnly) return [{ bearerKey: [] }];
  return [{ sessionCookie: [] }, { bearerKey: [] }];
}

const errorSchema = z.toJSONSchema(ErrorBody, { target: 'draft-2020-12', io: 'output' });

/**
 * Every route's schemas as OpenAPI 3.1, from the zod schemas the route validates with (the type
 * provider's own transform), with its tag, who may call it and the one error body. Every route is in
 * the document whatever its path, so a new one cannot be missed; the only routes left out are the built
 * web app's files, which @fastify/static marks hidden (they are the web app, not the API). The web
 * app's pages and the JSON 404s come from the not-found handler, which is no route.
 */
function transform(input: Parameters<typeof jsonSchemaTransform>[0]): ReturnType<typeof jsonSchemaTransform> {
  const { url, route } = input as typeof input & { route: RouteOptions };
  const { schema, url: path } = jsonSchemaTransform(input);
  if ((schema as { hide?: boolean }).hide) return { schema, url: path };
  const response = (schema as { response?: Record<string, unknown> }).response ?? {};
  return {
    url: path,
    schema: {
      ...schema,
      // A route may name its tag (the MTA webhooks sit under /api/webhooks/ but are delivery events).
      tags: (schema as { tags?: string[] }).tags ?? [tagOf(url)],
      operationId: operationIdOf(String(route.method), url),
      security: securityOf(route),
      response: {
        ...response,
        default: {
          description: 'An error: `code` tells errors apart, `message` says what happened in words.',
          ...errorSchema,
        },
      },
    },
  };
}

/**
 * The named schemas (z.globalRegistry ids) as components. The type provider leaves each one's JSON
 * Schema `$id` (a bare fragment) and `$schema` in place: a component needs neither, since OpenAPI 3.1
 * sets the dialect for the whole document.
 */
function transformObject(
  input: Parameters<typeof jsonSchemaTransformObject>[0],
): ReturnType<typeof jsonSchemaTransformObject> {
  const document = jsonSchemaTransformObject(input) as {
    components?: { schemas?: Record<string, Record<string, unknown>> };
  };
  for (const component of Object.values(document.components?.schemas ?? {})) {
    delete component.$id;
    delete component.$schema;
  }
  return document as ReturnType<typeof jsonSchemaTransformObject>;
}

/** Registers the document's collector; call before any route, since it hears routes as they are added. */
export async function registerOpenApi(app: FastifyInstance, env: Env): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'InboxPulse API',
        version: API_VERSION,
        description:
          'E-mail deliverability monitoring: domains and their DNS authentication, inbox placement tests, DMARC reports, IP and domain reputation, alerts and webhooks. ' +
          'Calls from scripts send `Authorization: Bearer ipk_...` with an API key generated in Settings; the web app uses its session cookie.',
      },
      servers: [{ url: env.APP_URL }],
      components: {
        securitySchemes: {
          bearerKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'ipk_...',
            description: 'An API key from Settings, API Keys: `Authorization: Bearer ipk_...`.',
          },
          sessionCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'inboxpulse_session',
            description: 'The web app’s session, set by POST /api/login.',
          },
          webhookToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'iwt_...',
            description:
              'The webhook token from Settings, Webhook Token, for MTAs posting delivery events: `Authorization: Bearer iwt_...`.',
          },
          webhookTokenHeader: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Webhook-Token',
            description: 'The webhook token, for an MTA that can add a header but not Authorization.',
          },
          webhookTokenQuery: {
            type: 'apiKey',
            in: 'query',
            name: 'token',
            description:
              'The webhook token in the URL, for an MTA that can set only a URL (Postal, SMTP2GO, GreenArrow).',
          },
        },
      },
      tags: [...new Set(Object.values(TAG_OF_SEGMENT))].map((name) => ({ name })),
    },
    transform,
    transformObject,
  });

  // Built once, on the first request after every route is registered; the routes do not change while the process runs.
  let document: { body: string; etag: string } | undefined;
  app.get(
    OPENAPI_PATH,
    {
      schema: {
        summary: 'This document: every API operation as OpenAPI 3.1',
        response: { 200: z.object({ openapi: z.string() }).loose(), 304: z.undefined() },
      },
    },
    async (request, reply) => {
      if (!document) {
        const body = JSON.stringify(app.swagger());
        document = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
      }
      reply.header('cache-control', 'public, max-age=3600').header('etag', document.etag);
      if (request.headers['if-none-match'] === document.etag) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(document.body);
    },
  );
}
