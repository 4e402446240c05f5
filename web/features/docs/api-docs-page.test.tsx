import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_ENDPOINTS, curlExample } from '@content/docs/api-reference';
import { API_KEY_PREFIX } from '@contracts/api-keys';
import { jsonResponse, renderApp, signedOut, stubFetch } from '../../test/test-utils';
import { expectAnchors, headerLinks, openDocsPage } from './test/docs-test-utils';

/** A small OpenAPI 3.1 document in the shape the server's /api/openapi.json has. */
const OPENAPI_SAMPLE = {
  openapi: '3.1.0',
  info: { title: 'InboxPulse API', version: '1.0.0' },
  tags: [{ name: 'Account' }, { name: 'Domains' }, { name: 'Webhooks' }],
  paths: {
    '/api/domains/{id}': {
      get: {
        tags: ['Domains'],
        security: [{ sessionCookie: [] }, { bearerKey: [] }],
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': {
            description: 'Default Response',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['domain', 'status', 'lastCheckedAt'],
                  properties: {
                    domain: { type: 'string' },
                    status: { type: 'string', enum: ['healthy', 'warning', 'error', 'pending'] },
                    lastCheckedAt: { anyOf: [{ type: 'string' }, { type: 'null' }] },
                  },
                },
              },
            },
          },
        },
      },
    },
    '/api/webhooks': {
      post: {
        tags: ['Webhooks'],
        security: [{ sessionCookie: [] }, { bearerKey: [] }],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['url', 'events'],
                properties: { url: { type: 'string' }, events: { type: 'array', items: { type: 'string' } } },
              },
            },
          },
        },
        responses: { '200': { description: 'Default Response' } },
      },
    },
    '/api/openapi.json': {
      get: {
        tags: ['Webhooks'],
        summary: 'This document',
        security: [],
        responses: { '200': { description: 'Default Response' } },
      },
    },
  },
};

beforeAll(async () => {
  await Promise.all([import('./api-docs-page'), import('../../components/ui/toaster')]);
});

const open = (options?: { signedIn?: boolean }) => openDocsPage('/api-docs', 'api-docs-page', options);

