import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHECK_ANSWER, MTA_GUIDES, mtaGuide } from '@content/docs/mta-integration';
import { GOOGLE_NOT_CONFIGURED } from '@contracts/postmaster';
import {
  FAKE_HOSTS,
  fakeProviderEnv,
  REFUSED_TEXT,
  startFakeProvider,
  type FakeProvider,
} from '../server/integrations/providers/test/fake-providers';
import { noBrowser, startE2EWithDns, type E2EWithDns } from './support/harness';

/*
 * The integrations manager in the browser, against the real app whose SendGrid client is pointed at
 * a loopback stand-in of SendGrid's API (the one the server's tests use): a wrong key is refused in
 * SendGrid's words, the right one installs, the worker syncs it, Sync now queues another, and it
 * uninstalls. Then the MTA tab's endpoints take a real event, Google's sign-in says it is not
 * configured here, and the signed-out page and the guides fit a phone.
 */

let e2e: E2EWithDns;
let sendgrid: FakeProvider;
const KEY = 'SG.e2e-0123456789abcdefghijklmnopqrstuvwxyzWXYZ';
const DAY = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

/** No horizontal scrolling: the page is no wider than the window (the message names what sticks out). */
async function expectNoHorizontalScroll(page: Page, where: string) {
  const { scrollWidth, clientWidth, wide } = await page.evaluate(() => {
    const clientWidth = document.documentElement.clientWidth;
    const wide = Array.from(document.querySelectorAll('body *'))
      .filter((el) => el.getBoundingClientRect().right > clientWidth + 1)
      .slice(-3)
      .map(
        (el) =>
          `<${el.tagName.toLowerCase()} class="${el.getAttribute('class') ?? ''}">${(el.textContent ?? '').slice(0, 60)}`,
      );
    return { scrollWidth: document.documentElement.scrollWidth, clientWidth, wide };
  });
  expect(
    scrollWidth,
    `${where}: ${scrollWidth} px wide in a ${clientWidth} px window; ${wide.join(' | ')}`,
  ).toBeLessThanOrEqual(clientWidth);
}

/** The toast region (hidden from assistive technology while a modal dialog is open, so found with includeHidden). */
const toasts = (page: Page) => page.getByRole('region', { name: /^Notifications/, includeHidden: true });

async function integrationsOf(page: Page) {
  return (await (await page.request.get('/api/integrations')).json()) as {
    id: number;
    provider: string;
    lastSync: string | null;
    emailsSent: number;
  }[];
}

