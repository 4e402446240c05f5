import { generateKeyPairSync } from 'node:crypto';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlert } from '../server/alerts/alerts.repo';
import { recheckDomain } from '../server/domains/domain-checks.service';
import { findDomainById } from '../server/domains/domains.repo';
import { createResolver } from '../server/platform/dns/resolver';
import { noBrowser, startE2EWithDns, type E2EWithDns } from './support/harness';

// A new user's first hour (issue 13): Verify DNS, a DKIM key rotated, a domain that fails its first
// check, two inbox tests (one junked, one delivered), seen at phone and laptop widths.

const INBOUND = 'in.first-hour.test';
const DOMAIN = 'first-hour-brand.com';
const BROKEN = 'first-hour-broken.com';

function rsaKeys() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    /** 392 characters: the key that once made the dashboard 3,792 px wide. */
    publicDer: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}
const firstKey = rsaKeys();
const rotatedKey = rsaKeys();

let e2e: E2EWithDns;
let counter = 0;

async function signUpIn(page: Page): Promise<number> {
  counter++;
  const res = await page.request.post('/api/register', {
    data: { username: `firsthour${counter}`, email: `firsthour${counter}@example.com`, password: 'first hour pw 1' },
  });
  expect(res.status()).toBe(200);
  await page.request.post('/api/user/complete-tour');
  return (await res.json()).user.id;
}

async function addAndVerify(page: Page, name: string): Promise<{ id: number; status: string }> {
  const { id } = await (await page.request.post('/api/domains', { data: { domain: name } })).json();
  const res = await page.request.post(`/api/domains/${id}/verify`);
  expect(res.status()).toBe(200);
  return { id, status: (await res.json()).status };
}

/** The user's alerts once there are `count` of them: conditions are raised by the evaluation job, just after the change. */
async function waitForAlerts(
  page: Page,
  count: number,
): Promise<{ id: number; title: string; message: string; type: string }[]> {
  for (let tries = 0; ; tries++) {
    const alerts = (await (await page.request.get('/api/alerts')).json()) as {
      id: number;
      title: string;
      message: string;
      type: string;
    }[];
    if (alerts.length >= count || tries >= 100) return alerts;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
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

interface TestRow {
  id: number;
  status: string;
  testEmailAddress: string;
  subjectTag: string;
  inboxCount: number;
  spamCount: number;
}

/** Creates an inbox test through the API, mails it over SMTP and waits for the worker to complete it. */
async function runInboxTest(page: Page, raw: (test: TestRow) => Promise<Buffer>): Promise<TestRow> {
  const created = await page.request.post('/api/inbox-tests', { data: { testType: 'automatic' } });
  expect(created.status()).toBe(200);
  const test = (await created.json()) as TestRow;
  const relay = nodemailer.createTransport({
    host: '127.0.0.1',
    port: e2e.runtime.smtp!.port,
    secure: false,
    ignoreTLS: true,
    name: `mta.${DOMAIN}`,
  });
  await relay.sendMail({ envelope: { from: `bounce@${DOMAIN}`, to: test.testEmailAddress }, raw: await raw(test) });
  relay.close();
  for (let i = 0; i < 60; i++) {
    const tests = (await (await page.request.get('/api/inbox-tests')).json()) as TestRow[];
    const now = tests.find((t) => t.id === test.id)!;
    if (now.status === 'completed') return now;
    await page.waitForTimeout(500);
  }
  throw new Error(`inbox test ${test.id} did not complete`);
}

async function message(options: SendMailOptions, dkim = true): Promise<Buffer> {
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    ...(dkim ? { dkim: { domainName: DOMAIN, keySelector: 'default', privateKey: rotatedKey.privatePem } } : {}),
  });
  return (await transport.sendMail(options)).message as Buffer;
}

