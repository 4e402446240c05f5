import { dayStart, utcDay } from '@contracts/utc-day';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadReport } from './upload-client.test-support';
import { createTestApp, signUp, type TestApp, type TestClient } from '../test/test-app';
import { reporterHealth } from './reporter-health';
import { raiseStoppedReporterAlerts } from './stopped-reporters';
import { reportXml } from './report-xml.test-support';

const DAY = 24 * 3600 * 1000;
const midnight = (daysAgo: number, from = Date.now()) => dayStart(utcDay(from - daysAgo * DAY));

describe('reporter health', () => {
  const now = new Date('2026-11-20T12:00:00Z');
  it('calls a reporter daily from 3 report days in its last week, and stopped after 3 silent days', () => {
    expect(reporterHealth({ lastReportAt: new Date('2026-11-17T12:00:01Z'), recentDays: 3 }, now)).toEqual({
      silentDays: 2,
      daily: true,
      stopped: false,
    });
    expect(reporterHealth({ lastReportAt: new Date('2026-11-17T12:00:00Z'), recentDays: 3 }, now)).toEqual({
      silentDays: 3,
      daily: true,
      stopped: true,
    });
    expect(reporterHealth({ lastReportAt: new Date('2026-11-10T00:00:00Z'), recentDays: 2 }, now)).toEqual({
      silentDays: 10,
      daily: false,
      stopped: false,
    });
  });
});

describe('alert when a daily DMARC reporter stops', () => {
  let t: TestApp;
  let client: TestClient;
  let userId: number;

  async function upload(orgName: string, daysAgo: number, domain = 'brand.example') {
    const xml = reportXml({
      orgName,
      reportId: `${orgName}-${daysAgo}`,
      domain,
      begin: midnight(daysAgo),
      records: [{ ip: '192.0.2.1', count: 5, dkim: 'pass', spf: 'pass' }],
    });
    const res = await uploadReport(t.app, client, xml, { fileName: 'r.xml' });
    expect(res.json().imported).toBe(1);
  }
  const alertsOf = async () =>
    (await client.get('/api/alerts')).json() as { title: string; message: string; domain: string; type: string }[];

  beforeAll(async () => {
    t = await createTestApp();
    const user = await signUp(t.app);
    client = user.client;
    userId = (await client.get('/api/user')).json().id;
    // google.com: daily for a week, then nothing for 4 days. yahoo.com: daily up to yesterday.
    // fastmail: one report 6 days ago (not daily, never "stopped").
    for (let d = 11; d >= 5; d--) await upload('google.com', d);
    for (let d = 7; d >= 2; d--) await upload('yahoo.com', d);
    await upload('fastmail.com', 6);
  });
  afterAll(() => t?.close());

  it('shows the stopped reporter in the analytics and raises one alert for it, once', async () => {
    const analytics = (await client.get('/api/dmarc/analytics?domain=brand.example')).json();
    const byOrg = Object.fromEntries(analytics.reporters.map((r: { orgName: string }) => [r.orgName, r]));
    expect(byOrg['google.com']).toMatchObject({ daily: true, stopped: true, silentDays: 4, reports: 7 });
    expect(byOrg['yahoo.com']).toMatchObject({ daily: true, stopped: false, silentDays: 1 });
    expect(byOrg['fastmail.com']).toMatchObject({ daily: false, stopped: false });
    expect(analytics.recommendations).toContainEqual(expect.stringMatching(/^google\.com has sent no report since/));

    expect(await raiseStoppedReporterAlerts(t.database.db, { userId })).toBe(1);
    expect(await raiseStoppedReporterAlerts(t.database.db, { userId })).toBe(0);
    const alerts = await alertsOf();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      type: 'authentication_failure',
      domain: 'brand.example',
      title: 'DMARC reports from google.com stopped',
    });
    expect(alerts[0].message).toContain('none since');
  });

  it('alerts again when the reporter resumes and then stops again', async () => {
    await upload('google.com', 1);
    // Four days later, with nothing new since yesterday's report.
    const later = new Date(Date.now() + 4 * DAY);
    // google again, and yahoo now too
    expect(await raiseStoppedReporterAlerts(t.database.db, { userId }, later)).toBe(2);
    expect((await alertsOf()).map((a) => a.title).sort()).toEqual([
      'DMARC reports from google.com stopped',
      'DMARC reports from google.com stopped',
      'DMARC reports from yahoo.com stopped',
    ]);
  });

  it('does not alert for a silence that is old history (reports uploaded long after)', async () => {
    const longAfter = new Date(Date.now() + 40 * DAY);
    expect(await raiseStoppedReporterAlerts(t.database.db, { userId }, longAfter)).toBe(0);
  });
});
