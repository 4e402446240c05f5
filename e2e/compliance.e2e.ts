import { generateKeyPairSync } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noBrowser, startE2EWithDns, type E2EWithDns } from './support/harness';

/*
 * The compliance scorecard in the browser, for two domains whose inbox-test messages both carry one-click
 * unsubscribe headers: one signs List-Unsubscribe-Post with DKIM, the other leaves it out of the signature
 * (nodemailer's default signed fields, as many senders' setups do), which is why Gmail shows it no button.
 */

const INBOUND = 'in.e2e-inboxpulse.test';
const PASSING = 'oneclick-signed.com';
const FAILING = 'oneclick-unsigned.com';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicDer = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const ONE_CLICK_RULE = '[data-rule="gmail-bulk:one-click-unsubscribe"]';

let e2e: E2EWithDns;

/** The domain added and checked against the loopback zone: SPF lists loopback, a DKIM key, DMARC p=none. */
async function addCheckedDomain(page: Page, name: string): Promise<number> {
  e2e.dns.zone[name] = { TXT: ['v=spf1 ip4:127.0.0.1 -all'] };
  e2e.dns.zone[`s1._domainkey.${name}`] = { TXT: [`v=DKIM1; k=rsa; p=${publicDer}`] };
  e2e.dns.zone[`_dmarc.${name}`] = { TXT: ['v=DMARC1; p=none'] };
  const domain = await (await page.request.post('/api/domains', { data: { domain: name } })).json();
  expect((await page.request.post(`/api/domains/${domain.id}/verify`)).status()).toBe(200);
  return domain.id;
}

/** An inbox test's message From `name` with one-click headers, DKIM-signed with `signedFields` (nodemailer's default when absent). */
async function sendTestMessage(page: Page, domainId: number, name: string, signedFields?: string): Promise<void> {
  // The live one-click POST is turned off: these links' hosts do not exist, and what is under test is the headers.
  const test = await (
    await page.request.post('/api/inbox-tests', { data: { testType: 'automatic', oneClickUnsubscribeTest: false } })
  ).json();
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: e2e.runtime.smtp!.port,
    secure: false,
    ignoreTLS: true,
    name: `mta.${name}`,
    dkim: {
      domainName: name,
      keySelector: 's1',
      privateKey: privatePem,
      ...(signedFields ? { headerFieldNames: signedFields } : {}),
    },
  });
  await transport.sendMail({
    from: `News <news@${name}>`,
    envelope: { from: `bounce@${name}`, to: test.testEmailAddress },
    to: test.testEmailAddress,
    subject: `[TEST-${test.id}] Spring newsletter`,
    text: `Our spring newsletter. Unsubscribe: https://${name}/u`,
    list: { unsubscribe: { url: `https://${name}/u`, comment: 'Unsubscribe' } },
    headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  });
  transport.close();
  await expect
    .poll(
      async () => {
        const card = await (await page.request.get(`/api/domains/${domainId}/compliance`)).json();
        return card.rules.some((r: { evidence: { testId?: number }[] }) =>
          r.evidence.some((e) => e.testId === test.id),
        );
      },
      { timeout: 30_000, interval: 500 },
    )
    .toBe(true);
}

/** From the Domains page, the domain's menu, then Compliance: the way a user gets there. */
async function openScorecard(page: Page, name: string): Promise<void> {
  await page.goto('/domains');
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Compliance' }).click();
  await page.getByTestId('compliance-page').waitFor();
  await page.getByTestId('compliance-summary').getByText(name).waitFor();
}

describe.skipIf(noBrowser)('the compliance scorecard in the browser', () => {
  beforeAll(async () => {
    e2e = await startE2EWithDns({ INBOUND_DOMAIN: INBOUND });
  });
  afterAll(() => e2e?.close());

  it('shows one-click unsubscribe not met when List-Unsubscribe-Post is not signed, and met when it is', async () => {
    const page = await e2e.newPage();
    expect(
      (
        await page.request.post('/api/register', {
          data: { username: 'complier', email: 'complier@example.com', password: 'compliance pw 1' },
        })
      ).status(),
    ).toBe(200);
    await page.request.post('/api/user/complete-tour');
    const failingId = await addCheckedDomain(page, FAILING);
    const passingId = await addCheckedDomain(page, PASSING);
    await sendTestMessage(page, failingId, FAILING);
    await sendTestMessage(
      page,
      passingId,
      PASSING,
      'From:Subject:Date:Message-ID:To:MIME-Version:Content-Type:List-Unsubscribe:List-Unsubscribe-Post',
    );

    await openScorecard(page, FAILING);
    expect(page.url()).toMatch(new RegExp(`/domains/${failingId}/compliance$`));
    const failing = page.locator(ONE_CLICK_RULE);
    expect(await failing.getAttribute('data-verdict')).toBe('not_met');
    expect(await failing.textContent()).toContain(
      'no passing DKIM signature covers both List-Unsubscribe and List-Unsubscribe-Post',
    );
    expect(await failing.textContent()).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(await failing.getByRole('link', { name: 'Source' }).getAttribute('href')).toBe(
      'https://support.google.com/a/answer/81126',
    );
    // The rest of its authentication holds: the scorecard blames only what is wrong.
    expect(await page.locator('[data-rule="gmail-bulk:dmarc-aligned"]').getAttribute('data-verdict')).toBe('met');
    await e2e.screenshot(page, 'compliance-failing-1440');

    await openScorecard(page, PASSING);
    const passing = page.locator(ONE_CLICK_RULE);
    expect(await passing.getAttribute('data-verdict')).toBe('met');
    expect(await passing.textContent()).toContain(`both signed by d=${PASSING}`);
    expect(await page.locator('[data-rule="yahoo:one-click-unsubscribe"]').getAttribute('data-verdict')).toBe('met');
    await e2e.screenshot(page, 'compliance-passing-1440');

    // The dashboard counts what is not met across both domains, each linked to its scorecard.
    await page.goto('/dashboard');
    const card = page.getByTestId('compliance-card');
    await card.getByTestId('compliance-not-met').waitFor();
    expect(await card.getByRole('link', { name: FAILING }).getAttribute('href')).toBe(
      `/domains/${failingId}/compliance`,
    );

    const mobile = await e2e.newPage(390);
    await mobile.context().addCookies(await page.context().cookies());
    await mobile.goto(`/domains/${failingId}/compliance`);
    await mobile.getByTestId('compliance-page').waitFor();
    expect(await mobile.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await e2e.screenshot(mobile, 'compliance-390');
  }, 120_000);
});
