import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noBrowser, startE2E, type E2E } from './support/harness';

let e2e: E2E;

const SECTIONS = [
  'hero',
  'features',
  'onboarding',
  'alerts',
  'integrations',
  'comparison',
  'plans',
  'sample-placement',
  'testimonials',
  'faq',
  'footer',
];

describe.skipIf(noBrowser)('public landing page in the browser', () => {
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it('shows every section in the spec’s order with the spec’s links', async () => {
    for (const width of [1440, 390]) {
      const page = await e2e.newPage(width);
      await page.goto('/');
      await page.getByTestId('landing-hero').waitFor();
      const order = await page.$$eval('[data-testid^="landing-"]', (els) =>
        els.map((e) => e.getAttribute('data-testid')!.replace('landing-', '')),
      );
      expect(order.filter((s) => SECTIONS.includes(s))).toEqual(SECTIONS);
      await e2e.screenshot(page, `landing-${width}`);
      await page.context().close();
    }
    const page = await e2e.newPage();
    await page.goto('/');
    // The landing page renders after its script loads: read the links only once the footer is there.
    await page.getByTestId('landing-footer').waitFor();
    const hrefs = await page.$$eval('a', (as) =>
      as.map((a) => [a.textContent?.trim() ?? '', a.getAttribute('href') ?? '']),
    );
    const hrefOf = (label: RegExp) => hrefs.filter(([text]) => label.test(text)).map(([, href]) => href);
    expect(hrefOf(/^Login$/)).toContain('/login');
    expect(hrefOf(/Start Free Account/)).toContain('/register');
    expect(hrefOf(/Start Free Trial/)).toContain('/register');
    expect(hrefOf(/Get Started/)).toContain('/register');
    expect(hrefOf(/View Pricing/)).toContain('/pricing');
    expect(hrefOf(/View All Plans/)).toContain('/pricing');
    expect(hrefOf(/View All Integrations/)).toContain('/integrations');
    const all = hrefs.map(([, href]) => href);
    expect(all).toEqual(expect.arrayContaining(['/privacy-policy', '/terms-of-service']));
    expect(all.some((h) => h.startsWith('mailto:'))).toBe(true);
  });

  it('remembers the cookie choice across a reload', async () => {
    const page = await e2e.newPage();
    await page.goto('/');
    await page.getByTestId('cookie-banner').waitFor();
    await page.getByRole('button', { name: 'Accept All Cookies' }).click();
    await page.getByTestId('cookie-banner').waitFor({ state: 'detached' });
    await page.reload();
    await page.getByTestId('landing-hero').waitFor();
    expect(await page.getByTestId('cookie-banner').count()).toBe(0);
  });

  it('answers a pricing question in the chat assistant', async () => {
    const page = await e2e.newPage();
    await page.goto('/');
    await page.getByRole('button', { name: 'Open chat assistant' }).click();
    const panel = page.getByTestId('chat-panel');
    await panel.waitFor();
    const input = panel.getByRole('textbox');
    await input.fill('How much does the Professional plan cost?');
    await input.press('Enter');
    const reply = panel.locator('[data-testid="chat-message"][data-from="bot"]').filter({ hasText: '$49' });
    await reply.first().waitFor();
    await e2e.screenshot(page, 'chat-1440');
  });
});
