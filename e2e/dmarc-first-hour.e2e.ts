import { generateKeyPairSync } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportXml, type TestReport } from '../server/dmarc/report-xml.test-support';
import { noBrowser, startE2EWithDns, type E2EWithDns } from './support/harness';

/*
 * A new user's first hour with DMARC (issue 13): the record the setup card suggests sends reports to
 * our address and leaves the domain healthy; one report address everywhere; failed imports and
 * reports for domains the user has not added show once, at account level; the recommendations say
 * which source to fix and how, and the Source column names the sender.
 */

const INBOUND = 'in.dmarc-first-hour.test';
const DOMAIN = 'first-hour-brand.com';
const OTHER = 'second-brand.com';
const DAY = 24 * 3600 * 1000;
const midnight = (daysAgo: number) =>
  new Date(Date.parse(`${new Date(Date.now() - daysAgo * DAY).toISOString().slice(0, 10)}T00:00:00Z`));
const dkimKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .publicKey.export({ type: 'spki', format: 'der' })
  .toString('base64');

const sourcesReport: TestReport = {
  orgName: 'google.com',
  reportId: 'first-hour-sources',
  domain: DOMAIN,
  p: 'quarantine',
  begin: midnight(1),
  records: [
    // SendGrid signs as the domain, but bounces to its own domain: DKIM passes aligned, SPF never.
    {
      ip: '198.51.100.7',
      count: 500,
      dkim: 'pass',
      spf: 'fail',
      dkimAuth: [{ domain: DOMAIN, result: 'pass' }],
      spfAuth: [{ domain: 'em123.sendgrid.net', result: 'pass' }],
    },
    // The domain's own server: in its SPF, signing nothing. No reverse DNS.
    { ip: '203.0.113.20', count: 300, dkim: 'fail', spf: 'pass', spfAuth: [{ domain: DOMAIN, result: 'pass' }] },
  ],
};
const foreignReport: TestReport = {
  orgName: 'google.com',
  reportId: 'first-hour-foreign',
  domain: 'example.de',
  begin: midnight(2),
  records: [{ ip: '198.51.100.9', count: 40, dkim: 'pass', spf: 'pass' }],
};

let e2e: E2EWithDns;
let page: Page;

const card = (name: string) => page.locator(`[data-testid="domain-card"][data-domain="${name}"]`);

async function openPanel(name: string) {
  await card(name).getByRole('button', { name: 'Show DMARC reports' }).click();
  const panel = card(name).getByTestId('dmarc-panel');
  await panel.waitFor();
  return panel;
}

async function upload(name: string, fileName: string, content: string) {
  await card(name)
    .getByLabel('DMARC report file')
    .setInputFiles({ name: fileName, mimeType: 'application/xml', buffer: Buffer.from(content) });
}

