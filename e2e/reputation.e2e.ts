import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { waitUntil } from '../server/test/wait-until';
import { noBrowser, startE2EWithDns, type E2EWithDns } from './support/harness';

let e2e: E2EWithDns;

// A public address (reserved ranges are refused); every list is answered by the loopback DNS server,
// where a name it does not hold is NXDOMAIN, i.e. "not listed".
const IP = '93.184.216.34';
const SPAMCOP_QUERY = '34.216.184.93.bl.spamcop.net';

interface IpRow {
  ipAddress: string;
  lastChecked: string | null;
  blacklistCount: number;
}

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

async function monitoringStatus(page: Page): Promise<{ isRunning: boolean; lastRun: string | null }> {
  return (await page.request.get('/api/ip-monitoring/status')).json();
}

async function monitoredIp(page: Page): Promise<IpRow | undefined> {
  const rows: IpRow[] = await (await page.request.get('/api/ip-addresses')).json();
  return rows.find((row) => row.ipAddress === IP);
}

describe.skipIf(noBrowser)('reputation and blocklist monitoring in the browser', () => {
  beforeAll(async () => {
    e2e = await startE2EWithDns();
  });
  afterAll(() => e2e?.close());

  it('adds an IP through the dialog, sees its listing after Refresh Monitoring, and the three screens fit at 1280 and 390 px', async () => {
    const page = await e2e.newPage(1280);
    expect(
      (
        await page.request.post('/api/register', {
          data: { username: 'sender', email: 'sender@example.com', password: 'sender pw 123' },
        })
      ).status(),
    ).toBe(200);
    await page.request.post('/api/user/complete-tour');

    await page.goto('/reputation');
    await page.getByText('No IP addresses monitored yet').waitFor();
    await page.getByRole('button', { name: 'Add IP Address' }).first().click();
    const dialog = page.getByTestId('add-ip-dialog');
    await dialog.getByRole('button', { name: 'Add IP Address' }).click();
    await dialog.getByText('Please enter an IP address').waitFor();
    await dialog.getByRole('textbox', { name: 'IP address' }).fill(IP);
    await dialog.getByRole('textbox', { name: 'Label' }).fill('Outbound 1');
    await dialog.getByRole('button', { name: 'Add IP Address' }).click();
    await page.getByText('Success', { exact: true }).first().waitFor();
    await page.locator(`[data-testid="ip-row"][data-ip="${IP}"]`).waitFor();

    // Adding asks for a first check; it finds nothing listed. Wait for it so the listing below is news.
    await waitUntil(() => monitoredIp(page), 'the first check of the new IP', {
      until: (row) => row?.lastChecked != null,
      timeoutMs: 60_000,
    });
    expect((await monitoredIp(page))?.blacklistCount).toBe(0);

    e2e.dns.zone[SPAMCOP_QUERY] = { A: ['127.0.0.2'], TXT: [`Blocked - see https://www.spamcop.net/bl.shtml?${IP}`] };
    await page.goto('/blacklist-monitoring');
    const card = page.locator(`[data-testid="blacklist-ip-card"][data-ip="${IP}"]`);
    await card.getByTestId('blacklist-badge').getByText('Clean').waitFor();
    // The product's resolver keeps a "not listed" answer for 30 s, as resolvers do: a run within that
    // time of the first check still sees the IP clear. So, as a user would, Refresh Monitoring is
    // pressed again once a run has ended, until a run has found the listing.
    const refresh = page.getByRole('button', { name: 'Refresh Monitoring' });
    let pressed = 0;
    await waitUntil(
      async () => {
        const before = (await monitoringStatus(page)).lastRun;
        await refresh.click(); // waits for the button: disabled while the page sees a run going
        pressed += 1;
        if (pressed === 1) await page.getByTestId('monitoring-progress').waitFor();
        await waitUntil(() => monitoringStatus(page), 'the run to end', {
          until: (status) => !status.isRunning && status.lastRun !== before,
          timeoutMs: 30_000,
        });
        return (await monitoredIp(page))?.blacklistCount === 1;
      },
      'a run that finds the listing',
      { timeoutMs: 120_000, intervalMs: 0 },
    );
    // The page sees the run end and fetches what it wrote, by itself: no reload.
    await card.getByTestId('blacklist-badge').getByText('Warning').waitFor();
    await card
      .getByTestId('listed-count')
      .getByText(/Listed on 1 of \d+/)
      .waitFor();
    await card.getByRole('button', { name: 'View Details' }).click();
    const listing = card.locator('[data-testid="list-answer"][data-list="spamcop"]');
    expect(await listing.getAttribute('data-status')).toBe('listed');
    expect(await listing.getByRole('link', { name: /Request removal/ }).getAttribute('href')).toBe(
      'https://www.spamcop.net/bl.shtml',
    );
    await listing.getByText(`TXT: Blocked - see https://www.spamcop.net/bl.shtml?${IP}`).waitFor();
    expect(await page.getByRole('button', { name: 'Refresh Monitoring' }).isEnabled()).toBe(true);

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 });

      await page.goto('/reputation');
      const row = page.locator(`[data-testid="ip-row"][data-ip="${IP}"]`);
      await row.getByTestId('ip-status').waitFor();
      await row.getByRole('button', { name: /Show score/ }).click();
      await row.getByTestId('listing-timeline').getByText('SpamCop', { exact: true }).waitFor();
      await expectNoHorizontalScroll(page, `/reputation at ${width} px`);
      await e2e.screenshot(page, `reputation-${width}`);

      await page.goto('/blacklist-monitoring');
      await card.getByRole('button', { name: 'View Details' }).click();
      await card.getByTestId('list-answers').waitFor();
      await expectNoHorizontalScroll(page, `/blacklist-monitoring at ${width} px`);
      await e2e.screenshot(page, `blacklist-monitoring-${width}`);

      await page.goto('/reputation-test');
      await page.getByTestId('ip-query-status').getByText('success').waitFor();
      expect(await page.getByTestId('ip-count').textContent()).toBe('1');
      await expectNoHorizontalScroll(page, `/reputation-test at ${width} px`);
      await e2e.screenshot(page, `reputation-test-${width}`);
    }
  }, 180_000);
});
