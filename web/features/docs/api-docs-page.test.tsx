import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_ENDPOINTS, curlExample } from '@content/docs/api-reference';
import { API_KEY_PREFIX } from '@contracts/api-keys';
import { expectAnchors, headerLinks, openDocsPage } from './test/docs-test-utils';

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
    expect(screen.getByRole('link', { name: '/api/openapi.json' })).toHaveAttribute('href', '/api/openapi.json');
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
      if (endpoint.response !== undefined) expect(answer!.querySelector('code')!.textContent).toContain(JSON.stringify(endpoint.response, null, 2));
    }
    const create = cards.find((c) => c.getAttribute('data-endpoint-id') === 'create-domain')!;
    expect(create).toHaveTextContent('Idempotency-Key');
    expect(create).toHaveTextContent(`-d '{"domain":"example.com","type":"sending"}'`);
  });

  it('gives the rate limits by plan, their headers and the 429 answer', async () => {
    await open();
    expect(screen.getAllByTestId('rate-limit').map((cell) => cell.textContent)).toEqual(['1,000', '10,000', '100,000']);
    const section = document.getElementById('rate-limits')!;
    for (const text of ['Starter', 'Professional', 'Enterprise', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', '429', 'Retry-After'])
      expect(section).toHaveTextContent(text);
  });

  it('copies a request and says "Copied to clipboard"', async () => {
    const user = userEvent.setup();
    await open();
    const card = screen.getAllByTestId('endpoint').find((c) => c.getAttribute('data-endpoint-id') === 'list-domains')!;
    await user.click(within(card).getByRole('button', { name: 'Copy Request' }));
    expect(await screen.findByText('Copied to clipboard')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(curlExample(API_ENDPOINTS[0]!, window.location.origin));
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
