import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DmarcReportList } from '../contracts/dmarc';
import { reportXml, type TestReport } from '../server/dmarc/report-xml.test-support';
import { waitUntil } from '../server/test/wait-until';
import { noBrowser, startE2EWithDns, type E2EWithDns } from './support/harness';

const INBOUND = 'in.e2e-inboxpulse.test';
const DOMAIN = 'forged-at.com';

// Claims to be Yahoo's, but the mail is not signed: anyone could have sent it.
const forged: TestReport = {
  orgName: 'yahoo.com',
  reportId: 'e2e-forged-1',
  domain: DOMAIN,
  begin: new Date(Date.parse(`${new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10)}T00:00:00Z`)),
  records: [{ ip: '203.0.113.50', count: 5000, dkim: 'fail', spf: 'fail' }],
};

let e2e: E2EWithDns;

describe.skipIf(noBrowser)('DMARC reports kept apart, in the browser', () => {
  beforeAll(async () => {
    e2e = await startE2EWithDns({ INBOUND_DOMAIN: INBOUND });
  });
  afterAll(() => e2e?.close());

  it('tells the owner an unsigned mailed report is kept apart, lists it under its filter and gives the reason', async () => {
    const page = await e2e.newPage();
    const registered = await page.request.post('/api/register', {
      data: { username: 'forgedfor', email: 'forgedfor@example.com', password: 'forged pw 123' },
    });
    expect(registered.status()).toBe(200);
    await page.request.post('/api/user/complete-tour');
    // Mailed reports reach only the owner of a verified domain: verified through the real API and DNS.
    const domain = await (await page.request.post('/api/domains', { data: { domain: DOMAIN } })).json();
    e2e.dns.zone[domain.verificationRecord.name] = { TXT: [domain.verificationRecord.value] };
    e2e.dns.zone[DOMAIN] = { TXT: ['v=spf1 -all'], A: ['192.0.2.81'] };
    expect((await (await page.request.post(`/api/domains/${domain.id}/verify`)).json()).isVerified).toBe(true);

    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: e2e.runtime.smtp!.port,
      secure: false,
      ignoreTLS: true,
    });
    await transport.sendMail({
      from: 'noreply-dmarc-support@yahoo.com',
      to: `dmarc@${INBOUND}`,
      subject: `Report Domain: ${DOMAIN} Submitter: yahoo.com Report-ID: ${forged.reportId}`,
      text: 'This is an aggregate report.',
      attachments: [{ filename: 'yahoo.xml', content: reportXml(forged) }],
    });
    transport.close();
    const apart = await waitUntil(
      async () =>
        DmarcReportList.parse(
          await (await page.request.get(`/api/dmarc/reports?domain=${DOMAIN}&sender=unauthenticated`)).json(),
        ),
      'the forged report to be stored apart',
      { until: (list) => list.total === 1 },
    );
    const reason = apart.items[0]!.unauthenticatedReason;
    expect(reason).toContain('yahoo.com');

    await page.goto('/domains');
    const card = page.locator(`[data-testid="domain-card"][data-domain="${DOMAIN}"]`);
    await card.getByRole('button', { name: 'Show DMARC reports' }).click();
    const panel = card.getByTestId('dmarc-panel');
    // Not counted: the figures stay empty and the how-to-get-reports guidance stays.
    await panel.getByTestId('rua-tag').waitFor();
    const note = panel.getByTestId('unauthenticated-reports-note');
    expect(await note.textContent()).toContain(
      '1 unauthenticated report is kept apart: it is not counted in your figures.',
    );

    await note.getByRole('button', { name: 'Show unauthenticated reports' }).click();
    expect(await panel.getByRole('combobox', { name: 'Filter by sender' }).inputValue()).toBe('unauthenticated');
    const row = panel.getByTestId('dmarc-report');
    await row.getByTestId('unauthenticated-report').waitFor();
    await e2e.screenshot(page, 'dmarc-unauthenticated-1440');

    await row.getByRole('button', { name: /^Open the report from yahoo.com/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Report from yahoo.com' });
    expect(await dialog.getByRole('note').textContent()).toBe(`${reason} Not counted in your figures.`);
  });
});