describe.skipIf(noBrowser)('the Integrations page in the browser', () => {
  beforeAll(async () => {
    sendgrid = await startFakeProvider('sendgrid', FAKE_HOSTS.sendgrid, KEY, [
      { date: DAY, sent: 1200, hard: 10, soft: 5, complaints: 1, opens: 300, clicks: 40 },
    ]);
    e2e = await startE2EWithDns({
      // The outbound guard lets the loopback stand-in through only in tests.
      NODE_ENV: 'test',
      OUTBOUND_ALLOW_ADDRESSES: '127.0.0.1',
      ...fakeProviderEnv([sendgrid]),
    });
    e2e.dns.zone[FAKE_HOSTS.sendgrid] = { A: ['127.0.0.1'] };
  });
  afterAll(async () => {
    await e2e?.close();
    await sendgrid?.close();
  });

  it('installs SendGrid after a refused key, syncs it, and uninstalls it, at 1280 and 390 px', async () => {
    const page = await e2e.newPage(1280);
    const signup = { username: 'plugger', email: 'plugger@example.com', password: 'plugger pw 12345' };
    expect((await page.request.post('/api/register', { data: signup })).status()).toBe(200);
    await page.request.post('/api/user/complete-tour');

    await page.goto('/integrations');
    await page.getByTestId('installed-count').getByText('0 plugins installed').waitFor();
    const tabs = await page.getByRole('tab').allTextContents();
    expect(tabs).toEqual(['Email Service Providers', 'Mail Transfer Agents', 'Analytics & Tools']);
    await page.getByTestId('plugin-card-sendgrid').waitFor();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 });
      await expectNoHorizontalScroll(page, `/integrations at ${width} px`);
      await e2e.screenshot(page, `integrations-esp-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 844 });

    await page.getByRole('button', { name: 'Install SendGrid' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('In SendGrid, open Settings, then API Keys, and click Create API Key.').waitFor();
    expect(await dialog.getByRole('link', { name: /SendGrid documentation/ }).getAttribute('href')).toBe(
      'https://www.twilio.com/docs/sendgrid/ui/account-and-settings/api-keys',
    );
    await dialog.getByRole('button', { name: 'Next' }).click();

    // A wrong key: SendGrid's own words, through the real client and the outbound guard.
    const key = dialog.getByLabel('API key', { exact: true });
    await key.fill('SG.wrong-key-0123456789');
    expect(await key.getAttribute('type')).toBe('password');
    await dialog.getByRole('button', { name: 'Test Connection' }).click();
    await dialog.getByText(`Connection failed: ${REFUSED_TEXT.sendgrid}`).waitFor();

    await key.fill(KEY);
    await dialog.getByRole('button', { name: 'Show API key' }).click();
    expect(await key.getAttribute('type')).toBe('text');
    await dialog.getByRole('button', { name: 'Test Connection' }).click();
    await dialog.getByText('Connection test successful! Ready to install.').waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalScroll(page, 'the install dialog at 390 px');
    await e2e.screenshot(page, 'integrations-install-390');
    await page.setViewportSize({ width: 1280, height: 844 });

    await dialog.getByRole('button', { name: 'Install' }).click();
    await toasts(page).getByText('SendGrid installed', { exact: true }).waitFor();
    await dialog.getByTestId('manage-integration').waitFor();
    await page.getByTestId('installed-count').getByText('1 plugin installed').waitFor();
    // The key is sealed: the list shows its last characters only.
    const listed = await page.request.get('/api/integrations');
    expect(await listed.text()).not.toContain(KEY);

    // The worker runs the first sync against the stand-in.
    const deadline = Date.now() + 60_000;
    while (!(await integrationsOf(page))[0]?.lastSync) {
      if (Date.now() > deadline) throw new Error('The first sync did not run');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect((await integrationsOf(page))[0]!.emailsSent).toBe(1200);
    await page.goto('/integrations?manage=sendgrid');
    const manage = page.getByTestId('manage-integration');
    await manage.getByTestId('integration-status').getByText('Active').waitFor();
    expect(await manage.getByTestId('last-sync').textContent()).toMatch(/Just synced/);
    expect(await manage.textContent()).toContain('1,200');
    await manage.getByRole('button', { name: 'Sync now' }).click();
    await toasts(page).getByText('Sync queued', { exact: true }).waitFor();
    expect(sendgrid.requests.some((r) => r.path === '/v3/stats')).toBe(true);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 });
      await expectNoHorizontalScroll(page, `the manage dialog at ${width} px`);
      await e2e.screenshot(page, `integrations-manage-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 844 });

    await manage.getByRole('button', { name: 'Uninstall' }).click();
    const confirm = page.getByTestId('uninstall-dialog');
    await confirm.getByRole('button', { name: 'Uninstall' }).click();
    await toasts(page).getByText('SendGrid uninstalled', { exact: true }).waitFor();
    await page.getByTestId('installed-count').getByText('0 plugins installed').waitFor();
    expect(await integrationsOf(page)).toEqual([]);
  }, 180_000);

  it('gives the MTAs this server’s endpoints, which take a real event; Google’s sign-in says it is not configured', async () => {
    const page = await e2e.newPage(1280);
    expect(
      (
        await page.request.post('/api/register', {
          data: { username: 'mtaowner', email: 'mtaowner@example.com', password: 'mtaowner pw 12345' },
        })
      ).status(),
    ).toBe(200);
    await page.request.post('/api/user/complete-tour');
    await page.goto('/integrations?tab=mta');
    await page.getByTestId('mta-token-missing').waitFor();
    for (const guide of MTA_GUIDES) {
      const endpoint = await page.getByTestId(`mta-card-${guide.id}`).getByTestId('mta-endpoint').textContent();
      expect(endpoint).toBe(`${e2e.url}${guide.path}${guide.token === 'query' ? '?token=iwt_your_webhook_token' : ''}`);
    }
    await page.getByTestId('mta-card-postfix').getByText('No events received yet').waitFor();

    // The Postfix card's endpoint with a real token takes the guide's check, then a delivery line.
    const token = ((await (await page.request.post('/api/webhook-tokens/generate')).json()) as { token: string }).token;
    const endpoint = (await page.getByTestId('mta-card-postfix').getByTestId('mta-endpoint').textContent())!;
    const check = await page.request.post(endpoint, {
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      data: '2026-11-26T09:20:00+00:00 mx1 postfix/qmgr[1999]: 4TfK2Q1xYzz9: from=<news@mail.example.com>, size=4211, nrcpt=1 (queue active)',
    });
    expect(await check.json()).toEqual(CHECK_ANSWER);
    const sample = mtaGuide('postfix').sample;
    const posted = await page.request.post(endpoint, {
      headers: { authorization: `Bearer ${token}`, 'content-type': sample.contentType },
      data: sample.body,
    });
    expect(((await posted.json()) as { accepted: number }).accepted).toBe(3);
    await page.reload();
    await page
      .getByTestId('mta-card-postfix')
      .getByText(/^Last event .*: (delivered|bounced|deferred) to /)
      .waitFor();
    await page
      .getByTestId('mta-token')
      .getByText(/Your token is iwt_/)
      .waitFor();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 });
      await expectNoHorizontalScroll(page, `the MTA tab at ${width} px`);
      await e2e.screenshot(page, `integrations-mta-${width}`);
    }

    // ?manage= from the dashboard's spelling opens Google Postmaster Tools; this server has no Google client.
    await page.setViewportSize({ width: 1280, height: 844 });
    await page.goto('/integrations?manage=gmailpostmaster');
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Connect Google Postmaster Tools' }).waitFor();
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByText(GOOGLE_NOT_CONFIGURED).waitFor();
    // Behind the modal dialog, the tab it belongs to is selected.
    expect(
      await page.getByRole('tab', { name: 'Analytics & Tools', includeHidden: true }).getAttribute('aria-selected'),
    ).toBe('true');
  }, 120_000);

  it('shows visitors the marketing page and the guides, fitting a phone', async () => {
    const page = await e2e.newPage(390);
    await page.goto('/integrations');
    await page.getByTestId('integrations-marketing-page').waitFor();
    expect(await page.getByRole('link', { name: 'Start Free Trial' }).getAttribute('href')).toBe('/register');
    expect(await page.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
    await page.getByText('15+ providers with one-click plugins').waitFor();
    await expectNoHorizontalScroll(page, 'the marketing page at 390 px');
    await e2e.screenshot(page, 'integrations-marketing-390');

    for (const [path, testId] of [
      ['/integrations/postfix', 'postfix-guide-page'],
      ['/integrations/smtp2go', 'smtp2go-page'],
      ['/mta-integration', 'mta-integration-page'],
    ] as const) {
      await page.goto(path);
      await page.getByTestId(testId).waitFor();
      await expectNoHorizontalScroll(page, `${path} at 390 px`);
      await e2e.screenshot(page, `guide-${testId}-390`);
    }
    // The guide's script names this server's endpoint.
    await page.goto('/integrations/postfix');
    expect(
      await page.getByTestId('code-block').filter({ hasText: 'inboxpulse-postfix-monitor:' }).textContent(),
    ).toContain(`${e2e.url}/api/webhooks/postfix`);
  }, 120_000);
});
