import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type APIRequestContext, type Page } from 'playwright-core';
import { noBrowser, startE2EWithDns, type E2EWithDns } from './support/harness';

let e2e: E2EWithDns;
/** A client with no cookie: what a script holding only the API key is. */
let scriptClient: APIRequestContext;

/** No horizontal scrolling: the page is no wider than the window. */
async function expectNoHorizontalScroll(page: Page, where: string) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `${where}: ${scrollWidth} px wide in a ${clientWidth} px window`).toBeLessThanOrEqual(
    clientWidth,
  );
}

/** The Bulk Import tab of the Add IP Address dialog on /reputation. */
async function openBulkImport(page: Page) {
  await page.goto('/reputation');
  await page.getByRole('button', { name: 'Add IP Address' }).first().click();
  const dialog = page.getByTestId('add-ip-dialog');
  await dialog.getByRole('tab', { name: 'Bulk Import' }).click();
  return dialog;
}

/** What the server answers a script holding the key: the plan gate's 403, or the domains. */
async function apiAnswer(key: string) {
  const answer = await scriptClient.get('/api/domains', { headers: { authorization: `Bearer ${key}` } });
  return { status: answer.status(), body: (await answer.json()) as { message?: string } };
}

describe.skipIf(noBrowser)('plans and billing in the browser, self-hosted (no Stripe)', () => {
  beforeAll(async () => {
    // The resolver points at a loopback DNS server: adding a domain queries its records.
    e2e = await startE2EWithDns();
    scriptClient = await request.newContext({ baseURL: e2e.url });
  });
  afterAll(async () => {
    await scriptClient?.dispose();
    await e2e?.close();
  });

  it('a free account upgrades on /pricing, the gated features open, /subscription shows real usage, and a downgrade locks them again', async () => {
    const page = await e2e.newPage(1280);
    const signup = { username: 'planner', email: 'planner@example.com', password: 'planner pw 123' };
    expect((await page.request.post('/api/register', { data: signup })).status()).toBe(200);
    await page.request.post('/api/user/complete-tour');
    const added = await page.request.post('/api/domains', { data: { domain: 'planner-mail.com' } });
    expect(added.status(), await added.text()).toBeLessThan(300);
    const { apiKey } = (await (await page.request.post('/api/api-keys/generate')).json()) as { apiKey: string };

    // Free: bulk import is locked in the page, and the API refuses the key, naming the same plan.
    const locked = await openBulkImport(page);
    const banner = locked.getByTestId('bulk-import-plan-banner');
    await banner.getByText('Requires Professional plan').waitFor();
    expect(await apiAnswer(apiKey)).toEqual({
      status: 403,
      body: expect.objectContaining({ message: 'Requires Professional plan' }),
    });
    await page.goto('/dashboard');
    await page.getByTestId('advanced-analytics-locked').getByText('Requires Professional plan').waitFor();
    expect(await page.getByTestId('plan-badge').filter({ visible: true }).textContent()).toContain('Free Plan');

    // The prompt's Upgrade leads to the plan on /pricing; its card's Upgrade takes effect at once.
    await openBulkImport(page);
    await banner.getByRole('link', { name: 'Upgrade' }).click();
    await page.waitForURL((url) => url.pathname === '/pricing' && url.search === '?plan=professional');
    await page.getByRole('heading', { level: 1, name: 'Manage Your Plan' }).waitFor();
    await page
      .getByTestId('chosen-plan')
      .getByText('You chose the Professional plan: press Upgrade on its card below to continue.')
      .waitFor();
    await page.getByTestId('billing-not-configured').waitFor();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 });
      await expectNoHorizontalScroll(page, `/pricing signed in at ${width} px`);
      await e2e.screenshot(page, `pricing-free-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 844 });
    const professional = page.getByTestId('plan-card-professional');
    await professional.getByRole('button', { name: 'Upgrade' }).click();
    await page.getByText('Subscription upgraded successfully').first().waitFor();
    await professional.getByRole('button', { name: 'Current Plan' }).waitFor();
    expect(await professional.getByRole('button', { name: 'Current Plan' }).isDisabled()).toBe(true);

    // Professional: the gates are open, in the page and on the server.
    const open = await openBulkImport(page);
    await open.getByTestId('bulk-import-form').waitFor();
    expect(await open.getByTestId('bulk-import-plan-banner').count()).toBe(0);
    expect((await apiAnswer(apiKey)).status).toBe(200);
    await page.goto('/dashboard');
    await page.getByTestId('advanced-analytics').waitFor();
    expect(await page.getByTestId('plan-badge').filter({ visible: true }).textContent()).toContain('Professional Plan');

    // /subscription: the plan, its badge, and the real counts against the plan's limits.
    await page.getByTestId('plan-badge').filter({ visible: true }).click();
    await page.waitForURL((url) => url.pathname === '/subscription');
    await page.getByTestId('current-plan-name').getByText('Professional Plan').waitFor();
    expect(await page.getByTestId('subscription-status').textContent()).toBe('Active');
    await page.getByTestId('usage-domains-value').getByText('1 of Unlimited').waitFor();
    const usage = (await (await page.request.get('/api/usage')).json()) as {
      usage: { inboxTestsThisMonth: number };
      limits: { inboxTestsPerMonth: number };
    };
    expect(await page.getByTestId('usage-inboxTestsPerMonth-value').textContent()).toBe(
      `${usage.usage.inboxTestsThisMonth} of ${usage.limits.inboxTestsPerMonth.toLocaleString('en-US')}`,
    );
    await page.getByTestId('billing-history-empty').getByText('No invoices yet').waitFor();
    await page
      .getByTestId('current-plan')
      .getByText(/Billing is not configured on this server/)
      .waitFor();
    expect(await page.getByRole('button', { name: 'Manage Billing' }).count()).toBe(0);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 });
      await expectNoHorizontalScroll(page, `/subscription at ${width} px`);
      await e2e.screenshot(page, `subscription-professional-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 844 });

    // Checkout has no card form on a server without billing.
    await page.goto('/checkout?plan=professional_annual');
    await page
      .getByTestId('billing-not-configured')
      .getByText(/Plan changes take effect at once/)
      .waitFor();
    expect(await page.getByTestId('payment-element').count()).toBe(0);

    // Downgrade to Free, after the confirmation: locked again.
    await page.goto('/pricing');
    await page.getByTestId('plan-card-free').getByRole('button', { name: 'Downgrade to Free' }).click();
    await page.getByTestId('downgrade-dialog').getByRole('button', { name: 'Downgrade to Free' }).click();
    await page.getByTestId('plan-card-free').getByRole('button', { name: 'Current Plan' }).waitFor();
    const relocked = await openBulkImport(page);
    await relocked.getByTestId('bulk-import-plan-banner').getByText('Requires Professional plan').waitFor();
    expect(await apiAnswer(apiKey)).toEqual({
      status: 403,
      body: expect.objectContaining({ message: 'Requires Professional plan' }),
    });
    // The subscription ended: the Free Plan, its status Canceled, the domain counted against 5.
    await page.goto('/subscription');
    await page.getByTestId('current-plan-name').getByText('Free Plan').waitFor();
    expect(await page.getByTestId('subscription-status').textContent()).toBe('Canceled');
    await page.getByTestId('usage-domains-value').getByText('1 of 5').waitFor();
  }, 180_000);

  it('shows the plans to a visitor and the legal pages with Back to Home, at 1280 and 390 px', async () => {
    const page = await e2e.newPage(1280);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto('/pricing');
      await page.getByRole('heading', { level: 1, name: 'Choose Your Plan' }).waitFor();
      expect(
        await page.getByTestId('plan-card-professional').getByRole('link', { name: 'Subscribe' }).getAttribute('href'),
      ).toBe('/register?plan=professional_monthly');
      await expectNoHorizontalScroll(page, `/pricing signed out at ${width} px`);
      await e2e.screenshot(page, `pricing-visitor-${width}`);

      for (const [path, title] of [
        ['/terms-of-service', 'Terms of Service'],
        ['/privacy-policy', 'Privacy Policy'],
      ] as const) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1, name: title }).waitFor();
        await page.getByText('Last updated: December 7, 2024').waitFor();
        await expectNoHorizontalScroll(page, `${path} at ${width} px`);
        await e2e.screenshot(page, `${path.slice(1)}-${width}`);
        await page.getByRole('link', { name: 'Back to Home' }).first().click();
        await page.waitForURL((url) => url.pathname === '/');
        await page.getByRole('heading', { level: 1, name: 'InboxPulse' }).waitFor();
      }
    }
  }, 120_000);
});
