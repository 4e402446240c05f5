import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type APIRequestContext, type Page } from 'playwright-core';
import { noBrowser, startE2E, type E2E } from './support/harness';

let e2e: E2E;
/** A client with no cookie: what a script holding only the key is. */
let scriptClient: APIRequestContext;

const KEY_FORMAT = /^ipk_[A-Za-z0-9_-]{43}$/;
const TOKEN_FORMAT = /^iwt_[A-Za-z0-9_-]+$/;

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

function withKey(key: string) {
  return { headers: { authorization: `Bearer ${key}` } };
}

describe.skipIf(noBrowser)('the Settings page in the browser', () => {
  beforeAll(async () => {
    e2e = await startE2E();
    scriptClient = await request.newContext({ baseURL: e2e.url });
  });
  afterAll(async () => {
    await scriptClient?.dispose();
    await e2e?.close();
  });

  it('generates an API key shown once, whose quick-start example reaches the real API, revokes it, and deletes the account, fitting 1280 and 390 px', async () => {
    const page = await e2e.newPage(1280);
    const signup = { username: 'keyholder', email: 'keyholder@example.com', password: 'keyholder pw 123' };
    expect((await page.request.post('/api/register', { data: signup })).status()).toBe(200);
    await page.request.post('/api/user/complete-tour');

    await page.goto('/settings');
    const keyCard = page.getByTestId('api-key-card');
    await keyCard.getByText('You have no API key yet.').waitFor();
    // A free account: the plan prompt says what the server will answer a key.
    await keyCard.getByTestId('api-access-plan-lock').getByText('Requires Professional plan').waitFor();
    await keyCard.getByRole('button', { name: 'Generate API Key' }).click();

    const revealed = keyCard.getByTestId('api-key-card-revealed-value');
    await revealed.waitFor();
    const apiKey = (await revealed.textContent())!.trim();
    expect(apiKey).toMatch(KEY_FORMAT);
    await keyCard.getByText(/It will not be shown again/).waitFor();

    // The status says a key exists and shows its preview, never the key.
    const statusAnswer = await page.request.get('/api/api-keys/status');
    const statusText = await statusAnswer.text();
    expect(statusText).not.toContain(apiKey);
    const status = JSON.parse(statusText) as { hasApiKey: boolean; keyPreview: string };
    expect(status.hasApiKey).toBe(true);
    expect(apiKey.startsWith(status.keyPreview.replace(/…$/, ''))).toBe(true);
    expect(await keyCard.getByTestId('api-key-card-preview').textContent()).toBe(status.keyPreview);

    // The key authenticates a script with no cookie: on the free plan the API says which plan it needs.
    const withFreeKey = await scriptClient.get('/api/domains', withKey(apiKey));
    expect(withFreeKey.status()).toBe(403);
    expect(((await withFreeKey.json()) as { message: string }).message).toBe('Requires Professional plan');
    const wrongKey = await scriptClient.get('/api/domains', withKey(`ipk_${'A'.repeat(43)}`));
    expect(wrongKey.status()).toBe(401);

    // The Node.js quick-start example, as the page shows it (the whole key while it is on screen),
    // runs as pasted against this server and gets the same answer.
    const quickStart = page.getByTestId('quick-start');
    await quickStart.getByRole('tab', { name: 'Node.js' }).click();
    const nodeExample = (await quickStart.getByTestId('quick-start-code').textContent())!;
    expect(nodeExample).toContain(`const BASE_URL = '${e2e.url}';`);
    expect(nodeExample).toContain(apiKey);
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', nodeExample], {
      timeout: 30_000,
    });
    expect(stdout.match(/^403 .*Requires Professional plan/gm)).toHaveLength(2);
    await quickStart.getByRole('tab', { name: 'cURL' }).click();
    expect(await quickStart.getByTestId('quick-start-code').textContent()).toContain(`curl ${e2e.url}/api/domains`);

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 });
      await expectNoHorizontalScroll(page, `/settings with a new key at ${width} px`);
      await e2e.screenshot(page, `settings-new-key-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 844 });

    // Once the page is left, the key is never shown again: only its preview, and a placeholder in the examples.
    await keyCard.getByRole('button', { name: 'Done' }).click();
    await page.reload();
    await keyCard.getByTestId('api-key-card-preview').waitFor();
    await quickStart
      .getByTestId('quick-start-code')
      .getByText(/YOUR_API_KEY/)
      .waitFor();
    expect(await page.content()).not.toContain(apiKey);

    // The webhook token: hidden behind Show until asked for.
    const tokenCard = page.getByTestId('webhook-token-card');
    await tokenCard.getByRole('button', { name: 'Generate Webhook Token' }).click();
    const tokenValue = tokenCard.getByTestId('webhook-token-card-revealed-value');
    await tokenValue.waitFor();
    expect(await tokenValue.textContent()).toMatch(/^iwt_•+$/);
    await tokenCard.getByRole('button', { name: 'Show webhook token' }).click();
    expect((await tokenValue.textContent())!.trim()).toMatch(TOKEN_FORMAT);

    // Revoked: the key stops working at once.
    await keyCard.getByRole('button', { name: 'Revoke' }).click();
    const confirmRevoke = page.getByTestId('api-key-card-confirm-revoke');
    await confirmRevoke.getByText(/requests made with it are refused/).waitFor();
    await confirmRevoke.getByRole('button', { name: 'Revoke' }).click();
    await keyCard.getByText('You have no API key yet.').waitFor();
    expect(await page.getByTestId('quick-start').count()).toBe(0);
    expect((await scriptClient.get('/api/domains', withKey(apiKey))).status()).toBe(401);
    expect(((await (await page.request.get('/api/api-keys/status')).json()) as { hasApiKey: boolean }).hasApiKey).toBe(
      false,
    );

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto('/settings');
      await page.getByTestId('webhook-token-card-preview').waitFor();
      await page.getByTestId('danger-zone').waitFor();
      await expectNoHorizontalScroll(page, `/settings at ${width} px`);
      await e2e.screenshot(page, `settings-${width}`);
    }

    // Danger Zone, on a phone: the button waits for the username.
    const dangerZone = page.getByTestId('danger-zone');
    await dangerZone.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByTestId('delete-account-dialog');
    const confirmDelete = dialog.getByRole('button', { name: 'Delete Account' });
    expect(await confirmDelete.isDisabled()).toBe(true);
    await dialog.getByLabel('Type your username or DELETE to confirm').fill(signup.username);
    await expectNoHorizontalScroll(page, 'the delete dialog at 390 px');
    await e2e.screenshot(page, 'settings-delete-account-390');
    await confirmDelete.click();

    await page.waitForURL((url) => url.pathname === '/');
    await page
      .getByRole('link', { name: /Start Free Account/ })
      .first()
      .waitFor();
    // The session and the account are gone: the user is signed out and cannot sign in again.
    expect((await page.request.get('/api/user')).status()).toBe(401);
    const login = await page.request.post('/api/login', {
      data: { username: signup.username, password: signup.password },
    });
    expect(login.status()).toBe(401);
  }, 180_000);
});