describe.skipIf(noBrowser)('a new user’s first hour on the dashboard', () => {
  beforeAll(async () => {
    e2e = await startE2EWithDns({ INBOUND_DOMAIN: INBOUND });
  });
  afterAll(() => e2e?.close());

  it('reads long alerts without scrolling sideways at 390 and 1280 px, and colours rates by value', async () => {
    const page = await e2e.newPage(1280);
    const userId = await signUpIn(page);

    // A healthy domain's first check is quiet. It runs as the hourly job of another worker would, with
    // that worker's resolver, so Verify DNS here meets the rotated key without waiting out the TXT cache.
    e2e.dns.zone[DOMAIN] = { TXT: ['v=spf1 ip4:127.0.0.1 -all'] };
    e2e.dns.zone[`default._domainkey.${DOMAIN}`] = { TXT: [`v=DKIM1; k=rsa; p=${firstKey.publicDer}`] };
    e2e.dns.zone[`_dmarc.${DOMAIN}`] = { TXT: ['v=DMARC1; p=reject'] };
    const { id: goodId } = await (await page.request.post('/api/domains', { data: { domain: DOMAIN } })).json();
    const otherWorker = createResolver({ servers: [e2e.dns.address], maxCacheSeconds: 0 });
    const db = e2e.runtime.database.db;
    expect(
      (await recheckDomain({ db, dns: otherWorker, jobs: e2e.runtime.jobs }, (await findDomainById(db, goodId))!))
        .status,
    ).toBe('healthy');
    expect(await (await page.request.get('/api/alerts')).json()).toEqual([]);
    // The key is rotated; the user presses Verify DNS.
    e2e.dns.zone[`default._domainkey.${DOMAIN}`] = { TXT: [`v=DKIM1; k=rsa; p=${rotatedKey.publicDer}`] };
    const verified = await page.request.post(`/api/domains/${goodId}/verify`);
    expect(verified.status()).toBe(200);
    expect((await verified.json()).status).toBe('healthy');
    // A second domain with nothing published fails its first check, and the evaluation it queues says so.
    expect((await addAndVerify(page, BROKEN)).status).toBe('error');

    // The broken domain also fails the bulk-sender rules: one compliance alert for it (ADR 055).
    const all = await waitForAlerts(page, 3);
    expect(all.filter((a) => a.type === 'compliance').map((a) => a.title)).toEqual([
      expect.stringMatching(new RegExp(`^${BROKEN.replaceAll('.', '\\.')} does not meet \\d+ bulk-sender rules`)),
    ]);
    const alerts = all.filter((a) => a.type !== 'compliance');
    expect(alerts.map((a) => a.title).sort()).toEqual([
      `DKIM record changed for ${DOMAIN}`,
      `${BROKEN} fails its authentication checks`,
    ]);
    const rotated = alerts.find((a) => a.title.startsWith('DKIM'))!;
    expect(rotated.message).toMatch(
      /^The DKIM key at selector default changed from a 2048-bit RSA key \(SHA-256 fingerprint [0-9a-f]{16}\) to a 2048-bit RSA key/,
    );
    expect(rotated.message).not.toContain(rotatedKey.publicDer.slice(0, 32));
    // An alert raised before alerts were worded still holds the whole key: the page must survive it too.
    await createAlert(db, {
      userId,
      type: 'dns_changes',
      severity: 'warning',
      title: `DKIM record changed for ${DOMAIN}`,
      message: `DKIM record of ${DOMAIN} changed from "v=DKIM1; k=rsa; p=${firstKey.publicDer}" to "v=DKIM1; k=rsa; p=${rotatedKey.publicDer}".`,
      domain: DOMAIN,
    });

    // Two real inbox tests: a message with two From fields is junked, a signed one is delivered.
    const junked = await runInboxTest(page, async (test) => {
      const raw = await message(
        {
          from: `News <news@${DOMAIN}>`,
          to: test.testEmailAddress,
          subject: `${test.subjectTag} Invoice`,
          text: 'Your invoice.',
        },
        false,
      );
      return Buffer.concat([Buffer.from(`From: billing@${DOMAIN}\r\n`), raw]);
    });
    expect(junked).toMatchObject({ inboxCount: 0, spamCount: 1 });
    const delivered = await runInboxTest(page, (test) =>
      message({
        from: `First Hour <news@${DOMAIN}>`,
        to: test.testEmailAddress,
        subject: `${test.subjectTag} Autumn newsletter`,
        text: 'Our autumn newsletter. Unsubscribe at https://first-hour-brand.com/u',
        html: '<h1>Autumn newsletter</h1><p>Our autumn collection is in. <a href="https://first-hour-brand.com/autumn">Have a look</a>.</p>',
        list: { unsubscribe: { url: 'https://first-hour-brand.com/u', comment: 'Unsubscribe' } },
        headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      }),
    );
    expect(delivered).toMatchObject({ inboxCount: 1, spamCount: 0 });

    for (const width of [1280, 390]) {
      const view = width === 1280 ? page : await e2e.newPage(width);
      if (view !== page) await view.context().addCookies(await page.context().cookies());
      await view.goto('/');
      const alertsCard = view.getByTestId('dashboard-recent-alerts');
      await alertsCard.getByText(`${BROKEN} fails its authentication checks`).waitFor();
      await view.getByTestId('dashboard-view-overview').waitFor();
      await expectNoHorizontalScroll(view, `overview at ${width}`);
      // The card shows the 5 latest; the compliance alerts of both domains are newer than the DKIM rotation's, which
      // the alerts page shows whole.
      await view.goto('/alerts');
      await view
        .getByText(/SHA-256 fingerprint/)
        .first()
        .waitFor();
      await expectNoHorizontalScroll(view, `alerts at ${width}`);
      await view.goto('/');
      await view.getByTestId('dashboard-view-overview').waitFor();
      await e2e.screenshot(view, `dashboard-first-hour-${width}`);

      const select = view.getByTestId('dashboard-source-select');
      await select.selectOption('domain-health');
      await view
        .getByTestId('dashboard-view-domain-health')
        .getByRole('button', { name: `Copy the DKIM record of ${DOMAIN}` })
        .waitFor();
      await expectNoHorizontalScroll(view, `domain health at ${width}`);
      await e2e.screenshot(view, `dashboard-first-hour-domains-${width}`);

      await select.selectOption('inbox-tests');
      const tests = view.getByTestId('dashboard-view-inbox-tests');
      await tests.getByTestId(`inbox-test-${junked.id}-results`).waitFor();
      // By value: the junked test's 0/1 in the inbox is red, the delivered one's 0/1 in spam green.
      const tones = async (id: number) =>
        view
          .getByTestId(`inbox-test-${id}-results`)
          .locator('[data-tone]')
          .evaluateAll((cells) =>
            cells.map((cell) => [cell.textContent, cell.getAttribute('data-tone'), getComputedStyle(cell).color]),
          );
      const [junkedInbox, junkedSpam] = await tones(junked.id);
      const [deliveredInbox, deliveredSpam] = await tones(delivered.id);
      expect([
        junkedInbox.slice(0, 2),
        junkedSpam.slice(0, 2),
        deliveredInbox.slice(0, 2),
        deliveredSpam.slice(0, 2),
      ]).toEqual([
        ['0/1', 'bad'],
        ['1/1', 'bad'],
        ['1/1', 'good'],
        ['0/1', 'good'],
      ]);
      expect(junkedInbox[2]).toBe(junkedSpam[2]); // both red
      expect(deliveredSpam[2]).toBe(deliveredInbox[2]); // both green
      expect(junkedInbox[2]).not.toBe(deliveredSpam[2]);
      await expectNoHorizontalScroll(view, `inbox tests at ${width}`);
      await e2e.screenshot(view, `dashboard-first-hour-tests-${width}`);
      if (view !== page) await view.context().close();
    }

    // A test's own results: 100% in the inbox and 0% in spam are both good news.
    await page.goto('/inbox-placement');
    await page.getByTestId(`view-results-${delivered.id}`).click();
    const results = page.getByTestId(`inbox-test-results-${delivered.id}`);
    await results.getByTestId('rate-inbox').waitFor();
    expect(await results.getByTestId('rate-inbox').getAttribute('data-tone')).toBe('good');
    expect(await results.getByTestId('rate-spam').textContent()).toBe('0%');
    expect(await results.getByTestId('rate-spam').getAttribute('data-tone')).toBe('good');
    await page.getByTestId(`view-results-${junked.id}`).click();
    const junkedResults = page.getByTestId(`inbox-test-results-${junked.id}`);
    await junkedResults.getByTestId('rate-inbox').waitFor();
    expect(await junkedResults.getByTestId('rate-inbox').textContent()).toBe('0%');
    expect(await junkedResults.getByTestId('rate-inbox').getAttribute('data-tone')).toBe('bad');
    await expectNoHorizontalScroll(page, 'inbox placement results at 1280');
    await e2e.screenshot(page, 'dashboard-first-hour-placement-1280');
  });

  it('asks before deleting, and says healthy only when it is', async () => {
    const page = await e2e.newPage(390);
    await signUpIn(page);
    // A new domain that fails its first check: its two alerts (the check's, and the bulk-sender rules') are the only ones.
    expect((await addAndVerify(page, 'first-hour-only-broken.com')).status).toBe('error');
    const compliance = (await waitForAlerts(page, 2)).find((a) => a.type === 'compliance')!;
    await page.goto('/');
    const alertsCard = page.getByTestId('dashboard-recent-alerts');
    const title = 'first-hour-only-broken.com fails its authentication checks';
    await alertsCard.getByText(title).waitFor();

    await alertsCard.getByRole('button', { name: `Delete alert ${title}` }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(`Are you sure you want to delete the alert "${title}"? This cannot be undone.`).waitFor();
    await expectNoHorizontalScroll(page, 'delete confirmation at 390');
    await e2e.screenshot(page, 'dashboard-first-hour-confirm-390');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await (await page.request.get('/api/alerts')).json()).toHaveLength(2);

    for (const deleted of [title, compliance.title]) {
      await alertsCard.getByRole('button', { name: `Delete alert ${deleted}` }).click();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
    await page.getByText('Alert deleted').first().waitFor();
    await alertsCard.getByText('No recent alerts').waitFor();
    // Beside a Critical domain, the card does not call deliverability healthy.
    await alertsCard.getByText('first-hour-only-broken.com needs attention: its DNS checks found problems.').waitFor();
    expect(await alertsCard.getByText('Your email deliverability is healthy').count()).toBe(0);
    await e2e.screenshot(page, 'dashboard-first-hour-no-alerts-390');
  });
});