describe.skipIf(noBrowser)('DMARC in a new user’s first hour', () => {
  beforeAll(async () => {
    e2e = await startE2EWithDns({ INBOUND_DOMAIN: INBOUND });
    // Reverse DNS of the ESP's sending IP, as a real SendGrid IP has.
    e2e.dns.zone['7.100.51.198.in-addr.arpa'] = { PTR: ['o1.ptr4821.sendgrid.net'] };
    page = await e2e.newPage(1280);
    expect(
      (
        await page.request.post('/api/register', {
          data: { username: 'firsthour', email: 'firsthour@example.com', password: 'first hour pw 1' },
        })
      ).status(),
    ).toBe(200);
    await page.request.post('/api/user/complete-tour');
  });
  afterAll(() => e2e?.close());

  it('following the DMARC advice leaves the domain healthy, with a warning for the operator, and Create Test allowed', async () => {
    await page.goto('/domains');
    await page.getByRole('button', { name: 'Add Your First Domain' }).click();
    await page.getByTestId('add-domain-form').getByRole('textbox').fill(DOMAIN);
    await page
      .getByTestId('add-domain-form')
      .getByRole('button', { name: /add domain/i })
      .click();
    await card(DOMAIN).waitFor();

    // The user publishes exactly what the setup card suggests: its DMARC record reports to our address.
    const dmarcGroup = card(DOMAIN).getByRole('group', { name: 'DMARC record (TXT)' });
    const suggested = dmarcGroup.getByText(/^v=DMARC1; p=quarantine; rua=mailto:/);
    await suggested.waitFor();
    const record = (await suggested.textContent())!.trim();
    expect(record).toBe(`v=DMARC1; p=quarantine; rua=mailto:dmarc@${INBOUND}`);
    const [domain] = await (await page.request.get('/api/domains')).json();
    e2e.dns.zone[domain.verificationRecord.name] = { TXT: [domain.verificationRecord.value] };
    e2e.dns.zone[DOMAIN] = { TXT: ['v=spf1 include:_spf.google.com ~all'], A: ['192.0.2.80'] };
    e2e.dns.zone['_spf.google.com'] = { TXT: ['v=spf1 ip4:192.0.2.0/24 ~all'] };
    e2e.dns.zone[`default._domainkey.${DOMAIN}`] = { TXT: [`v=DKIM1; k=rsa; p=${dkimKey}`] };
    e2e.dns.zone[`_dmarc.${DOMAIN}`] = { TXT: [record] };

    await card(DOMAIN)
      .getByRole('button', { name: /verify dns/i })
      .click();
    await card(DOMAIN).getByTestId('domain-status').getByText('Verified').waitFor();
    await card(DOMAIN).getByRole('button', { name: 'Show DNS check details' }).click();
    const dmarcCheck = card(DOMAIN).getByTestId('check-dmarc');
    const finding = dmarcCheck.getByTestId('finding').filter({ hasText: 'has not authorized receiving DMARC reports' });
    await finding.waitFor();
    expect(await finding.getAttribute('data-severity')).toBe('warning');
    expect(await finding.getByTestId('finding-fix').textContent()).toContain(`*._report._dmarc.${INBOUND}`);

    await page.goto('/inbox-placement');
    await page.getByTestId('create-test').waitFor();
    await page.waitForFunction(
      () => !(document.querySelector('[data-testid="create-test"]') as HTMLButtonElement | null)?.disabled,
    );
    await page.getByTestId('create-test').click();
    await page.getByText('Test Created').first().waitFor();
  });

  it('shows one report address, names the sources and says which one to fix and how', async () => {
    await page.goto('/domains');
    const panel = await openPanel(DOMAIN);
    // The address in the panel is the one the setup card gave.
    expect(await panel.getByTestId('rua-tag').textContent()).toBe(`rua=mailto:dmarc@${INBOUND}`);

    await upload(DOMAIN, 'google.xml', reportXml(sourcesReport));
    await page.getByText('DMARC report uploaded').first().waitFor();
    const sources = panel.getByTestId('dmarc-source');
    await sources.first().waitFor();
    expect(await sources.nth(0).locator('td').first().textContent()).toContain('SendGrid');
    expect(await sources.nth(0).locator('td').first().textContent()).not.toContain('198.51.100.7');
    expect(await sources.nth(1).locator('td').first().textContent()).toContain('Unknown sender');
    const advice = panel.getByRole('list', { name: 'Recommendations' });
    await advice
      .getByText(
        /^Source 198\.51\.100\.7 \(SendGrid, sendgrid\.net\) passes DKIM but 0% SPF alignment: .*custom return-path/,
      )
      .waitFor();
    await advice
      .getByText(
        /^Source 203\.0\.113\.20 passes SPF but 0% DKIM alignment: set up DKIM signing with d=first-hour-brand\.com/,
      )
      .waitFor();
    expect(await panel.getByText('Nothing to change right now.').count()).toBe(0);
  });

  it('shows failed imports once, at account level, and offers to add a domain whose reports arrived', async () => {
    await page.request.post('/api/domains', { data: { domain: OTHER } });
    await page.goto('/domains');
    await openPanel(DOMAIN);
    await upload(DOMAIN, 'not-a-report.xml', '<html><body>an invoice</body></html>');
    await page.getByText('Upload failed').first().waitFor();

    const imports = page.getByTestId('dmarc-imports');
    await imports.getByRole('heading', { name: 'DMARC report imports' }).waitFor();
    const failed = imports.getByRole('region', { name: 'Files that could not be imported' });
    await failed.getByText('not-a-report.xml').waitFor();
    // Under no domain: neither the one it was uploaded from nor the other.
    const otherPanel = await openPanel(OTHER);
    await otherPanel.getByText('No reports for this domain yet.').waitFor();
    for (const name of [DOMAIN, OTHER]) expect(await card(name).getByText('not-a-report.xml').count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Files that could not be imported' }).count()).toBe(1);
    expect(await failed.getByTestId('dmarc-report').count()).toBe(1);

    await upload(DOMAIN, 'example-de.xml', reportXml(foreignReport));
    await page
      .getByText(/Also imported reports for example\.de, which is not one of your domains/)
      .first()
      .waitFor();
    const offer = imports.locator('[data-testid="report-domain"][data-domain="example.de"]');
    await offer.waitFor();
    await e2e.screenshot(page, 'dmarc-first-hour-1280');

    const mobile = await e2e.newPage(390);
    await mobile.context().addCookies(await page.context().cookies());
    await mobile.goto('/domains');
    await mobile
      .locator(`[data-testid="domain-card"][data-domain="${DOMAIN}"]`)
      .getByRole('button', { name: 'Show DMARC reports' })
      .click();
    await mobile.getByTestId('dmarc-figures').waitFor();
    await mobile.getByTestId('dmarc-imports').locator('[data-testid="report-domain"]').waitFor();
    expect(await mobile.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await e2e.screenshot(mobile, 'dmarc-first-hour-390');

    await offer.getByRole('button', { name: 'Add example.de' }).click();
    await page.getByText('Domain Added').first().waitFor();
    await card('example.de').waitFor();
    await offer.waitFor({ state: 'detached' });
    // Its reports are now under its own card.
    const dePanel = await openPanel('example.de');
    await dePanel.getByTestId('dmarc-report').first().waitFor();
  });
});
