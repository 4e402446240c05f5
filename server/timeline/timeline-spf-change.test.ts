import { utcDay } from '@contracts/utc-day';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '@contracts/alerts';
import type { Diagnosis, DomainTimeline } from '@contracts/timeline';
import { evaluateAlerts } from '../alerts/evaluation/evaluate-alerts';
import { reportXml, type TestRecord } from '../dmarc/report-xml.test-support';
import { uploadReport } from '../dmarc/upload-client.test-support';
import { startDnsServer, type TestDnsServer } from '../test/dns-server';
import { createTestApp, signUp, type TestApp, type TestClient } from '../test/test-app';

/*
 * Issue 19's second scenario, through the real paths: the domain is checked against the loopback DNS
 * server, its SPF record is edited (the ESP's address dropped), the domain is checked again (Verify
 * DNS), and the DMARC aggregate reports uploaded afterwards show that address failing. The diagnosis
 * names the SPF change first, above a new failing source of the same day. Reports carry their own
 * dates, so the days before the change are uploaded as they would arrive; nothing is written by hand.
 */

const DOMAIN = 'spf-edited-brand.com';
const ESP_IP = '93.184.216.10';
const SPOOFER_IP = '45.33.21.9';

let dns: TestDnsServer;
let t: TestApp;
let client: TestClient;
let userId: number;
let domainId: number;

beforeAll(async () => {
  dns = await startDnsServer({
    [DOMAIN]: { TXT: [`v=spf1 ip4:${ESP_IP} -all`] },
    [`_dmarc.${DOMAIN}`]: { TXT: [`v=DMARC1; p=none; rua=mailto:dmarc@${DOMAIN}`] },
  });
  t = await createTestApp({ env: { DNS_SERVERS: dns.address } });
  ({
    client,
    user: { id: userId },
  } = await signUp(t.app));
});
afterAll(async () => {
  await t?.close();
  await dns?.close();
});

const DAY = 86_400_000;
const dayStart = (daysAgo: number) => new Date(`${utcDay(Date.now() - daysAgo * DAY)}T00:00:00Z`);

async function upload(daysAgo: number, records: TestRecord[]) {
  const xml = reportXml({
    orgName: 'google.com',
    reportId: `spf-${daysAgo}`,
    domain: DOMAIN,
    begin: dayStart(daysAgo),
    records,
  });
  const res = await uploadReport(t.app, client, xml, { fileName: `google-${daysAgo}.xml` });
  expect(res.statusCode, res.body).toBe(200);
}

const passing = (count: number): TestRecord => ({
  ip: ESP_IP,
  count,
  dkim: 'pass',
  spf: 'pass',
  spfAuth: [{ domain: DOMAIN, result: 'pass' }],
  dkimAuth: [{ domain: DOMAIN, result: 'pass' }],
});

describe('an SPF edit followed by DMARC failures', () => {
  it(
    'is named first, with the record before and after, and its fix links to the domains page',
    { timeout: 120_000 },
    async () => {
      // The story's days are UTC days: a run that would straddle midnight waits for it to pass first.
      const toMidnight = DAY - (Date.now() % DAY);
      if (toMidnight < 60_000) await new Promise((resolve) => setTimeout(resolve, toMidnight + 1_000));
      const added = await client.post('/api/domains', { domain: DOMAIN, verifyDns: true });
      expect(added.statusCode, added.body).toBe(200);
      domainId = added.json().id;
      expect(added.json().spfRecord).toBe(`v=spf1 ip4:${ESP_IP} -all`);
      for (let daysAgo = 7; daysAgo >= 1; daysAgo--) await upload(daysAgo, [passing(400)]);

      // The ESP's address is dropped from SPF, and Verify DNS sees it.
      dns.zone[DOMAIN] = { TXT: ['v=spf1 ip4:198.18.0.1 -all'] };
      const verified = await client.post(`/api/domains/${domainId}/verify`);
      expect(verified.statusCode, verified.body).toBe(200);

      // Today's report: the ESP's mail now fails SPF (and with it DMARC), and a stranger starts spoofing.
      await upload(0, [
        { ip: ESP_IP, count: 400, dkim: 'fail', spf: 'fail', spfAuth: [{ domain: DOMAIN, result: 'fail' }] },
        { ip: SPOOFER_IP, count: 100, dkim: 'fail', spf: 'fail' },
      ]);

      const timeline = (await client.get(`/api/domains/${domainId}/timeline?days=14`)).json() as DomainTimeline;
      const change = timeline.events.find((e) => e.kind === 'dns_change')!;
      expect(change).toMatchObject({ title: 'SPF record changed', severity: 'warning', link: '/domains' });
      expect(change.detail).toContain(`v=spf1 ip4:${ESP_IP} -all → v=spf1 ip4:198.18.0.1 -all`);
      expect(change.detail).toContain(`changed: added ip4:198.18.0.1; removed ip4:${ESP_IP}`);
      expect(timeline.events.filter((e) => e.kind === 'dmarc_new_source').map((e) => e.title)).toEqual([
        `New source failing DMARC: ${SPOOFER_IP}`,
      ]);
      const pass = timeline.series.find((s) => s.key === 'dmarc:pass')!;
      expect(pass.points.map((p) => p.value)).toEqual([100, 100, 100, 100, 100, 100, 100, 0]);
      expect(pass.points.at(-1)!.sample).toBe(500);

      const { drops } = (await client.get(`/api/domains/${domainId}/diagnosis?days=14`)).json() as Diagnosis;
      expect(drops.map((d) => d.series)).toEqual(['dmarc:pass']);
      const [drop] = drops;
      expect(drop).toMatchObject({ label: 'DMARC pass rate', before: 100, after: 0, at: dayStart(0).toISOString() });
      expect(drop!.causes.map((c) => c.kind)).toEqual(['dns_change', 'dmarc_new_source']);
      expect(drop!.causes[0]).toMatchObject({ title: 'SPF record changed', hoursBefore: 0, link: '/domains' });
      expect(drop!.causes[0]!.score).toBeGreaterThan(drop!.causes[1]!.score);
      expect(drop!.causes[0]!.evidence).toContain(`removed ip4:${ESP_IP}`);
      expect(drop!.causes[0]!.fix).toMatch(/^Check the SPF record of spf-edited-brand\.com/);
      expect(drop!.summary).toMatch(
        /^DMARC pass rate fell from 100% to 0% on (\d{1,2} \w+); most likely cause: SPF record changed on \1, the same day$/,
      );

      // The alert evaluation the upload queued would raise it; run here, it raises it once.
      await evaluateAlerts({ db: t.database.db, jobs: t.jobs }, userId);
      await evaluateAlerts({ db: t.database.db, jobs: t.jobs }, userId);
      const raised = ((await client.get('/api/alerts')).json() as Alert[]).filter((a) => a.metadata?.dropId);
      expect(raised.map((a) => [a.type, a.message, a.metadata?.link])).toEqual([
        ['authentication_failure', drop!.summary, `/domains/${domainId}/timeline`],
      ]);
    },
  );
});
