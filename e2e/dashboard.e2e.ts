import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlert } from '../server/alerts/alerts.repo';
import { generateKeyPairSync } from 'node:crypto';
import { emailMetrics, inboxTests, integrations } from '../server/platform/db/schema/index';
import { noBrowser, startE2EWithDns, type E2EWithDns } from './support/harness';

let e2e: E2EWithDns;
let counter = 0;
const rsaKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .publicKey.export({ type: 'spki', format: 'der' })
  .toString('base64');

/** Registers through the real API in the page's own context, so the page is signed in. */
async function signUpIn(page: Page): Promise<number> {
  counter++;
  const res = await page.request.post('/api/register', {
    data: { username: `dash${counter}`, email: `dash${counter}@example.com`, password: 'dashboard pw 1' },
  });
  expect(res.status()).toBe(200);
  return (await res.json()).user.id;
}

describe.skipIf(noBrowser)('dashboard and onboarding tour in the browser', () => {
  beforeAll(async () => {
    e2e = await startE2EWithDns();
  });
  afterAll(() => e2e?.close());

  it('walks the whole tour on a first visit and never shows it again', async () => {
    const page = await e2e.newPage();
    await signUpIn(page);
    await page.goto('/');
    const tour = page.getByTestId('onboarding-tour');
    await tour.waitFor();
    for (let step = 0; step < 6; step++) await tour.getByRole('button', { name: 'Next' }).click();
    await tour.getByRole('button', { name: 'Get Started' }).click();
    await tour.waitFor({ state: 'detached' });
    expect((await (await page.request.get('/api/user')).json()).hasCompletedTour).toBe(true);
    await page.goto('/');
    await page.getByTestId('dashboard-page').waitFor();
    await page.waitForTimeout(500);
    expect(await tour.count()).toBe(0);
  });

  it('skipping the tour marks it seen; a new account gets the welcome card', async () => {
    const page = await e2e.newPage();
    await signUpIn(page);
    await page.goto('/');
    await page.getByTestId('onboarding-tour').getByRole('button', { name: 'Skip Tour' }).click();
    await page.getByTestId('dashboard-welcome').waitFor();
    expect(
      await page.getByTestId('dashboard-welcome').getByRole('link', { name: 'Add Domain' }).getAttribute('href'),
    ).toBe('/domains');
    expect((await (await page.request.get('/api/user')).json()).hasCompletedTour).toBe(true);
  });

  it('shows each view from the account’s real data, and deletes an alert', async () => {
    const page = await e2e.newPage();
    const userId = await signUpIn(page);
    await page.request.post('/api/user/complete-tour');
    // Domains go through the real API and real DNS checks: good-brand.com passes all three,
    // half-brand.com has SPF only (no DKIM key, a DMARC record with a bad policy).
    e2e.dns.zone['good-brand.com'] = { TXT: ['v=spf1 ip4:192.0.2.0/24 -all'] };
    e2e.dns.zone['default._domainkey.good-brand.com'] = { TXT: [`v=DKIM1; k=rsa; p=${rsaKey}`] };
    e2e.dns.zone['_dmarc.good-brand.com'] = { TXT: ['v=DMARC1; p=reject'] };
    e2e.dns.zone['half-brand.com'] = { TXT: ['v=spf1 ip4:192.0.2.0/24 -all'] };
    e2e.dns.zone['_dmarc.half-brand.com'] = { TXT: ['v=DMARC1; p=sometimes'] };
    for (const name of ['good-brand.com', 'half-brand.com']) {
      const { id } = await (await page.request.post('/api/domains', { data: { domain: name } })).json();
      await page.request.post(`/api/domains/${id}/verify`);
    }
    const statuses = (await (await page.request.get('/api/domains')).json()).map(
      (d: { domain: string; status: string }) => `${d.domain} ${d.status}`,
    );
    expect(statuses.sort()).toEqual(['good-brand.com healthy', 'half-brand.com warning']);
    // Inbox tests, integrations and metrics go in directly until their APIs exist (issue 5 and
    // later). Everything shown below is computed by the server from these rows.
    const db = e2e.runtime.database.db;
    const today = new Date().toISOString().slice(0, 10);
    await db.insert(inboxTests).values([
      {
        userId,
        testEmailAddress: `e2e-a-${userId}@inbox.localhost`,
        status: 'completed',
        subject: 'Spring sale',
        totalSeeds: 10,
        inboxCount: 9,
        spamCount: 1,
        missingCount: 0,
        completedAt: sql`now()`,
      },
      { userId, testEmailAddress: `e2e-b-${userId}@inbox.localhost`, status: 'running' },
    ]);
    await db
      .insert(integrations)
      .values({ userId, provider: 'sendgrid', type: 'esp', status: 'active', lastSyncAt: new Date() });
    await db.insert(emailMetrics).values({
      userId,
      provider: 'sendgrid',
      date: today,
      emailsSent: 1000,
      delivered: 990,
      bounced: 10,
      complaints: 1,
    });
    await createAlert(db, {
      userId,
      type: 'dns_changes',
      severity: 'warning',
      title: 'DMARC record changed',
      message: 'good-brand.com: p=none became p=reject',
    });

    await page.goto('/');
    await page.getByTestId('dashboard-view-overview').waitFor();
    // (100 authentication x 1 + 33.3 x 1) / 2 domains = 66.7; inbox 90 -> health (66.7 + 90) / 2 = 78
    expect(await page.getByTestId('health-score').textContent()).toContain('78');
    await e2e.screenshot(page, 'dashboard-data-1440');

    const select = page.getByTestId('dashboard-source-select');
    await select.selectOption('domain-health');
    const domainView = page.getByTestId('dashboard-view-domain-health');
    await domainView.getByText('good-brand.com').waitFor();
    await domainView.getByText('Complete').first().waitFor();

    await select.selectOption('inbox-tests');
    const testView = page.getByTestId('dashboard-view-inbox-tests');
    await testView.getByText('Spring sale').waitFor();
    await testView.getByText('Test in progress... Expected completion in 5-10 minutes').waitFor();

    await select.selectOption('esp-data');
    const espView = page.getByTestId('dashboard-view-esp-data');
    await espView
      .getByText(/sendgrid/i)
      .first()
      .waitFor();
    await espView.getByText('Just synced').first().waitFor();

    const alertsCard = page.getByTestId('dashboard-recent-alerts');
    await alertsCard.getByText('DMARC record changed').waitFor();
    // Deleting asks first; half-brand.com's first check raised its own alerts, which stay.
    await alertsCard.getByRole('button', { name: 'Delete alert DMARC record changed' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Alert deleted').first().waitFor();
    await alertsCard.getByText('DMARC record changed').waitFor({ state: 'detached' });

    const mobile = await e2e.newPage(390);
    await mobile.context().addCookies(await page.context().cookies());
    await mobile.goto('/');
    await mobile.getByTestId('dashboard-view-overview').waitFor();
    await e2e.screenshot(mobile, 'dashboard-data-390');
  });
});
