import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueResetLink } from '../server/accounts/reset-link.service';
import { waitUntil } from '../server/test/wait-until';
import { noBrowser, startE2E, type E2E } from './support/harness';

let e2e: E2E;

describe.skipIf(noBrowser)('accounts in the browser', () => {
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it('registers, lands on the dashboard, stays signed in after a reload, and logs out', async () => {
    const page = await e2e.newPage();
    await page.goto('/register');
    await page.locator('#register-username').fill('browser_user');
    await page.locator('#register-email').fill('browser@example.com');
    await page.locator('#register-password').fill('a good password');
    await page.locator('#register-confirm-password').fill('a good password');
    await page.locator('#register-coupon').fill('LAUNCH50');
    await page.getByRole('button', { name: /create account/i }).click();

    await page.waitForURL(/\/email-confirmation\?email=browser%40example\.com/);
    await page.getByText('Your account has been verified and is ready to use.').waitFor();
    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await page.getByTestId('dashboard-page').waitFor();
    expect(await page.getByTestId('sidebar-plan').textContent()).toBe('Free Plan');
    await e2e.screenshot(page, 'dashboard-1440');

    await page.reload();
    await page.getByTestId('dashboard-page').waitFor();
    expect(await page.getByTestId('sidebar').getByText('browser_user').count()).toBeGreaterThan(0);

    await page.getByTestId('logout-button').click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('link', { name: /login/i }).first().waitFor();
    const me = await page.request.get('/api/user');
    expect(me.status()).toBe(401);
  });

  it('shows the login screen on a signed-out visit to /domains, and signs in there', async () => {
    const page = await e2e.newPage(390);
    await page.goto('/domains');
    await page.getByTestId('login-form').waitFor();
    expect(new URL(page.url()).pathname).toBe('/domains');
    await page.locator('#login-username').fill('browser_user');
    await page.locator('#login-password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Invalid username or password').first().waitFor();

    await page.locator('#login-password').fill('a good password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(/\/dashboard$/);
    await page.getByTestId('dashboard-page').waitFor();
    await e2e.screenshot(page, 'dashboard-390');
  });

  it('shows the 404 screen for an unknown path', async () => {
    const page = await e2e.newPage();
    await page.goto('/this/does/not/exist');
    await page.getByText('404 Page Not Found').waitFor();
  });

  it('resets a forgotten password with the link an operator makes (no SMTP)', async () => {
    const page = await e2e.newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.locator('#forgot-email').fill('browser@example.com');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();

    // No SMTP here: the mail is not sent and its link kept nowhere; an operator runs `npm run reset-link`.
    await waitUntil(async () => {
      const { rows } = await e2e.runtime.database.pool.query(
        `SELECT status, text_body FROM outbox WHERE kind = 'reset_password' AND to_address = 'browser@example.com'`,
      );
      return rows[0] ? rows[0] : undefined;
    }, 'the reset mail in the outbox').then((row) =>
      expect(row).toEqual({ status: 'not_configured', text_body: null }),
    );
    const { link } = await issueResetLink(e2e.runtime.database.db, e2e.url, 'browser@example.com');

    await page.goto(link);
    await page.locator('#reset-password').fill('newer password 9');
    await page.locator('#reset-confirm-password').fill('newer password 9');
    await page.getByRole('button', { name: /reset password/i }).click();
    await page.getByRole('link', { name: 'Continue to Login' }).click();

    await page.getByTestId('login-form').waitFor();
    await page.locator('#login-username').fill('browser_user');
    await page.locator('#login-password').fill('newer password 9');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByTestId('dashboard-page').waitFor();

    // The used link is dead.
    await page.goto(link);
    await page.getByText('This password reset link is invalid or has expired').waitFor();
  });
});
