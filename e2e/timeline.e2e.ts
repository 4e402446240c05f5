import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportXml, type TestRecord } from '../server/dmarc/report-xml.test-support';
import { noBrowser, startE2EWithDns, type E2EWithDns } from './support/harness';

/*
 * Issue 19 in the browser, on evidence built only through the real API and jobs: a domain checked
 * against the loopback DNS server, a week of DMARC aggregate reports uploaded as a user uploads them,
 * its SPF record edited and checked again (Verify DNS), today's report showing the ESP failing and
 * a stranger spoofing, and notes. The server detects the DMARC drop, names the SPF change as its most
 * likely cause, and the alert evaluation queued by the upload raises the drop alert. Nothing is
 * written to the database by hand.
 */

const DOMAIN = 'timeline-brand.com';
const ESP_IP = '93.184.216.10';
const SPOOFER_IP = '45.33.21.9';
const DAY = 86_400_000;

let e2e: E2EWithDns;

const dayStart = (daysAgo: number) =>
  new Date(`${new Date(Date.now() - daysAgo * DAY).toISOString().slice(0, 10)}T00:00:00Z`);

const passing: TestRecord = {
  ip: ESP_IP,
  count: 400,
  dkim: 'pass',
  spf: 'pass',
  spfAuth: [{ domain: DOMAIN, result: 'pass' }],
  dkimAuth: [{ domain: DOMAIN, result: 'pass' }],
};

