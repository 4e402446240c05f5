import { generateKeyPairSync } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { artifactsDir, noBrowser, startE2EWithDns, type E2EWithDns } from './support/harness';

const FLAKY = 'flaky-dns.io';
const NOKEY = 'nokey-brand.com';
/** One per user: the app caches DNS answers, so a second user's ownership record must sit at a name not yet asked. */
const longkeyDomain = (width: number) => `longkey${width}-brand.com`;
const WIDTHS = [1280, 390];
const SERVFAIL_MESSAGE = `DNS lookups for ${FLAKY} failed (ESERVFAIL); nothing was changed. Try again in a minute.`;
const rsaKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .publicKey.export({ type: 'spki', format: 'der' })
  .toString('base64');
const DKIM_RECORD = `v=DKIM1; k=rsa; p=${rsaKey}`;

let e2e: E2EWithDns;

const card = (page: Page, domain: string) => page.locator(`[data-testid="domain-card"][data-domain="${domain}"]`);

/** What the user sees at that moment (the harness's screenshots are full pages, too tall to read at 390 px). */
async function viewport(page: Page, name: string) {
  await page.screenshot({ path: path.join(artifactsDir, `${name}.png`) });
}

/** Nothing sticks out sideways: the page does not scroll horizontally. */
async function expectNoSideways(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

describe.skipIf(noBrowser)('Verify DNS in the browser', () => {
  beforeAll(async () => {
    e2e = await startE2EWithDns();
    e2e.dns.servfail.add(FLAKY);
    // Resolves, but publishes no SPF, DKIM or DMARC: Critical.
    e2e.dns.zone[NOKEY] = { A: ['192.0.2.20'] };
    // Everything right, with a 2048-bit key: a long record to show.
    for (const domain of WIDTHS.map(longkeyDomain)) {
      e2e.dns.zone[domain] = { TXT: ['v=spf1 ip4:192.0.2.0/24 -all'], A: ['192.0.2.21'] };
      e2e.dns.zone[`_dmarc.${domain}`] = { TXT: [`v=DMARC1; p=reject; rua=mailto:dmarc@${domain}`] };
      e2e.dns.zone[`google._domainkey.${domain}`] = { TXT: [DKIM_RECORD] };
    }
  });
  afterAll(() => e2e?.close());

  /** A new user (signed in on the page) with the three domains; the long-key one's ownership published. */
  async function userWithDomains(width: number): Promise<Page> {
    const page = await e2e.newPage(width);
    const name = `verifier${width}`;
    expect(
      (
        await page.request.post('/api/register', {
          data: { username: name, email: `${name}@example.com`, password: 'verify pw 123' },
        })
      ).status(),
    ).toBe(200);
    await page.request.post('/api/user/complete-tour');
    for (const domain of [FLAKY, NOKEY, longkeyDomain(width)]) {
      const added = await (await page.request.post('/api/domains', { data: { domain } })).json();
      if (domain === longkeyDomain(width))
        e2e.dns.zone[added.verificationRecord.name] = { TXT: [added.verificationRecord.value] };
    }
    return page;
  }

  it.each(WIDTHS)(
    'at %i px: says why a check failed, names the problems, lists the DKIM selectors tried, cuts long keys',
    async (width) => {
      const longkeyName = longkeyDomain(width);
      const page = await userWithDomains(width);
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.goto('/domains');
      await card(page, longkeyName).waitFor();
      const toasts = page.getByRole('region', { name: /^Notifications/ });

      // SERVFAIL: the server's sentence, not a generic failure.
      await card(page, FLAKY).getByRole('button', { name: 'Verify DNS' }).click();
      await toasts.getByText(SERVFAIL_MESSAGE).waitFor();
      expect(await toasts.getByText('Verification Failed').count()).toBe(1);
      expect(await toasts.getByText('Failed to verify domain DNS records').count()).toBe(0);
      await e2e.screenshot(page, `domains-verify-servfail-${width}`);
      await card(page, FLAKY).scrollIntoViewIfNeeded();
      await viewport(page, `domains-verify-servfail-${width}-view`);
      expect(await card(page, FLAKY).getByTestId('domain-status').textContent()).toContain('Pending');

      // Critical: the title names the problems; the details open with the selectors tried.
      const nokey = card(page, NOKEY);
      await nokey.getByRole('button', { name: 'Verify DNS' }).click();
      await toasts.getByText('Critical: no SPF record, no DKIM key found, no DMARC record').waitFor();
      expect(await toasts.getByText('DNS Verification Complete').count()).toBe(0);
      await nokey.getByTestId('domain-status').getByText('Critical').waitFor();
      const dkim = nokey.getByTestId('check-dkim');
      await dkim
        .getByText(
          /We tried 13 common selectors \(default, google, selector1, selector2, k1, k2, s1, s2, dkim, mail, smtp, mandrill, mxvault\)/,
        )
        .waitFor();
      await dkim.getByText(/the s= tag of its DKIM-Signature header\) and add it under Edit Domain/).waitFor();
      expect(await dkim.getByRole('list', { name: 'DKIM selectors tried' }).getByRole('listitem').count()).toBe(13);
      await expectNoSideways(page, width);
      await e2e.screenshot(page, `domains-verify-critical-${width}`);
      await dkim.scrollIntoViewIfNeeded();
      await viewport(page, `domains-verify-critical-${width}-view`);

      // Healthy: the spec's title; the 2048-bit key wraps inside the card and copies whole.
      const longkey = card(page, longkeyName);
      await longkey.getByRole('button', { name: 'Verify DNS' }).click();
      await toasts.getByText(`${longkeyName}: Verified`, { exact: true }).waitFor();
      expect(await toasts.getByText('DNS Verification Complete').count()).toBe(1);
      await longkey.getByTestId('domain-status').getByText('Verified').waitFor();
      await longkey.getByRole('button', { name: 'Show DNS check details' }).click();
      const selector = longkey.locator('[data-testid="dkim-selector"][data-selector="google"]');
      // One line cut with an ellipsis, whole in its tooltip; shown once, with its selector, not again as the check's
      // record.
      const record = selector.getByTitle(DKIM_RECORD);
      expect(await record.textContent()).toBe(DKIM_RECORD);
      expect((await record.boundingBox())!.height).toBeLessThan(24);
      expect(await longkey.getByTestId('check-dkim').getByText(DKIM_RECORD).count()).toBe(1);
      const copy = selector.getByRole('button', { name: 'Copy DKIM record google._domainkey' });
      const [recordBox, copyBox, cardBox] = [
        await record.boundingBox(),
        await copy.boundingBox(),
        await longkey.boundingBox(),
      ];
      expect(recordBox!.x + recordBox!.width).toBeLessThanOrEqual(copyBox!.x + 1);
      expect(copyBox!.x + copyBox!.width).toBeLessThanOrEqual(cardBox!.x + cardBox!.width);
      expect(cardBox!.x + cardBox!.width).toBeLessThanOrEqual(width);
      await copy.click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(DKIM_RECORD);
      await expectNoSideways(page, width);
      await e2e.screenshot(page, `domains-verify-longkey-${width}`);
      await selector.scrollIntoViewIfNeeded();
      await viewport(page, `domains-verify-longkey-${width}-view`);
      await page.context().close();
    },
  );
});
