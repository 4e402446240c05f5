import { dayStart, utcDay } from '@contracts/utc-day';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '@contracts/alerts';
import { NO_CLEAR_CAUSE, type Diagnosis, type DomainTimeline, type IpTimeline } from '@contracts/timeline';
import { newApiKey, setPlan, withKey } from '../api-keys/api-keys.test-support';
import { evaluateAlerts } from '../alerts/evaluation/evaluate-alerts';
import { insertIntegration, updateIntegration } from '../integrations/integrations.repo';
import { alerts, domainNotes, integrationErrors } from '../platform/db/schema/index';
import { runReputationCheck } from '../reputation/reputation-run.service';
import type { TestDnsServer } from '../test/dns-server';
import { createTestAppWithDns, signUp, type TestApp, type TestClient } from '../test/test-app';

/*
 * The timeline routes against the real app and database: owner scoping, API keys, notes, the IP
 * timeline, integration errors, and the bounce-spike scenario of issue 19 (a spike nothing explains)
 * with the alert it raises once. Sending figures go in through POST /api/v1/metrics, as a script
 * reports them, for past days: that route takes the day, so no row is written by hand.
 */

let t: TestApp;
let dns: TestDnsServer;
let close: () => Promise<void>;
beforeAll(async () => ({ t, dns, close } = await createTestAppWithDns()));
afterAll(() => close?.());

const DAY = 86_400_000;
const dayOf = (daysAgo: number) => utcDay(Date.now() - daysAgo * DAY);
const timelineOf = async (client: TestClient, id: number, days = 30) =>
  (await client.get(`/api/domains/${id}/timeline?days=${days}`)).json() as DomainTimeline;
const diagnosisOf = async (client: TestClient, id: number) =>
  (await client.get(`/api/domains/${id}/diagnosis`)).json() as Diagnosis;
const evaluate = (userId: number) => evaluateAlerts({ db: t.database.db, jobs: t.jobs }, userId);

async function userWithDomain(name: string) {
  const { client, user } = await signUp(t.app);
  const res = await client.post('/api/domains', { domain: name });
  expect(res.statusCode, res.body).toBe(200);
  return { client, user, domainId: res.json().id as number };
}