async function upload(page: Page, daysAgo: number, records: TestRecord[]) {
  const xml = reportXml({
    orgName: 'google.com',
    reportId: `timeline-${daysAgo}`,
    domain: DOMAIN,
    begin: dayStart(daysAgo),
    records,
  });
  const res = await page.request.post(`/api/dmarc/upload?filename=google-${daysAgo}.xml`, {
    data: xml,
    headers: { 'Content-Type': 'application/xml' },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Whether the document is wider than the window (something would need sideways scrolling). */
const overflowsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe.skipIf(noBrowser)('the deliverability timeline in the browser', () => {
  beforeAll(async () => {
    e2e = await startE2EWithDns();
  });
  afterAll(() => e2e?.close());

  it(
    'answers why the DMARC pass rate fell, keeps notes, and reads at 1280 and 390 px',
    { timeout: 180_000 },
    async () => {
      // The story's days are UTC days: a run that would straddle midnight waits for it to pass first.
      const toMidnight = DAY - (Date.now() % DAY);
      if (toMidnight < 90_000) await new Promise((resolve) => setTimeout(resolve, toMidnight + 1_000));
      const page = await e2e.newPage(1280);
      const registered = await page.request.post('/api/register', {
        data: { username: 'timeliner', email: 'timeliner@example.com', password: 'timeline pw 1' },
      });
      expect(registered.status()).toBe(200);
      await page.request.post('/api/user/complete-tour');

      e2e.dns.zone[DOMAIN] = { TXT: [`v=spf1 ip4:${ESP_IP} -all`] };
      e2e.dns.zone[`_dmarc.${DOMAIN}`] = { TXT: [`v=DMARC1; p=none; rua=mailto:dmarc@${DOMAIN}`] };
      const added = await page.request.post('/api/domains', { data: { domain: DOMAIN, verifyDns: true } });
      expect(added.status(), await added.text()).toBe(200);
      const domainId: number = (await added.json()).id;
      for (let daysAgo = 7; daysAgo >= 1; daysAgo--) await upload(page, daysAgo, [passing]);
      // The ESP's address is dropped from SPF, and Verify DNS sees it.
      e2e.dns.zone[DOMAIN] = { TXT: ['v=spf1 ip4:198.18.0.1 -all'] };
      expect((await page.request.post(`/api/domains/${domainId}/verify`)).status()).toBe(200);
      await upload(page, 0, [
        { ip: ESP_IP, count: 400, dkim: 'fail', spf: 'fail', spfAuth: [{ domain: DOMAIN, result: 'fail' }] },
        { ip: SPOOFER_IP, count: 100, dkim: 'fail', spf: 'fail' },
      ]);
      const earlier = await page.request.post(`/api/domains/${domainId}/notes`, {
        data: { text: 'Moved the newsletter to a new ESP', at: new Date(Date.now() - 3 * DAY).toISOString() },
      });
      expect(earlier.status()).toBe(201);

      // The dashboard answers first, and leads to the timeline.
      await page.goto('/');
      const answer = page.getByTestId('dashboard-drop-answers');
      await answer
        .getByText(/DMARC pass rate fell from 100% to 0% on \d{1,2} \w+; most likely cause: SPF record changed/)
        .waitFor();
      await answer.getByRole('link', { name: `View timeline of ${DOMAIN}` }).click();
      await page.waitForURL(`**/domains/${domainId}/timeline`);

      // The trail names the domain; the series is drawn; what would feed the others is said instead.
      const trail = page.getByRole('navigation', { name: 'Breadcrumb' });
      await trail.getByText(DOMAIN).waitFor();
      expect(await trail.getByRole('link', { name: 'Domains' }).getAttribute('href')).toBe('/domains');
      await page
        .getByTestId('timeline-series')
        .locator('[data-series="dmarc:pass"]')
        .getByText(/0% on .+ \(500 messages\)/)
        .waitFor();
      await page.locator('[data-testid="timeline-chart"] .recharts-line').first().waitFor();
      const missing = page.getByTestId('timeline-missing-series');
      await missing.getByText('Run an inbox placement test to see placement here.').waitFor();
      await missing.getByText('Connect an ESP or your MTA to see bounce and complaint rates here.').waitFor();
      expect(await missing.locator('[data-source="dmarc"]').count()).toBe(0);

      // The events, newest first: the drop, the new failing source, the SPF change, the note.
      const events = page.getByTestId('timeline-events');
      const spfChange = events.locator('[data-kind="dns_change"]');
      await spfChange.getByText('SPF record changed').waitFor();
      await spfChange.getByText(`v=spf1 ip4:${ESP_IP} -all → v=spf1 ip4:198.18.0.1 -all`, { exact: false }).waitFor();
      expect(await spfChange.getByRole('link', { name: 'Open Domains: SPF record changed' }).getAttribute('href')).toBe(
        '/domains',
      );
      await events
        .locator('[data-kind="dmarc_new_source"]')
        .getByText(`New source failing DMARC: ${SPOOFER_IP}`)
        .waitFor();
      await events.locator('[data-kind="note"]').getByText('Moved the newsletter to a new ESP').waitFor();
      const kinds = await events
        .getByTestId('timeline-event')
        .evaluateAll((items) => items.map((item) => item.getAttribute('data-kind')));
      expect(kinds[kinds.length - 1]).toBe('note');
      expect(kinds).toContain('drop');

      // The Why panel: the summary, then the causes ranked, the SPF change first with evidence and fix.
      const why = page.getByTestId('why-panel');
      await why
        .getByTestId('drop-summary')
        .getByText(
          /^DMARC pass rate fell from 100% to 0% on (\d{1,2} \w+); most likely cause: SPF record changed on \1, the same day$/,
        )
        .waitFor();
      const causes = why.getByTestId('drop-cause');
      expect(await causes.evaluateAll((items) => items.map((item) => item.getAttribute('data-kind')))).toEqual([
        'dns_change',
        'dmarc_new_source',
      ]);
      await causes.first().getByText(`removed ip4:${ESP_IP}`, { exact: false }).waitFor();
      await causes
        .first()
        .getByText(/Fix: Check the SPF record of timeline-brand\.com/)
        .waitFor();
      await e2e.screenshot(page, 'timeline-1280');

      // A note added from the page, at a past time, shows on the timeline; the older one is deleted.
      const form = page.getByTestId('note-form');
      await form.getByRole('button', { name: 'Add Note' }).click();
      await form.getByText('Write the note first').waitFor();
      await form.getByLabel('Note').fill('Published the old SPF record again');
      await form
        .getByLabel('When (optional)')
        .fill(new Date(Date.now() - 3_600_000 - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 16));
      await form.getByRole('button', { name: 'Add Note' }).click();
      await page.getByText('Note added').first().waitFor();
      await events.locator('[data-kind="note"]').getByText('Published the old SPF record again').waitFor();
      await events.getByRole('button', { name: 'Delete note Moved the newsletter to a new ESP' }).click();
      await page.getByTestId('delete-note-dialog').getByRole('button', { name: 'Delete' }).click();
      await page.getByText('Note deleted').first().waitFor();
      await events.getByText('Moved the newsletter to a new ESP').waitFor({ state: 'detached' });
      const notes = (await (await page.request.get(`/api/domains/${domainId}/timeline`)).json()).events.filter(
        (e: { kind: string }) => e.kind === 'note',
      );
      expect(notes.map((note: { title: string }) => note.title)).toEqual(['Published the old SPF record again']);

      // Another period is asked for and kept in the address.
      await page.getByRole('button', { name: '7 days' }).click();
      await page.waitForURL(`**/domains/${domainId}/timeline?days=7`);
      await page.getByText('Deliverability over the last 7 days').waitFor();

      // The drop raised one alert (the upload queued the evaluation); its card leads to the timeline.
      await expect
        .poll(
          async () =>
            (
              (await (await page.request.get('/api/alerts')).json()) as { metadata: { dropId?: string } | null }[]
            ).filter((a) => a.metadata?.dropId).length,
          {
            timeout: 60_000,
            interval: 500,
          },
        )
        .toBe(1);
      await page.goto('/alerts');
      const alertCard = page.getByTestId('alert-card').filter({ hasText: 'DMARC pass rate fell from 100% to 0%' });
      await alertCard.getByRole('link', { name: /^View timeline/ }).click();
      await page.waitForURL(`**/domains/${domainId}/timeline`);
      await page.getByTestId('why-panel').getByTestId('drop-summary').waitFor();

      // At 390 px the page stacks and only the chart scrolls sideways.
      const phone = await e2e.newPage(390);
      await phone.context().addCookies(await page.context().cookies());
      await phone.goto(`/domains/${domainId}/timeline`);
      await phone.locator('[data-testid="timeline-chart"] .recharts-line').first().waitFor();
      await phone.getByTestId('why-panel').getByTestId('drop-cause').first().waitFor();
      expect(await overflowsSideways(phone)).toBe(false);
      // The chart is wider than the phone and opens on its newest days, where the drop is.
      const chart = await phone.getByTestId('timeline-chart').evaluate((element) => ({
        scrolls: element.scrollWidth > element.clientWidth,
        atNewest: element.scrollLeft + element.clientWidth >= element.scrollWidth - 1,
      }));
      expect(chart).toEqual({ scrolls: true, atNewest: true });
      await e2e.screenshot(phone, 'timeline-390');
    },
  );
});
