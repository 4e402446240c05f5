import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { waitUntil } from '../server/test/wait-until';
import { noBrowser, startE2EWithDns, type E2EWithDns } from './support/harness';

let e2e: E2EWithDns;

// A public address (reserved ranges are refused). The loopback DNS server lists it on SpamCop before
// it is added, so its first check finds the listing and raises a blacklist_detection alert.
const IP = '93.184.216.34';
const SPAMCOP_QUERY = '34.216.184.93.bl.spamcop.net';
const TITLE = `${IP} is now listed on SpamCop`;

interface AlertRow {
  id: number;
  type: string;
  title: string;
  severity: string;
  isRead: boolean;
}

/** No horizontal scrolling: the page is no wider than the window. */
async function expectNoHorizontalScroll(page: Page, where: string) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `${where}: ${scrollWidth} px wide in a ${clientWidth} px window`).toBeLessThanOrEqual(clientWidth);
}

async function alerts(page: Page): Promise<AlertRow[]> {
  return (await page.request.get('/api/alerts')).json();
}

describe.skipIf(noBrowser)('the Alerts page in the browser', () => {
  beforeAll(async () => {
    e2e = await startE2EWithDns();
  });
  afterAll(() => e2e?.close());

  it('shows a real blocklist alert, its detail and history, acknowledges it, keeps a saved threshold, and fits at 1280 and 390 px', async () => {
    const page = await e2e.newPage(1280);
    expect(
      (await page.request.post('/api/register', { data: { username: 'alerted', email: 'alerted@example.com', password: 'alerted pw 123' } })).status(),
    ).toBe(200);
    await page.request.post('/api/user/complete-tour');
    // This story is the blocklist alert's: a sender score threshold below the listed IP's score (55-65)
    // keeps the evaluation's sender score condition quiet, so the listing is the one active alert.
    expect((await page.request.put('/api/alert-settings', { data: { reputationThreshold: 40 } })).status()).toBe(200);

    e2e.dns.zone[SPAMCOP_QUERY] = { A: ['127.0.0.2'], TXT: [`Blocked - see https://www.spamcop.net/bl.shtml?${IP}`] };
    expect((await page.request.post('/api/ip-addresses', { data: { ipAddress: IP, label: 'Outbound 1', type: 'dedicated' } })).status()).toBe(200);
    // Adding asks for a first check; the listing it finds is raised as an alert by the reputation run.
    const list = await waitUntil(() => alerts(page), 'the blacklist_detection alert of the first check', {
      until: (list) => list.some((alert) => alert.type === 'blacklist_detection'),
      timeoutMs: 60_000,
    });
    const raised = list.find((alert) => alert.type === 'blacklist_detection');
    expect(raised?.title).toBe(TITLE);

    await page.goto('/alerts');
    await page.getByTestId('active-count').getByText('1', { exact: true }).waitFor();
    const card = page.locator(`[data-testid="alert-card"][data-alert-id="${raised!.id}"]`);
    await card.getByRole('heading', { name: TITLE }).waitFor();
    // The severity the run chose (blocklist-alerts.ts) is the badge's word.
    expect(await card.getByTestId('severity-badge').textContent()).toBe(raised!.severity);

    await card.getByRole('link', { name: `View details of ${TITLE}` }).click();
    await page.waitForURL(`**/alerts?alertId=${raised!.id}`);
    const detail = page.getByTestId('alert-detail');
    expect(await detail.getByTestId('meta-ip').textContent()).toBe(IP);
    expect(await detail.getByTestId('meta-listed').textContent()).toBe('1');
    const spamcop = detail.locator('[data-testid="provider-row"][data-listed="true"]', { hasText: 'SpamCop' });
    await spamcop.getByText('Listed', { exact: true }).waitFor();
    // The row says what the list's return code means, as the run wrote it.
    const { metadata } = (await (await page.request.get(`/api/alerts/${raised!.id}`)).json()) as {
      metadata: { providers: { provider: string; description: string | null; listed: boolean }[] };
    };
    const written = metadata.providers.find((entry) => entry.provider === 'SpamCop');
    expect(written?.listed).toBe(true);
    expect(await spamcop.locator('td').nth(2).textContent()).toBe(written?.description || '–');
    await detail.locator('[data-testid="history-entry"][data-event="raised"]').waitFor();

    await detail.getByRole('button', { name: `Acknowledge: ${TITLE}` }).click();
    await detail.locator('[data-testid="history-entry"][data-event="acknowledged"]').waitFor();
    await detail.getByTestId('alert-acknowledged').waitFor();
    const saved = (await alerts(page)).find((alert) => alert.id === raised!.id);
    expect(saved?.isRead).toBe(true);

    await detail.getByRole('link', { name: 'Back to Alerts' }).click();
    await page.waitForURL((url) => url.pathname === '/alerts' && url.search === '');
    await page.getByText('No active alerts').waitFor();
    await page.getByRole('tab', { name: /Alert History/ }).click();
    await page.getByTestId('history-count').getByText('1', { exact: true }).waitFor();
    expect(await card.getAttribute('data-read')).toBe('true');
    expect(await card.evaluate((element) => getComputedStyle(element).opacity)).toBe('0.6');

    await page.getByRole('tab', { name: 'Alert Settings' }).click();
    const bounce = page.getByRole('spinbutton', { name: /Bounce rate/ });
    expect(await bounce.inputValue()).toBe('5');
    await bounce.fill('3');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('Alert settings saved').first().waitFor();
    await page.reload();
    expect(await page.getByRole('spinbutton', { name: /Bounce rate/ }).inputValue()).toBe('3');

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto('/alerts?tab=history');
      await card.waitFor();
      await expectNoHorizontalScroll(page, `/alerts history at ${width} px`);
      await e2e.screenshot(page, `alerts-history-${width}`);

      await page.goto(`/alerts?alertId=${raised!.id}`);
      await page.getByTestId(width < 640 ? 'provider-list' : 'provider-table').waitFor();
      await expectNoHorizontalScroll(page, `the alert detail at ${width} px`);
      await e2e.screenshot(page, `alert-detail-${width}`);

      await page.goto('/alerts?tab=settings');
      await page.getByTestId('alert-settings-form').waitFor();
      await page.getByTestId('alert-rules').waitFor();
      await expectNoHorizontalScroll(page, `alert settings at ${width} px`);
      await e2e.screenshot(page, `alert-settings-${width}`);
    }
  }, 180_000);
});
