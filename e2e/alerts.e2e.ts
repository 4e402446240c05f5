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
  expect(scrollWidth, `${where}: ${scrollWidth} px wide in a ${clientWidth} px window`).toBeLessThanOrEqual(
    clientWidth,
  );
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
      (
        await page.request.post('/api/register', {
          data: { username: 'alerted', email: 'alerted@example.com', password: 'alerted pw 123' },
        })
      ).status(),
    ).toBe(200);
    await page.request.post('/api/user/complete-tour');
    // This story is the blocklist alert's: a sender score threshold below the listed IP's score (55-65)
    // keeps the evaluation's sender score condition quiet, so the listing is the one active alert.
    expect((await page.request.put('/api/alert-settings', { data: { reputationThreshold: 40 } })).status()).toBe(200);

    e2e.dns.zone[SPAMCOP_QUERY] = { A: ['127.0.0.2'], TXT: [`Blocked - see https://www.spamcop.net/bl.shtml?${IP}`] };
    expect(
      (
        await page.request.post('/api/ip-addresses', {
          data: { ipAddress: IP, label: 'Outbound 1', type: 'dedicated' },
        })
      ).status(),
    ).toBe(200);
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

  it('shows an authentication alert with its metadata in words, then says in its history that it resolved when the records pass', async () => {
    const page = await e2e.newPage(1280);
    const signup = { username: 'resolving', email: 'resolving@example.com', password: 'resolving pw 123' };
    expect((await page.request.post('/api/register', { data: signup })).status()).toBe(200);
    await page.request.post('/api/user/complete-tour');
    const domain = (await (
      await page.request.post('/api/domains', { data: { domain: 'resolving-brand.com' } })
    ).json()) as { id: number };
    // Nothing published yet: the first check finds every record missing, and the evaluation raises one alert for it.
    expect((await page.request.post(`/api/domains/${domain.id}/verify`)).status()).toBe(200);
    const raised = (
      await waitUntil(() => alerts(page), 'the authentication alert', {
        until: (list) => list.some((alert) => alert.type === 'authentication_failure'),
        timeoutMs: 60_000,
      })
    ).find((alert) => alert.type === 'authentication_failure')!;
    expect(raised.title).toBe('resolving-brand.com fails its authentication checks');

    await page.goto(`/alerts?alertId=${raised.id}`);
    const detail = page.getByTestId('alert-detail');
    const pairs = detail.getByTestId('metadata-pairs');
    await pairs.getByText('SPF', { exact: true }).waitFor();
    expect(
      await pairs.locator('dt', { hasText: /^SPF$/ }).locator('xpath=following-sibling::dd[1]').textContent(),
    ).toBe('missing');
    await detail.getByTestId('alert-open').waitFor();
    await detail.locator('[data-testid="history-entry"][data-event="raised"]').waitFor();

    e2e.dns.zone['resolving-brand.com'] = { TXT: ['v=spf1 ip4:93.184.216.0/24 -all'] };
    e2e.dns.zone['_dmarc.resolving-brand.com'] = { TXT: ['v=DMARC1; p=reject; rua=mailto:dmarc@resolving-brand.com'] };
    e2e.dns.zone['mail._domainkey.resolving-brand.com'] = {
      TXT: ['v=DKIM1; k=ed25519; p=' + Buffer.alloc(32, 7).toString('base64')],
    };
    expect(await (await page.request.post(`/api/domains/${domain.id}/verify`)).json()).toMatchObject({
      spfStatus: 'valid',
      dkimStatus: 'valid',
      dmarcStatus: 'valid',
    });
    await waitUntil(
      async () => (await (await page.request.get(`/api/alerts/${raised.id}`)).json()) as { resolvedAt: string | null },
      'the alert to resolve',
      {
        until: (alert) => alert.resolvedAt !== null,
        timeoutMs: 60_000,
      },
    );

    await page.reload();
    await detail.getByTestId('alert-resolved').waitFor();
    const resolved = detail.locator('[data-testid="history-entry"][data-event="resolved"]');
    await resolved.getByText('Resolved', { exact: true }).waitFor();
    expect(await resolved.textContent()).toContain('SPF, DKIM and DMARC of resolving-brand.com are all valid.');
    await e2e.screenshot(page, 'alert-resolved-1280');
  }, 180_000);
});
