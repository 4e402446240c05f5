import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noBrowser, startE2EWithDns, type E2EWithDns } from './support/harness';

let e2e: E2EWithDns;

describe.skipIf(noBrowser)('domain management in the browser', () => {
  beforeAll(async () => {
    e2e = await startE2EWithDns();
  });
  afterAll(() => e2e?.close());

  it('adds a domain, publishes its records, verifies it and sees it healthy on the dashboard', async () => {
    const page = await e2e.newPage();
    expect(
      (
        await page.request.post('/api/register', {
          data: { username: 'domainer', email: 'domainer@example.com', password: 'domain pw 123' },
        })
      ).status(),
    ).toBe(200);
    await page.request.post('/api/user/complete-tour');
    await page.goto('/domains');
    await page.getByText('No domains added yet').waitFor();
    await page.getByRole('button', { name: 'Add Your First Domain' }).click();
    await page.getByTestId('add-domain-form').getByRole('textbox').fill('  Shop.Example-Brand.com ');
    await page
      .getByTestId('add-domain-form')
      .getByRole('button', { name: /add domain/i })
      .click();
    const card = page.locator('[data-testid="domain-card"][data-domain="shop.example-brand.com"]');
    await card.waitFor();
    expect(await card.getByTestId('domain-status').textContent()).toContain('Pending');

    // Publish what the setup instructions ask for, in the DNS the server queries.
    const [domain] = await (await page.request.get('/api/domains')).json();
    e2e.dns.zone['shop.example-brand.com'] = { TXT: ['v=spf1 include:_spf.google.com ~all'], A: ['192.0.2.80'] };
    e2e.dns.zone['_spf.google.com'] = { TXT: ['v=spf1 ip4:192.0.2.0/24 ~all'] };
    e2e.dns.zone['_dmarc.shop.example-brand.com'] = {
      TXT: ['v=DMARC1; p=quarantine; rua=mailto:dmarc@shop.example-brand.com'],
    };
    e2e.dns.zone['google._domainkey.shop.example-brand.com'] = {
      TXT: ['v=DKIM1; k=ed25519; p=' + Buffer.alloc(32, 1).toString('base64')],
    };
    e2e.dns.zone[domain.verificationRecord.name] = { TXT: [domain.verificationRecord.value] };

    await card.getByRole('button', { name: /verify dns/i }).click();
    await page.getByText('DNS Verification Complete').first().waitFor();
    await card.getByTestId('domain-status').getByText('Verified').waitFor();
    await e2e.screenshot(page, 'domains-1440');

    await page.goto('/');
    await page.getByTestId('dashboard-source-select').selectOption('domain-health');
    await page.getByTestId('dashboard-view-domain-health').getByText('shop.example-brand.com').first().waitFor();
  });
});
