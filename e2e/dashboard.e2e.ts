import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlert } from '../server/alerts/alerts.store';
import { domains, emailMetrics, inboxTests, integrations } from '../server/db/schema/index';
import { noBrowser, startE2E, type E2E } from './support/harness';

let e2e: E2E;
let counter = 0;

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
    e2e = await startE2E();
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
    expect(await page.getByTestId('dashboard-welcome').getByRole('link', { name: 'Add Domain' }).getAttribute('href')).toBe('/domains');
    expect((await (await page.request.get('/api/user')).json()).hasCompletedTour).toBe(true);
  });

  it('shows each view from the account’s real data, and deletes an alert', async () => {
    const page = await e2e.newPage();
    const userId = await signUpIn(page);
    await page.request.post('/api/user/complete-tour');
    // Rows go in directly: the APIs that create domains, tests and integrations come with their
    // own issues (4, 5 and later). Everything shown below is computed by the server from them.
    const db = e2e.runtime.database.db;
    const today = new Date().toISOString().slice(0, 10);
    await db.insert(domains).values([
      { userId, verificationToken: 'token-good.example', domain: 'good.example', status: 'healthy', spfStatus: 'valid', dkimStatus: 'valid', dmarcStatus: 'valid', spfRecord: 'v=spf1 -all', lastCheckedAt: new Date() },
      { userId, verificationToken: 'token-half.example', domain: 'half.example', status: 'warning', spfStatus: 'valid', dkimStatus: 'missing', dmarcStatus: 'invalid', lastCheckedAt: new Date() },
    ]);
    await db.insert(inboxTests).values([
      { userId, testEmailAddress: `e2e-a-${userId}@inbox.localhost`, status: 'completed', subject: 'Spring sale', totalSeeds: 10, inboxCount: 9, spamCount: 1, missingCount: 0, completedAt: sql`now()` },
      { userId, testEmailAddress: `e2e-b-${userId}@inbox.localhost`, status: 'running' },
    ]);
    await db.insert(integrations).values({ userId, provider: 'sendgrid', type: 'esp', status: 'active', lastSyncAt: new Date() });
    await db.insert(emailMetrics).values({ userId, provider: 'sendgrid', date: today, emailsSent: 1000, delivered: 990, bounced: 10, complaints: 1 });
    await createAlert(db, { userId, type: 'dns_changes', severity: 'warning', title: 'DMARC record changed', message: 'good.example: p=none became p=reject' });

    await page.goto('/');
    await page.getByTestId('dashboard-view-overview').waitFor();
    // (100 authentication x 1 + 33.3 x 1) / 2 domains = 66.7; inbox 90 -> health (66.7 + 90) / 2 = 78
    expect(await page.getByTestId('health-score').textContent()).toContain('78');
    await e2e.screenshot(page, 'dashboard-data-1440');

    const select = page.getByTestId('dashboard-source-select');
    await select.selectOption('domain-health');
    const domainView = page.getByTestId('dashboard-view-domain-health');
    await domainView.getByText('good.example').waitFor();
    await domainView.getByText('Complete').first().waitFor();

    await select.selectOption('inbox-tests');
    const testView = page.getByTestId('dashboard-view-inbox-tests');
    await testView.getByText('Spring sale').waitFor();
    await testView.getByText('Test in progress... Expected completion in 5-10 minutes').waitFor();

    await select.selectOption('esp-data');
    const espView = page.getByTestId('dashboard-view-esp-data');
    await espView.getByText(/sendgrid/i).first().waitFor();
    await espView.getByText('Just synced').first().waitFor();

    const alertsCard = page.getByTestId('dashboard-recent-alerts');
    await alertsCard.getByText('DMARC record changed').waitFor();
    await alertsCard.getByRole('button', { name: /delete/i }).first().click();
    await page.getByText('Alert deleted').first().waitFor();
    await alertsCard.getByText('No recent alerts').waitFor();

    const mobile = await e2e.newPage(390);
    await mobile.context().addCookies(await page.context().cookies());
    await mobile.goto('/');
    await mobile.getByTestId('dashboard-view-overview').waitFor();
    await e2e.screenshot(mobile, 'dashboard-data-390');
  });
});
