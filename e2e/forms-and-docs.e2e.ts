import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noBrowser, startE2E, type E2E } from './support/harness';
import { expectNoHorizontalScroll } from './support/layout';

let e2e: E2E;

describe.skipIf(noBrowser)('forms and the API documentation in the browser', () => {
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it('shows /api-docs with its whole reference, the Postfix API included, at 1280 and 390 px without sideways scrolling', async () => {
    for (const width of [1280, 390]) {
      const page = await e2e.newPage(width);
      await page.goto('/api-docs');
      const reference = page.getByTestId('openapi-reference');
      await reference.waitFor();
      // The longest route heading, opened: the widest thing the page draws.
      const longest = reference.locator('[data-operation="POST /v1/postfix/queue"]');
      await longest.locator('summary').click();
      await longest.getByText('Answers').waitFor();
      await expectNoHorizontalScroll(page, `/api-docs at ${width} px`);
      await e2e.screenshot(page, `api-docs-${width}`);
      await page.context().close();
    }
  });

  it('refuses a bad domain name under the Add Domain field before sending anything, in the words the server would answer', async () => {
    const page = await e2e.newPage(390);
    const signup = { username: 'formfiller', email: 'formfiller@example.com', password: 'form filler pw 123' };
    expect((await page.request.post('/api/register', { data: signup })).status()).toBe(200);
    await page.request.post('/api/user/complete-tour');
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/domains') posts.push(request.url());
    });

    await page.goto('/domains');
    await page.getByRole('button', { name: 'Add Your First Domain' }).click();
    const form = page.getByTestId('add-domain-form');
    const field = form.getByLabel('Domain name');
    for (const [name, message] of [
      ['intranet.invalidtld', 'Enter a domain under a public suffix, such as example.com'],
      ['192.0.2.1', 'Enter a domain name, not an IP address'],
      ['exa mple.com', 'Enter a valid domain name such as example.com'],
    ] as const) {
      await field.fill(name);
      await form.getByRole('button', { name: 'Add Domain' }).click();
      await form.getByText(message).waitFor();
      expect(await field.getAttribute('aria-invalid'), name).toBe('true');
    }
    // What the form refused, the server refuses in the same words.
    const server = await page.request.post('/api/domains', { data: { domain: 'intranet.invalidtld' } });
    expect(server.status()).toBe(400);
    expect((await server.json()).message).toBe('Enter a domain under a public suffix, such as example.com');
    expect(posts).toEqual([]);
    expect(await (await page.request.get('/api/domains')).json()).toEqual([]);
    await expectNoHorizontalScroll(page, '/domains with a refused name at 390 px');
    await e2e.screenshot(page, 'domains-bad-name-390');
  });
});