describe('API documentation (/api-docs)', () => {
  it('has the spec’s sections, each at its anchor', async () => {
    await open();
    expect(screen.getByRole('heading', { level: 1, name: 'API Documentation' })).toBeInTheDocument();
    expectAnchors([
      'authentication',
      'domains',
      'email-metrics',
      'inbox-tests',
      'ip-monitoring',
      'dmarc',
      'alerts',
      'webhooks',
      'rate-limits',
      'sdks',
      'reference',
      'support',
    ]);
    for (const name of [
      'Authentication',
      'Domains',
      'Email metrics',
      'Inbox tests',
      'IP blacklist monitoring',
      'DMARC monitoring',
      'Alerts',
      'Webhooks',
      'Rate limits',
      'SDKs',
      'API reference',
      'Support',
    ])
      expect(screen.getByRole('heading', { level: 2, name })).toBeInTheDocument();
  });

  it('explains bearer keys from Settings, the Professional plan and idempotency keys', async () => {
    await open();
    const auth = document.getElementById('authentication')!;
    expect(auth).toHaveTextContent(`Keys start with ${API_KEY_PREFIX}`);
    expect(auth).toHaveTextContent(`Authorization: Bearer ${API_KEY_PREFIX}`);
    expect(auth).toHaveTextContent('API access needs the Professional plan');
    expect(auth).toHaveTextContent('Idempotency-Key');
    expect(within(auth).getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');
    for (const link of screen.getAllByRole('link', { name: '/api/openapi.json' }))
      expect(link).toHaveAttribute('href', '/api/openapi.json');
  });

  it('shows every documented endpoint with its method, path, request and answer', async () => {
    await open();
    const cards = screen.getAllByTestId('endpoint');
    expect(cards.map((card) => card.getAttribute('data-endpoint-id'))).toEqual(API_ENDPOINTS.map((e) => e.id));
    for (const endpoint of API_ENDPOINTS) {
      const card = cards.find((c) => c.getAttribute('data-endpoint-id') === endpoint.id)!;
      expect(within(card).getByRole('heading', { level: 3 })).toHaveTextContent(`${endpoint.method}${endpoint.path}`);
      const [request, answer] = within(card).getAllByTestId('code-block');
      expect(request!.querySelector('code')!.textContent).toBe(curlExample(endpoint, window.location.origin));
      expect(answer).toHaveTextContent(`HTTP/1.1 ${endpoint.status}`);
      if (endpoint.response !== undefined)
        expect(answer!.querySelector('code')!.textContent).toContain(JSON.stringify(endpoint.response, null, 2));
    }
    const create = cards.find((c) => c.getAttribute('data-endpoint-id') === 'create-domain')!;
    expect(create).toHaveTextContent('Idempotency-Key');
    expect(create).toHaveTextContent(`-d '{"domain":"example.com","type":"sending"}'`);
  });

  it('gives the rate limits by plan, their headers and the 429 answer', async () => {
    await open();
    expect(screen.getAllByTestId('rate-limit').map((cell) => cell.textContent)).toEqual(['1,000', '10,000', '100,000']);
    const section = document.getElementById('rate-limits')!;
    for (const text of [
      'Starter',
      'Professional',
      'Enterprise',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      '429',
      'Retry-After',
      'Requires Professional plan',
    ])
      expect(section).toHaveTextContent(text);
  });

  it('copies a request and says "Copied to clipboard"', async () => {
    const user = userEvent.setup();
    await open();
    const card = screen.getAllByTestId('endpoint').find((c) => c.getAttribute('data-endpoint-id') === 'list-domains')!;
    await user.click(within(card).getByRole('button', { name: 'Copy Request' }));
    expect(await screen.findByText('Copied to clipboard')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(
      curlExample(
        API_ENDPOINTS.find((e) => e.id === 'list-domains')!,
        window.location.origin,
      ),
    );
  });

  it('renders the interactive reference from the OpenAPI document: operations by tag, expandable to parameters and schemas', async () => {
    const user = userEvent.setup();
    stubFetch({ ...signedOut, 'GET /api/openapi.json': () => jsonResponse(OPENAPI_SAMPLE) });
    renderApp('/api-docs');
    const reference = await screen.findByTestId('openapi-reference');
    expect(
      within(reference)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Domains', 'Webhooks']);
    const operations = within(reference).getAllByTestId('reference-operation');
    expect(operations.map((o) => o.getAttribute('data-operation'))).toEqual([
      'GET /api/domains/{id}',
      'POST /api/webhooks',
      'GET /api/openapi.json',
    ]);
    const getDomain = operations[0]!;
    expect(getDomain).not.toHaveAttribute('open');
    await user.click(within(getDomain).getByText('/api/domains/{id}'));
    expect(getDomain).toHaveAttribute('open');
    expect(getDomain).toHaveTextContent('API key or session');
    expect(getDomain).toHaveTextContent('id* (path): integer');
    expect(getDomain).toHaveTextContent('domain*: string');
    expect(getDomain).toHaveTextContent('status*: "healthy" | "warning" | "error" | "pending"');
    expect(getDomain).toHaveTextContent('lastCheckedAt*: nullable string');
    await user.click(within(operations[1]!).getByText('/api/webhooks'));
    expect(operations[1]).toHaveTextContent('events*: array of string');
    expect(operations[2]).toHaveTextContent('Public');

    await user.type(within(reference).getByRole('searchbox', { name: 'Filter operations' }), 'webhooks');
    expect(
      within(reference)
        .getAllByTestId('reference-operation')
        .map((o) => o.getAttribute('data-operation')),
    ).toEqual(['POST /api/webhooks']);
  });

  it('says who may call each operation: API key only for the Postfix API, the webhook token for MTA webhooks', async () => {
    const operation = (security: Record<string, string[]>[]) => ({
      post: { tags: ['Delivery events'], security, responses: { '200': { description: 'OK' } } },
    });
    stubFetch({
      ...signedOut,
      'GET /api/openapi.json': () =>
        jsonResponse({
          openapi: '3.1.0',
          tags: [{ name: 'Delivery events' }],
          paths: {
            '/v1/postfix/queue': operation([{ bearerKey: [] }]),
            '/api/webhooks/postfix': operation([
              { webhookToken: [] },
              { webhookTokenHeader: [] },
              { webhookTokenQuery: [] },
            ]),
            '/api/events': operation([{ sessionCookie: [] }, { bearerKey: [] }]),
            '/api/subscription': operation([{ sessionCookie: [] }]),
          },
        }),
    });
    renderApp('/api-docs');
    const reference = await screen.findByTestId('openapi-reference');
    const accessOf = (path: string) =>
      within(reference).getByText(path).closest('summary')!.lastElementChild!.textContent;
    expect(accessOf('/v1/postfix/queue')).toBe('API key only');
    expect(accessOf('/api/webhooks/postfix')).toBe('Webhook token');
    expect(accessOf('/api/events')).toBe('API key or session');
    expect(accessOf('/api/subscription')).toBe('Session only');
  });

  it('says where the OpenAPI document is when the reference cannot be loaded', async () => {
    await open();
    expect(await screen.findByTestId('reference-unavailable')).toHaveTextContent('/api/openapi.json');
  });

  it('shares the documentation header: Home, Register and Login signed out; Dashboard signed in', async () => {
    await open();
    expect(screen.getByRole('link', { name: 'InboxPulse' })).toHaveAttribute('href', '/');
    expect(headerLinks()).toMatchObject({ Home: '/', Login: '/login', Register: '/register' });
    expect(headerLinks()).not.toHaveProperty('Dashboard');
  });

  it('shows Dashboard and neither Login nor Register to a signed-in user', async () => {
    await open({ signedIn: true });
    await waitFor(() => expect(headerLinks()).toHaveProperty('Dashboard', '/dashboard'));
    expect(headerLinks()).not.toHaveProperty('Login');
    expect(headerLinks()).not.toHaveProperty('Register');
  });
});
