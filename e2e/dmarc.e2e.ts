import { generateKeyPairSync } from 'node:crypto';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportXml, type TestReport } from '../server/dmarc/report-xml.test-support';
import { waitUntil } from '../server/test/wait-until';
import { noBrowser, startE2EWithDns, type E2EWithDns } from './support/harness';

const INBOUND = 'in.e2e-inboxpulse.test';
const DOMAIN = 'dmarc-brand.com';
const DAY = 24 * 3600 * 1000;
const midnight = (daysAgo: number) =>
  new Date(Date.parse(`${new Date(Date.now() - daysAgo * DAY).toISOString().slice(0, 10)}T00:00:00Z`));

const uploaded: TestReport = {
  orgName: 'google.com',
  reportId: 'e2e-upload-1',
  domain: DOMAIN,
  begin: midnight(3),
  records: [
    { ip: '198.51.100.10', count: 950, dkim: 'pass', spf: 'pass' },
    { ip: '192.0.2.66', count: 50, dkim: 'fail', spf: 'fail' },
  ],
};
const mailed: TestReport = {
  orgName: 'yahoo.com',
  reportId: 'e2e-mail-1',
  domain: DOMAIN,
  begin: midnight(2),
  records: [{ ip: '198.51.100.10', count: 200, dkim: 'pass', spf: 'pass' }],
};

let e2e: E2EWithDns;

describe.skipIf(noBrowser)('DMARC reports in the browser', () => {
  beforeAll(async () => {
    e2e = await startE2EWithDns({ INBOUND_DOMAIN: INBOUND });
  });
  afterAll(() => e2e?.close());

  it('shows the report address, imports an uploaded report and one mailed to the inbound listener', async () => {
    const page = await e2e.newPage();
    expect(
      (
        await page.request.post('/api/register', {
          data: { username: 'dmarcer', email: 'dmarcer@example.com', password: 'dmarc pw 123' },
        })
      ).status(),
    ).toBe(200);
    await page.request.post('/api/user/complete-tour');
    // The domain is added and its ownership verified through the real API and DNS: mailed reports only reach verified
    // owners.
    const domain = await (await page.request.post('/api/domains', { data: { domain: DOMAIN } })).json();
    expect(domain).toMatchObject({ domain: DOMAIN });
    e2e.dns.zone[domain.verificationRecord.name] = { TXT: [domain.verificationRecord.value] };
    e2e.dns.zone[DOMAIN] = { TXT: ['v=spf1 -all'], A: ['192.0.2.80'] };
    expect((await (await page.request.post(`/api/domains/${domain.id}/verify`)).json()).isVerified).toBe(true);

    await page.goto('/domains');
    const card = page.locator(`[data-testid="domain-card"][data-domain="${DOMAIN}"]`);
    await card.getByRole('button', { name: 'Show DMARC reports' }).click();
    const panel = card.getByTestId('dmarc-panel');
    expect(await panel.getByTestId('rua-tag').textContent()).toBe(`rua=mailto:dmarc@${INBOUND}`);

    await panel
      .getByLabel('DMARC report file')
      .setInputFiles({ name: 'google.xml', mimeType: 'application/xml', buffer: Buffer.from(reportXml(uploaded)) });
    await page.getByText('DMARC report uploaded').first().waitFor();
    const figures = panel.getByTestId('dmarc-figures');
    await figures.getByText('95.0%').waitFor();
    expect(await panel.getByTestId('dmarc-threat').count()).toBe(1);
    expect(await panel.getByTestId('dmarc-threat').first().textContent()).toContain('192.0.2.66');

    // A reporter mails its report to the address the panel showed, signed with its DKIM key (published in the test
    // zone), as Yahoo signs its reports: a report whose mail proves nothing is kept apart, not counted.
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    e2e.dns.zone['s2048._domainkey.yahoo.com'] = {
      TXT: [`v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`],
    };
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: e2e.runtime.smtp!.port,
      secure: false,
      ignoreTLS: true,
    });
    await transport.sendMail({
      from: 'noreply-dmarc-support@yahoo.com',
      to: `dmarc@${INBOUND}`,
      subject: `Report Domain: ${DOMAIN} Submitter: yahoo.com Report-ID: ${mailed.reportId}`,
      text: 'This is an aggregate report.',
      attachments: [{ filename: 'yahoo.xml', content: reportXml(mailed) }],
      dkim: {
        domainName: 'yahoo.com',
        keySelector: 's2048',
        privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      },
    });
    transport.close();
    const imported = await waitUntil(
      async () => (await (await page.request.get(`/api/dmarc/reports?domain=${DOMAIN}`)).json()).total as number,
      'the mailed report to be imported',
      { until: (total) => total >= 2 },
    );
    expect(imported).toBe(2);
    await page.reload();
    await card.getByRole('button', { name: 'Show DMARC reports' }).click();
    const reporters = panel.getByTestId('dmarc-reporter');
    await reporters.filter({ hasText: 'yahoo.com' }).waitFor();
    expect(await reporters.count()).toBe(2);
    // (950 + 200) of 1200 messages passed: 95.83%, shown to one decimal.
    await panel.getByTestId('dmarc-figures').getByText('95.8%').waitFor();
    await e2e.screenshot(page, 'dmarc-1440');

    const mobile = await e2e.newPage(390);
    await mobile.context().addCookies(await page.context().cookies());
    await mobile.goto('/domains');
    await mobile
      .locator(`[data-testid="domain-card"][data-domain="${DOMAIN}"]`)
      .getByRole('button', { name: 'Show DMARC reports' })
      .click();
    await mobile.getByTestId('dmarc-figures').waitFor();
    expect(await mobile.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await e2e.screenshot(mobile, 'dmarc-390');
  });
});
