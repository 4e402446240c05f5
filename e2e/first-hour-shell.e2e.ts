import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, noBrowser, startE2E, type E2E } from './support/harness';

// Issue 13, "rough edges" of the first hour: the landing page on a phone (menu, cookie banner), a
// signed-out load without console errors, a compact header on phones, a tab title per page, and a
// signed-in user on a public page.

let e2e: E2E;
let counter = 0;

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

async function newContext(viewport: { width: number; height: number }): Promise<BrowserContext> {
  return e2e.browser.newContext({ baseURL: e2e.url, viewport });
}

/** What the browser reports as going wrong: console errors, uncaught exceptions, failed or 4xx/5xx requests. */
function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`exception: ${error.message}`));
  page.on('requestfailed', (request) => {
    // A cancelled fetch is not a failure, and the console says nothing of it (the SPA the harness builds
    // is React's development build, whose StrictMode remount cancels and resends the session probe).
    if (request.failure()?.errorText !== 'net::ERR_ABORTED')
      problems.push(`failed: ${request.method()} ${request.url()} (${request.failure()?.errorText})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400)
      problems.push(`${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  return problems;
}

/** Registers through the real API in the page's own context, so the page is signed in. */
async function signUpIn(page: Page): Promise<string> {
  counter++;
  const username = `shell${counter}`;
  const res = await page.request.post('/api/register', {
    data: { username, email: `${username}@example.com`, password: 'first hour pw 1' },
  });
  expect(res.status()).toBe(200);
  expect((await page.request.post('/api/user/complete-tour')).status()).toBe(200);
  return username;
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('element has no box (hidden?)');
  return found;
}

type Box = Awaited<ReturnType<typeof box>>;
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The viewport as the user sees it (the harness's screenshots are of the whole page). */
async function viewportShot(page: Page, name: string) {
  await page.screenshot({ path: path.join(artifactsDir, `${name}.png`) });
}

describe.skipIf(noBrowser)('the first hour: landing, shell and titles in the browser', () => {
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it('loads the landing page signed out with nothing wrong in the console, on a phone and a desktop', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const context = await newContext(viewport);
      const page = await context.newPage();
      const problems = watchProblems(page);
      await page.goto('/');
      await page.getByTestId('landing-hero').waitFor();
      await page.waitForLoadState('networkidle');
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  it('opens a menu with Features, Plans, FAQ and Integrations on a phone', async () => {
    const context = await newContext(PHONE);
    const page = await context.newPage();
    await page.goto('/');
    const button = page.getByRole('button', { name: 'Menu' });
    await button.waitFor();
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    const menu = page.getByTestId('site-menu');
    expect(await menu.isVisible()).toBe(false);
    await button.click();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    await menu.waitFor({ state: 'visible' });
    const links = await menu
      .getByRole('link')
      .evaluateAll((as) => as.map((a) => [a.textContent?.trim(), a.getAttribute('href')]));
    expect(links).toEqual([
      ['Features', '#features'],
      ['Plans', '#plans'],
      ['FAQ', '#faq'],
      ['Integrations', '/integrations'],
    ]);
    await viewportShot(page, 'first-hour-menu-390');
    await menu.getByRole('link', { name: 'Plans' }).click();
    await menu.waitFor({ state: 'hidden' });
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(page.url()).toMatch(/#plans$/);
    // The bar and its Login and Get Started stay; on a desktop the menu button is not needed.
    await context.close();

    const desktop = await (await newContext(DESKTOP)).newPage();
    await desktop.goto('/');
    await desktop.getByTestId('landing-hero').waitFor();
    expect(await desktop.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
    expect(
      await desktop.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Features' }).isVisible(),
    ).toBe(true);
    await desktop.context().close();
  });

  it('keeps the hero buttons visible and clickable beside the cookie banner', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const context = await newContext(viewport);
      const page = await context.newPage();
      await page.goto('/');
      const banner = page.getByTestId('cookie-banner');
      await banner.waitFor();
      const bannerBox = await box(banner);
      for (const name of ['Start Free Account', 'View Pricing']) {
        const button = page.getByTestId('landing-hero').getByRole('link', { name });
        const buttonBox = await box(button);
        expect(overlaps(buttonBox, bannerBox), `${name} under the banner at ${viewport.width}px`).toBe(false);
        expect(buttonBox.y + buttonBox.height, `${name} below the fold at ${viewport.width}px`).toBeLessThanOrEqual(
          viewport.height,
        );
        // Nothing lies on top of it: the element at its centre is the link (or inside it).
        const onTop = await page.evaluate(
          ({ x, y }) => document.elementFromPoint(x, y)?.closest('a')?.textContent?.trim(),
          {
            x: buttonBox.x + buttonBox.width / 2,
            y: buttonBox.y + buttonBox.height / 2,
          },
        );
        expect(onTop).toBe(name);
      }
      await viewportShot(page, `first-hour-landing-${viewport.width}`);
      // The end of the page can be scrolled above the banner.
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      const address = page.getByTestId('landing-footer').locator('address');
      expect(overlaps(await box(address), await box(banner))).toBe(false);
      await viewportShot(page, `first-hour-landing-end-${viewport.width}`);
      await context.close();
    }
  });

  it('keeps the page header compact on a phone and sticky on a desktop', async () => {
    const phone = await (await newContext(PHONE)).newPage();
    await signUpIn(phone);
    await phone.goto('/inbox-placement');
    const header = phone.getByRole('banner');
    await phone.getByTestId('create-test').waitFor();
    const headerBox = await box(header);
    const topBar = await box(phone.getByRole('button', { name: 'Open navigation menu' }).locator('..'));
    expect(headerBox.height).toBeLessThanOrEqual(120);
    expect(topBar.height).toBeLessThanOrEqual(64);
    await viewportShot(phone, 'first-hour-header-390');
    // Only the top bar stays on screen while the page scrolls: the page header scrolls away with it.
    expect(await header.evaluate((el) => getComputedStyle(el).position)).toBe('static');
    expect(
      await phone
        .getByRole('button', { name: 'Open navigation menu' })
        .locator('..')
        .evaluate((el) => getComputedStyle(el).position),
    ).toBe('sticky');
    await phone.context().close();

    // The narrowest common phone, with the longest plan label: the top bar fits, nothing scrolls sideways.
    for (const width of [390, 360]) {
      const narrow = await (await newContext({ width, height: 740 })).newPage();
      const pro = await signUpIn(narrow);
      await e2e.runtime.database.pool.query(`UPDATE users SET subscription_plan = 'professional' WHERE username = $1`, [
        pro,
      ]);
      // The app's session cache hears of the change by a database notification: wait until it has.
      await expect
        .poll(async () => (await (await narrow.request.get('/api/user')).json()).subscriptionPlan)
        .toBe('professional');
      await narrow.goto('/domains');
      await narrow.getByTestId('domains-page').waitFor();
      const badge = narrow
        .getByRole('button', { name: 'Open navigation menu' })
        .locator('..')
        .getByTestId('plan-badge');
      expect(await badge.textContent()).toBe('Professional Plan');
      expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      const bar = await box(narrow.getByRole('button', { name: 'Open navigation menu' }).locator('..'));
      expect((await box(badge)).x + (await box(badge)).width).toBeLessThanOrEqual(bar.x + bar.width);
      // At 390 px the whole label shows; narrower, it may end in an ellipsis (the text stays whole for screen readers).
      if (width >= 390) expect(await badge.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      await viewportShot(narrow, `first-hour-header-pro-${width}`);
      await narrow.context().close();
    }

    const desktop = await (await newContext(DESKTOP)).newPage();
    await signUpIn(desktop);
    await desktop.goto('/inbox-placement');
    await desktop.getByRole('banner').waitFor();
    expect(await desktop.getByRole('banner').evaluate((el) => getComputedStyle(el).position)).toBe('sticky');
    expect((await box(desktop.getByRole('banner'))).height).toBeLessThanOrEqual(140);
    await viewportShot(desktop, 'first-hour-header-1280');
    await desktop.context().close();
  });

  it('gives each page its own tab title', async () => {
    const context = await newContext(DESKTOP);
    const page = await context.newPage();
    const titleAt = async (path: string, ready: () => Promise<unknown>) => {
      await page.goto(path);
      await ready();
      await page.waitForFunction(() => document.title.endsWith(' · InboxPulse'));
      return page.title();
    };
    const signedOut = {
      '/': await titleAt('/', () => page.getByTestId('landing-hero').waitFor()),
      '/login': await titleAt('/login', () => page.getByTestId('login-form').waitFor()),
      '/pricing': await titleAt('/pricing', () =>
        page.getByRole('heading', { level: 1, name: 'Choose Your Plan' }).waitFor(),
      ),
      '/nope': await titleAt('/nope', () => page.getByRole('heading', { name: '404 Page Not Found' }).waitFor()),
    };
    expect(signedOut).toEqual({
      '/': 'Email Deliverability Monitoring · InboxPulse',
      '/login': 'Login · InboxPulse',
      '/pricing': 'Pricing · InboxPulse',
      '/nope': 'Page Not Found · InboxPulse',
    });

    await signUpIn(page);
    const signedIn = {
      '/': await titleAt('/', () => page.getByTestId('dashboard-page').waitFor()),
      '/domains': await titleAt('/domains', () => page.getByTestId('domains-page').waitFor()),
      '/inbox-placement': await titleAt('/inbox-placement', () =>
        page.getByRole('heading', { level: 1, name: 'Inbox Placement Testing' }).waitFor(),
      ),
      '/settings': await titleAt('/settings', () => page.getByTestId('settings-page').waitFor()),
    };
    expect(signedIn).toEqual({
      '/': 'Dashboard · InboxPulse',
      '/domains': 'Domain Management · InboxPulse',
      '/inbox-placement': 'Inbox Placement Testing · InboxPulse',
      '/settings': 'Settings · InboxPulse',
    });
    // Moving inside the app (no reload) changes it too.
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Domains' }).click();
    await page.waitForFunction(() => document.title === 'Domain Management · InboxPulse');
    await context.close();
  });

  it('shows a signed-in user their name and the Dashboard link on a public page, not Login', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const context = await newContext(viewport);
      const page = await context.newPage();
      const username = await signUpIn(page);
      await page.goto('/pricing');
      const site = page.getByRole('navigation', { name: 'Site' });
      await site.waitFor();
      expect(await site.getByTestId('signed-in-user').textContent()).toBe(`Signed in as ${username}`);
      expect(await site.getByTestId('signed-in-user').isVisible()).toBe(true);
      expect(await site.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/dashboard');
      expect(await site.getByRole('link', { name: 'Login' }).count()).toBe(0);
      await viewportShot(page, `first-hour-public-signed-in-${viewport.width}`);
      await site.getByRole('link', { name: 'Dashboard' }).click();
      await page.getByTestId('dashboard-page').waitFor();
      await context.close();
    }
  });
});
