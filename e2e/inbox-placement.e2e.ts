import { generateKeyPairSync } from 'node:crypto';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noBrowser, startE2EWithDns, type E2EWithDns } from './support/harness';

const INBOUND = 'in.e2e-inboxpulse.test';
const DOMAIN = 'placement-brand.com';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicDer = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

let e2e: E2EWithDns;

describe.skipIf(noBrowser)('inbox placement testing in the browser', () => {
  beforeAll(async () => {
    e2e = await startE2EWithDns({ INBOUND_DOMAIN: INBOUND });
  });
  afterAll(() => e2e?.close());

  it('creates a test, receives its e-mail over SMTP, and shows where it landed and why', async () => {
    const page = await e2e.newPage();
    expect(
      (
        await page.request.post('/api/register', {
          data: { username: 'placer', email: 'placer@example.com', password: 'placement pw 1' },
        })
      ).status(),
    ).toBe(200);
    await page.request.post('/api/user/complete-tour');

    await page.goto('/inbox-placement');
    const create = page.getByTestId('create-test');
    await create.waitFor();
    // No healthy domain yet: the button waits for one.
    expect(await create.isDisabled()).toBe(true);
    await page.getByText('Add and verify at least one domain to start testing').waitFor();

    // The sending domain passes its DNS checks (real API, loopback DNS): SPF lists loopback, DKIM key, DMARC.
    e2e.dns.zone[DOMAIN] = { TXT: ['v=spf1 ip4:127.0.0.1 -all'] };
    e2e.dns.zone[`default._domainkey.${DOMAIN}`] = { TXT: [`v=DKIM1; k=rsa; p=${publicDer}`] };
    e2e.dns.zone[`_dmarc.${DOMAIN}`] = { TXT: ['v=DMARC1; p=reject'] };
    const domain = await (await page.request.post('/api/domains', { data: { domain: DOMAIN } })).json();
    expect((await (await page.request.post(`/api/domains/${domain.id}/verify`)).json()).status).toBe('healthy');

    await page.reload();
    await create.waitFor();
    await page.waitForFunction(
      () => !(document.querySelector('[data-testid="create-test"]') as HTMLButtonElement | null)?.disabled,
    );
    await create.click();
    await page.getByText('Test Created').first().waitFor();
    const [test] = await (await page.request.get('/api/inbox-tests')).json();
    const card = page.getByTestId(`inbox-test-${test.id}`);
    await card.waitFor();
    expect(await card.textContent()).toContain(test.testEmailAddress);
    expect(await card.textContent()).toContain(`[TEST-${test.id}]`);

    // The user sends a real, DKIM-signed e-mail to the address the page shows.
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: e2e.runtime.smtp!.port,
      secure: false,
      ignoreTLS: true,
      name: `mta.${DOMAIN}`,
      dkim: { domainName: DOMAIN, keySelector: 'default', privateKey: privatePem },
    });
    await transport.sendMail({
      from: `Placement Brand <news@${DOMAIN}>`,
      envelope: { from: `bounce@${DOMAIN}`, to: test.testEmailAddress },
      to: test.testEmailAddress,
      subject: `[TEST-${test.id}] Autumn newsletter`,
      text: 'Our autumn newsletter. Unsubscribe at https://placement-brand.com/u',
      html: '<h1>Autumn newsletter</h1><p>Our autumn collection is in. <a href="https://placement-brand.com/autumn">Have a look</a>.</p>',
      list: { unsubscribe: { url: 'https://placement-brand.com/u', comment: 'Unsubscribe' } },
      headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
    transport.close();

    // The page polls while the test is open: its badge turns to completed without a reload.
    const status = page.getByTestId(`inbox-test-status-${test.id}`);
    await page.waitForFunction(
      (id) => /completed/i.test(document.querySelector(`[data-testid="inbox-test-status-${id}"]`)?.textContent ?? ''),
      test.id,
      {
        timeout: 30_000,
      },
    );
    expect((await status.textContent())?.toLowerCase()).toContain('completed');

    await page.getByTestId(`view-results-${test.id}`).click();
    const results = page.getByTestId(`inbox-test-results-${test.id}`);
    await results.waitFor();
    const report = await (await page.request.get(`/api/inbox-tests/${test.id}/report`)).json();
    expect(report.authentication.dmarc.result).toBe('pass');
    await page.getByTestId(`inbox-test-score-${test.id}`).getByText(String(report.score), { exact: false }).waitFor();
    expect(await results.textContent()).toContain('InboxPulse analyser');
    expect(await results.textContent()).toContain('100%');
    await e2e.screenshot(page, 'inbox-placement-1440');

    const mobile = await e2e.newPage(390);
    await mobile.context().addCookies(await page.context().cookies());
    await mobile.goto('/inbox-placement');
    await mobile.getByTestId(`inbox-test-${test.id}`).waitFor();
    await mobile.getByTestId(`view-results-${test.id}`).click();
    await mobile.getByTestId(`inbox-test-results-${test.id}`).waitFor();
    expect(await mobile.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await e2e.screenshot(mobile, 'inbox-placement-390');
  });
});