async function reportDay(client: TestClient, daysAgo: number, sent: number, bounced: number) {
  const res = await client.post('/api/v1/metrics', {
    provider: 'newsletter-tool',
    date: dayOf(daysAgo),
    emailsSent: sent,
    delivered: sent - bounced,
    bounced,
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('a bounce spike with no evidence before it', () => {
  it('is found, said to have no clear cause, and raises one alert linking to the timeline', async () => {
    const { client, user, domainId } = await userWithDomain('spiky-sender.com');
    await setPlan(t, user.id, 'professional'); // 18,000 messages: beyond the Free plan's month
    for (let daysAgo = 8; daysAgo >= 1; daysAgo--) await reportDay(client, daysAgo, 2000, 20); // 1%
    await reportDay(client, 0, 2000, 180); // 9%

    const timeline = await timelineOf(client, domainId);
    expect(timeline.domain).toEqual({ id: domainId, name: 'spiky-sender.com' });
    const bounce = timeline.series.find((s) => s.key === 'bounce:rate')!;
    // Pushed day totals name no domain: the account's rate, said to be so.
    expect(bounce).toMatchObject({ label: 'Bounce rate (all domains)', unit: 'percent' });
    expect(bounce.points.at(-1)).toEqual({ at: dayStart(dayOf(0)).toISOString(), value: 9, sample: 2000 });
    expect(bounce.points).toHaveLength(9);
    // No test, report or Postmaster day: those series are absent, not empty.
    expect(timeline.series.map((s) => s.key).sort()).toEqual(['bounce:rate', 'complaint:rate']);

    const { drops } = await diagnosisOf(client, domainId);
    expect(drops).toHaveLength(1);
    expect(drops[0]).toMatchObject({
      series: 'bounce:rate',
      label: 'Bounce rate (all domains)',
      before: 1,
      after: 9,
      causes: [],
    });
    expect(drops[0]!.summary).toMatch(
      new RegExp(`^Bounce rate \\(all domains\\) rose from 1% to 9% on \\d{1,2} \\w+; ${NO_CLEAR_CAUSE}$`),
    );
    // The drop is on the timeline too.
    expect(timeline.events.filter((e) => e.kind === 'drop')).toEqual([
      expect.objectContaining({ title: 'Bounce rate (all domains) rose to 9%', detail: drops[0]!.summary }),
    ]);

    await evaluate(user.id);
    await evaluate(user.id);
    const raised = ((await client.get('/api/alerts')).json() as Alert[]).filter((a) => a.metadata?.dropId);
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({
      type: 'bounce',
      severity: 'critical',
      message: drops[0]!.summary,
      domain: 'spiky-sender.com',
      metadata: { link: `/domains/${domainId}/timeline`, dropId: drops[0]!.id },
    });
    // Deleting the alert does not bring it back: the drop was alerted.
    expect((await client.delete(`/api/alerts/${raised[0]!.id}`)).statusCode).toBe(204);
    await evaluate(user.id);
    const left = await t.database.db.select({ message: alerts.message }).from(alerts).where(eq(alerts.userId, user.id));
    expect(left.map((a) => a.message)).not.toContain(drops[0]!.summary);
  });
});

describe('a domain with its own MTA events', () => {
  it('shows its own bounce rate, from the events sent from it or a subdomain, not the account’s', async () => {
    const { client, user, domainId } = await userWithDomain('own-events.com');
    await setPlan(t, user.id, 'professional');
    const { token } = (await client.post('/api/webhook-tokens/generate')).json() as { token: string };
    const at = Math.floor(Date.now() / 1000) - 60;
    const record = (id: string, type: 'Delivery' | 'Bounce', sender: string) =>
      JSON.stringify({
        type,
        id,
        sender,
        recipient: `${id}@gmail.com`,
        response: { code: type === 'Bounce' ? 550 : 250, content: 'x' },
        timestamp: at,
      });
    const lines = [
      ...Array.from({ length: 9 }, (_, i) => record(`own${i}`, 'Delivery', 'news@mail.own-events.com')),
      record('own9', 'Bounce', 'news@own-events.com'),
      // Another domain of the account bounces everything: not this domain's rate.
      ...Array.from({ length: 10 }, (_, i) => record(`other${i}`, 'Bounce', 'news@other-brand.com')),
    ].join('\n');
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/kumo',
      payload: lines,
      headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${token}` },
    });
    expect(posted.json()).toMatchObject({ accepted: 20, rejected: [] });

    const bounce = (await timelineOf(client, domainId)).series.find((s) => s.key === 'bounce:rate')!;
    expect(bounce.label).toBe('Bounce rate');
    expect(bounce.points).toEqual([{ at: dayStart(utcDay(at * 1000)).toISOString(), value: 10, sample: 10 }]);
  });
});

describe('who may read a timeline', () => {
  it('answers 404 for another user’s domain, IP and note, and 401 signed out', async () => {
    const owner = await userWithDomain('owned-brand.com');
    const stranger = await signUp(t.app);
    const note = (await owner.client.post(`/api/domains/${owner.domainId}/notes`, { text: 'mine' })).json();
    const ip = (await owner.client.post('/api/ip-addresses', { ipAddress: '93.184.216.44', type: 'dedicated' })).json();
    for (const [method, url] of [
      ['GET', `/api/domains/${owner.domainId}/timeline`],
      ['GET', `/api/domains/${owner.domainId}/diagnosis`],
      ['POST', `/api/domains/${owner.domainId}/notes`],
      ['DELETE', `/api/domains/${owner.domainId}/notes/${note.id}`],
      ['GET', `/api/ip-addresses/${ip.id}/timeline`],
    ] as const) {
      const res = await stranger.client.request(method, url, method === 'POST' ? { text: 'not yours' } : undefined);
      expect(res.statusCode, url).toBe(404);
      expect((await t.app.inject({ method, url })).statusCode, url).toBe(401);
    }
    // The owner's note is still there, and the stranger wrote none.
    expect(
      (await timelineOf(owner.client, owner.domainId)).events.filter((e) => e.kind === 'note').map((e) => e.title),
    ).toEqual(['mine']);
    expect(await t.database.db.select().from(domainNotes).where(eq(domainNotes.userId, stranger.user.id))).toEqual([]);
  });

  it('opens to an API key as a bearer token', async () => {
    const { client, user, domainId } = await userWithDomain('scripted-brand.com');
    await setPlan(t, user.id, 'professional');
    const key = await newApiKey(client);
    const timeline = await withKey(t.app, key, 'GET', `/api/domains/${domainId}/timeline?days=7`);
    expect(timeline.statusCode, timeline.body).toBe(200);
    expect(timeline.json()).toMatchObject({
      domain: { id: domainId, name: 'scripted-brand.com' },
      series: [],
      events: [],
    });
    expect(Date.parse(timeline.json().to) - Date.parse(timeline.json().from)).toBe(7 * DAY);
    expect((await withKey(t.app, key, 'GET', `/api/domains/${domainId}/diagnosis`)).json()).toEqual({ drops: [] });
    const note = await withKey(t.app, key, 'POST', `/api/domains/${domainId}/notes`, { text: 'deploy from CI' });
    expect(note.statusCode).toBe(201);
    expect((await withKey(t.app, key, 'DELETE', `/api/domains/${domainId}/notes/${note.json().id}`)).statusCode).toBe(
      204,
    );
  });
});

describe('notes', () => {
  it('are kept with their time, shown as note events, and deleted', async () => {
    const { client, domainId } = await userWithDomain('noted-brand.com');
    const at = new Date(Date.now() - 3 * DAY).toISOString();
    const created = await client.post(`/api/domains/${domainId}/notes`, { text: '  switched ESP  ', at });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ id: expect.any(Number), at, text: 'switched ESP' });
    const now = (await client.post(`/api/domains/${domainId}/notes`, { text: 'new campaign' })).json();
    expect(Math.abs(Date.parse(now.at) - Date.now())).toBeLessThan(60_000);

    const events = (await timelineOf(client, domainId)).events;
    expect(events.map((e) => [e.kind, e.title, e.at])).toEqual([
      ['note', 'switched ESP', at],
      ['note', 'new campaign', now.at],
    ]);
    // Outside a 1-day window: not shown.
    expect((await timelineOf(client, domainId, 1)).events.map((e) => e.title)).toEqual(['new campaign']);

    expect((await client.delete(`/api/domains/${domainId}/notes/${created.json().id}`)).statusCode).toBe(204);
    const again = await client.delete(`/api/domains/${domainId}/notes/${created.json().id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ code: 'not_found', message: 'Note not found' });
    expect((await timelineOf(client, domainId)).events.map((e) => e.title)).toEqual(['new campaign']);
  });

  it('refuses bad input with a 400 naming the field, and stores nothing', async () => {
    const { client, user, domainId } = await userWithDomain('careful-brand.com');
    const cases: [unknown, RegExp][] = [
      [{}, /text is required/],
      [{ text: '   ' }, /text is required/],
      [{ text: 'x'.repeat(501) }, /text must be at most 500 characters/],
      [{ text: 'nul \u0000 inside' }, /text must not contain NUL/],
      [{ text: 7 }, /text is required/],
      [{ text: 'later', at: new Date(Date.now() + 2 * 3_600_000).toISOString() }, /at must not be in the future/],
      [{ text: 'when?', at: 'yesterday' }, /at must be a date and time/],
      [{ text: 'ancient', at: '1999-12-31T23:00:00Z' }, /at must be after 2000/],
    ];
    for (const [body, message] of cases) {
      const res = await client.post(`/api/domains/${domainId}/notes`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect((await client.post(`/api/domains/${domainId}/notes`, { text: 'x'.repeat(500) })).statusCode).toBe(201);
    expect(
      await t.database.db.select({ id: domainNotes.id }).from(domainNotes).where(eq(domainNotes.userId, user.id)),
    ).toHaveLength(1);
    for (const url of [`/api/domains/${domainId}/notes/abc`, `/api/domains/${domainId}/notes/0`])
      expect((await client.delete(url)).statusCode).toBe(400);
  });

  it('bounds days from 1 to 365', async () => {
    const { client, domainId } = await userWithDomain('bounded-brand.com');
    for (const days of ['0', '366', 'abc', '2.5']) {
      expect((await client.get(`/api/domains/${domainId}/timeline?days=${days}`)).statusCode, days).toBe(400);
      expect((await client.get(`/api/domains/${domainId}/diagnosis?days=${days}`)).statusCode, days).toBe(400);
    }
    expect((await client.get(`/api/domains/${domainId}/timeline?days=365`)).statusCode).toBe(200);
  });
});

describe('the DNS history', () => {
  it('keeps each record change seen by a check, and a check that starts failing, never the first check', async () => {
    const name = 'moving-brand.com';
    dns.zone[name] = {
      TXT: ['v=spf1 include:_spf.moving-brand.com -all'],
      MX: [{ exchange: 'mx1.moving-brand.com', priority: 10 }],
    };
    dns.zone[`_dmarc.${name}`] = { TXT: ['v=DMARC1; p=none'] };
    const { client } = await signUp(t.app);
    const domainId = (await client.post('/api/domains', { domain: name, verifyDns: true })).json().id as number;
    expect((await timelineOf(client, domainId)).events).toEqual([]);

    dns.zone[name] = {
      TXT: ['v=spf1 include:_spf.moving-brand.com -all'],
      MX: [{ exchange: 'mx2.moving-brand.com', priority: 10 }],
    };
    delete dns.zone[`_dmarc.${name}`];
    expect((await client.post(`/api/domains/${domainId}/verify`)).statusCode).toBe(200);
    // Nothing changed since: a third check adds nothing.
    expect((await client.post(`/api/domains/${domainId}/verify`)).statusCode).toBe(200);

    const events = (await timelineOf(client, domainId)).events;
    expect(events.map((e) => [e.kind, e.title, e.severity])).toEqual([
      ['dns_change', 'DMARC record removed', 'critical'],
      ['dns_change', 'MX record changed', 'warning'],
    ]);
    expect(events[0]!.detail).toBe(
      `v=DMARC1; p=none → (none). The DMARC record of ${name} is gone (it had p=none): receivers no longer apply your policy or send you reports. The DMARC check now fails (missing): No DMARC record: receivers apply no policy to mail that fails SPF and DKIM, and you get no reports.`,
    );
    expect(events[1]!.detail).toBe(
      `10 mx1.${name} → 10 mx2.${name}. The MX records of ${name} changed from 10 mx1.${name} to 10 mx2.${name}.`,
    );
  });
});

describe('the timeline of a sending IP', () => {
  it('shows the IP’s listings and delistings from the reputation check', async () => {
    const { client, user } = await signUp(t.app);
    const ip = (await client.post('/api/ip-addresses', { ipAddress: '93.184.216.77', type: 'dedicated' })).json();
    const run = () =>
      runReputationCheck({ db: t.database.db, dns: t.dns, log: pino({ level: 'silent' }), jobs: t.jobs }, user.id);
    dns.zone['77.216.184.93.bl.spamcop.net'] = { A: ['127.0.0.2'] };
    await run();
    delete dns.zone['77.216.184.93.bl.spamcop.net'];
    await run();

    const res = await client.get(`/api/ip-addresses/${ip.id}/timeline`);
    expect(res.statusCode, res.body).toBe(200);
    const timeline = res.json() as IpTimeline;
    expect(timeline.ip).toEqual({ id: ip.id, address: '93.184.216.77' });
    expect(timeline.events.map((e) => [e.kind, e.title, e.link])).toEqual([
      ['listing', '93.184.216.77 listed on SpamCop', '/blacklist-monitoring'],
      ['delisting', '93.184.216.77 removed from SpamCop', '/blacklist-monitoring'],
    ]);
    expect((await client.get('/api/ip-addresses/999999/timeline')).json()).toEqual({
      code: 'not_found',
      message: 'IP address not found',
    });
  });
});

describe('integration errors', () => {
  it('are heard from the integration row, whoever writes it, once per change', async () => {
    const { client, user, domainId } = await userWithDomain('synced-brand.com');
    const integration = (await insertIntegration(t.database.db, {
      userId: user.id,
      provider: 'sendgrid',
      type: 'esp',
      status: 'active',
      credentialsEncrypted: null,
      config: {},
    }))!;
    await updateIntegration(t.database.db, integration.id, {
      lastError: 'SendGrid answered 401: invalid API key',
      status: 'error',
    });
    await updateIntegration(t.database.db, integration.id, {
      lastError: 'SendGrid answered 401: invalid API key',
      consecutiveFailures: 2,
    });
    await updateIntegration(t.database.db, integration.id, { lastError: null, status: 'active' });
    expect(
      await t.database.db.select().from(integrationErrors).where(eq(integrationErrors.userId, user.id)),
    ).toHaveLength(2);

    const events = (await timelineOf(client, domainId)).events;
    expect(events.map((e) => [e.kind, e.title, e.detail])).toEqual([
      ['integration', 'SendGrid: sync failed', 'SendGrid answered 401: invalid API key'],
      ['integration', 'SendGrid: syncing again', null],
    ]);
  });
});
