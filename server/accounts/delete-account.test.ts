// DELETE /api/account: the user and every row they own go in one transaction, and nothing of them stays
// anywhere. The check lists every table of the database (information_schema), so a table added later
// that keeps a user's id, address or name fails this test until account deletion covers it.
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../platform/db/client';
import {
  alertDigests,
  alertNotifications,
  billingCoupons,
  alerts,
  blocklistIgnores,
  blocklistListings,
  blocklistResults,
  dmarcReporterAlerts,
  domainDnsChanges,
  domains,
  dropAlerts,
  emailMetrics,
  inboundMessages,
  inboxTestReports,
  inboxTests,
  integrations,
  outbox,
  postmasterStats,
  webhookDeliveries,
  webhooks,
} from '../platform/db/schema/index';
import { newApiKey, setPlan, withKey } from '../api-keys/api-keys.test-support';
import { reportXml } from '../dmarc/report-xml.test-support';
import { uploadReport } from '../dmarc/upload-client.test-support';
import { caughtUp } from '../test/caught-up';
import { createTestApp, signUp, TestClient, type TestApp } from '../test/test-app';
import { waitUntil } from '../test/wait-until';

let t: TestApp;
let second: TestApp;
beforeAll(async () => {
  // No SMTP: mail stays in the outbox with its address. A Google OAuth client, so a Google sign-in can be under way.
  t = await createTestApp({
    env: { GOOGLE_CLIENT_ID: 'test.apps.googleusercontent.com', GOOGLE_CLIENT_SECRET: 'test-secret' },
  });
  second = await createTestApp({ sameDatabaseAs: t }); // another web process on the same database
  // A self-hosted coupon: the operator's, kept after a user who redeemed it is gone.
  await t.database.db.insert(billingCoupons).values({ code: 'DELETEME', percentOff: 10 });
});
afterAll(async () => {
  await second?.close();
  await t?.close();
});

interface Person {
  id: number;
  username: string;
  email: string;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Every table of the database (every schema but PostgreSQL's own, so pg-boss's too) with the rows that
 * keep something of `person`: their id in a user-id column (a column named user_id or *_user_id, or a
 * foreign key to users), or their address or username anywhere in the row (the row cast to text, which
 * covers text, jsonb and array columns; bytea columns are searched for the address's bytes).
 */
async function tracesOf(db: Database['db'], person: Person): Promise<Record<string, number>> {
  const tables = await db.execute<{ schema: string; name: string }>(sql`
    SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
    WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') AND table_schema NOT LIKE 'pg_toast%'
    ORDER BY 1, 2`);
  const columns = await db.execute<{
    schema: string;
    name: string;
    column: string;
    type: string;
    is_user_id: boolean;
  }>(sql`
    SELECT c.table_schema AS schema, c.table_name AS name, c.column_name AS column, c.data_type AS type,
      (c.column_name = 'user_id' OR c.column_name LIKE '%\\_user\\_id' OR EXISTS (
        SELECT 1 FROM information_schema.key_column_usage k
        JOIN information_schema.referential_constraints r ON r.constraint_name = k.constraint_name AND r.constraint_schema = k.constraint_schema
        JOIN information_schema.constraint_column_usage u ON u.constraint_name = r.unique_constraint_name AND u.constraint_schema = r.unique_constraint_schema
        WHERE k.table_schema = c.table_schema AND k.table_name = c.table_name AND k.column_name = c.column_name
          AND u.table_schema = 'public' AND u.table_name = 'users' AND u.column_name = 'id'
      )) AS is_user_id
    FROM information_schema.columns c
    WHERE c.table_schema NOT IN ('pg_catalog', 'information_schema')`);
  const needles = [person.email.toLowerCase(), person.username.toLowerCase()];
  const found: Record<string, number> = {};
  for (const table of tables.rows) {
    const own = columns.rows.filter((c) => c.schema === table.schema && c.name === table.name);
    const conditions = [`strpos(lower(t::text), $1) > 0`, `strpos(lower(t::text), $2) > 0`];
    for (const c of own) {
      if (c.is_user_id && /int/.test(c.type)) conditions.push(`t.${quote(c.column)} = $3`);
      if (c.type === 'bytea')
        for (const n of ['$1', '$2']) conditions.push(`position(convert_to(${n}, 'UTF8') IN t.${quote(c.column)}) > 0`);
    }
    const params: (string | number)[] = conditions.some((c) => c.includes('$3')) ? [...needles, person.id] : needles;
    const { rows } = await t.database.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${quote(table.schema)}.${quote(table.name)} t WHERE ${conditions.join(' OR ')}`,
      params,
    );
    if (Number(rows[0].n) > 0) found[`${table.schema}.${table.name}`] = Number(rows[0].n);
  }
  return found;
}

/** The counters named after the user (rate_limits keys are text, not a user-id column). */
async function userCounters(person: Person): Promise<string[]> {
  const { rows } = await t.database.pool.query<{ key: string }>(`SELECT key FROM rate_limits WHERE key ~ $1`, [
    `:${person.id}(@|$)`,
  ]);
  return rows.map((r) => r.key);
}

/** A user with data in every feature, through the API where it is cheap and as rows where a feature needs the outside world. */
async function userWithEverything(
  tag: string,
): Promise<{ client: TestClient; person: Person; password: string; key: string }> {
  const username = `${tag}_${randomBytes(4).toString('hex')}`;
  const { client, user, password } = await signUp(t.app, { username, email: `${username}.addr@example.com` });
  const person = { id: user.id, username: user.username, email: user.email };
  const db = t.database.db;
  const ok = (res: { statusCode: number; body: string }, what: string) =>
    expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(300);
  const created = (res: LightMyRequestResponse, what: string) => {
    ok(res, what);
    return res.json();
  };

  // Sessions: a second device, and a wrong password before it (login failure counters).
  expect(
    (await new TestClient(t.app, '198.51.100.7').post('/api/login', { username, password: 'wrong password!' }))
      .statusCode,
  ).toBe(401);
  ok(await new TestClient(t.app, '198.51.100.8').post('/api/login', { username, password }), 'second session');
  // Mail: a reset link (outbox row with the address, auth token, per-address counter) and one sent long ago, its
  // user_id lost.
  ok(await client.post('/api/forgot-password', { email: person.email }), 'forgot password');
  await db
    .insert(outbox)
    .values({ userId: null, kind: 'alert_notification', toAddress: person.email, subject: 'Old news', status: 'sent' });

  // Domains, one healthy so inbox tests may start.
  const domainName = `${tag}-${person.id}.com`;
  const domain = created(await client.post('/api/domains', { domain: domainName, type: 'sending' }), 'domain');
  await db.update(domains).set({ status: 'healthy', isVerified: true }).where(eq(domains.id, domain.id));

  // Inbox tests, with the message that reached the test (from the user's address), its report and placements.
  const test = created(await client.post('/api/inbox-tests', { testType: 'automatic' }), 'inbox test');
  const raw = Buffer.from(
    `From: ${person.email}\r\nTo: ${test.testEmailAddress}\r\nSubject: [TEST-${test.id}] Hello\r\n\r\nHi from ${username}\r\n`,
  );
  const [message] = await db
    .insert(inboundMessages)
    .values({
      kind: 'inbox_test',
      source: 'smtp',
      mailFrom: person.email,
      rcptTo: [test.testEmailAddress],
      targetIds: [test.id],
      size: raw.length,
      raw,
      status: 'processed',
    })
    .returning();
  await db
    .update(inboxTests)
    .set({ inboundMessageId: message.id, status: 'running' })
    .where(eq(inboxTests.id, test.id));
  await db.insert(inboxTestReports).values({ testId: test.id, score: 9, report: { from: person.email } });

  // DMARC: an uploaded report, a mailed one's processing log, a reporter alert.
  const xml = reportXml({
    orgName: 'google.com',
    reportId: `r-${username}`,
    domain: domainName,
    begin: new Date(Date.now() - 2 * 24 * 3600 * 1000),
    records: [{ ip: '192.0.2.10', count: 5, dkim: 'pass', spf: 'pass' }],
  });
  ok(await uploadReport(t.app, client, xml, { fileName: 'report.xml' }), 'dmarc upload');
  await db.insert(inboundMessages).values({
    kind: 'dmarc',
    source: 'smtp',
    mailFrom: 'noreply-dmarc-support@google.com',
    rcptTo: ['dmarc@reports.example'],
    size: 10,
    status: 'processed',
    result: `report.xml: imported for user ${person.id}`,
  });
  await db
    .insert(dmarcReporterAlerts)
    .values({ userId: person.id, domain: domainName, orgName: 'google.com', lastReportAt: new Date() });

  // Reputation: an IP (and a check asked for), its list results and listings, an ignored list.
  const ip = created(
    await client.post('/api/ip-addresses', { ipAddress: '8.8.4.4', label: `${username} main`, type: 'dedicated' }),
    'ip',
  );
  ok(await client.post('/api/ip-monitoring/trigger'), 'monitoring trigger');
  await db
    .insert(blocklistResults)
    .values({ userId: person.id, ipAddressId: ip.id, listId: 'spamhaus-zen', status: 'listed', checkedAt: new Date() });
  await db
    .insert(blocklistListings)
    .values({ userId: person.id, ipAddressId: ip.id, listId: 'spamhaus-zen', listedAt: new Date() });
  await db.insert(blocklistIgnores).values({ userId: person.id, listId: 'spamcop' });

  // Alerts: settings, a rule, an alert with its notification and digest.
  ok(await client.request('PUT', '/api/alert-settings', { inboxThreshold: 80 }), 'alert settings');
  ok(
    await client.post('/api/alerts/rules', {
      name: `${username} bounces`,
      type: 'bounceRate',
      domain: domainName,
      threshold: { warning: 2, critical: 5 },
    }),
    'alert rule',
  );
  const [alert] = await db
    .insert(alerts)
    .values({
      userId: person.id,
      type: 'deliverability',
      severity: 'high',
      title: 'Inbox rate dropped',
      message: `For ${person.email}`,
    })
    .returning();
  await db.insert(alertNotifications).values({
    userId: person.id,
    alertId: alert.id,
    event: 'raised',
    type: alert.type,
    severity: alert.severity,
    title: alert.title,
    message: alert.message,
    occurredAt: new Date(),
  });
  await db.insert(alertDigests).values({ userId: person.id, channel: 'email', frequency: 'immediate', items: [] });

  // Billing: a subscription (self-hosted, so at once) with a coupon applied and redeemed.
  ok(await client.post('/api/apply-coupon', { couponCode: 'DELETEME', planId: 'starter_monthly' }), 'coupon');
  ok(await client.post('/api/upgrade-subscription', { planId: 'starter_monthly' }), 'subscription');

  // The public API: an API key (used, so its hourly quota and an idempotent create are stored) and a webhook token.
  await setPlan(t, person.id, 'professional');
  await caughtUp(t);
  const key = await newApiKey(client);
  const { token } = created(await client.post('/api/webhook-tokens/generate'), 'webhook token');
  // An MTA's delivery event to the user's address, through the webhook: the event, its day figures and the batch
  // counter.
  const line = `${new Date().toISOString()} mx1 postfix/smtp[1]: 4TfKDEL${person.id}: to=<${person.email}>, relay=mx.example.com[192.0.2.1]:25, delay=1, delays=0/0/0/1, dsn=2.0.0, status=sent (250 2.0.0 OK)`;
  const shipped = await t.app.inject({
    method: 'POST',
    url: '/api/webhooks/postfix',
    payload: line,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
  });
  expect(shipped.json(), 'delivery event').toMatchObject({ accepted: 1 });
  ok(
    await withKey(
      t.app,
      key,
      'POST',
      '/api/domains',
      { domain: `api-${domainName}` },
      { 'idempotency-key': `create-${username}` },
    ),
    'bearer create',
  );

  // Webhooks and a delivery; integrations and their metrics.
  const [hook] = await db
    .insert(webhooks)
    .values({
      userId: person.id,
      url: `https://hooks.example/${username}`,
      events: ['email.delivered'],
      secretEncrypted: 'sealed',
    })
    .returning();
  await db.insert(webhookDeliveries).values({
    webhookId: hook.id,
    userId: person.id,
    eventId: 'evt_1',
    eventType: 'email.delivered',
    body: `{"recipient":"${person.email}"}`,
  });
  await db.insert(integrations).values({ userId: person.id, provider: 'sendgrid', type: 'esp' });
  await db.insert(emailMetrics).values({ userId: person.id, provider: 'sendgrid', date: '2026-11-01', emailsSent: 10 });
  // Google Postmaster Tools: a sign-in under way, the connected account and a day of its figures.
  ok(await client.post('/api/integrations/google-postmaster/connect'), 'google connect');
  const [google] = await db
    .insert(integrations)
    .values({ userId: person.id, provider: 'google-postmaster', type: 'analytics', config: { domains: domainName } })
    .returning();
  await db.insert(postmasterStats).values({
    userId: person.id,
    integrationId: google.id,
    domain: domainName,
    date: '2026-11-01',
    userReportedSpamRatio: 0.001,
  });

  // The deliverability timeline: a note through the API, a record change as the domain check keeps it,
  // an integration error (the integrations trigger writes it) and a drop already alerted.
  ok(await client.post(`/api/domains/${domain.id}/notes`, { text: `${username} switched ESP` }), 'timeline note');
  await db.insert(domainDnsChanges).values({
    userId: person.id,
    domainId: domain.id,
    record: 'spf',
    before: null,
    after: 'v=spf1 -all',
    statusAfter: 'valid',
    summary: 'published',
  });
  await db
    .update(integrations)
    .set({ lastError: `401 for ${person.email}` })
    .where(eq(integrations.id, google.id));
  await db
    .insert(dropAlerts)
    .values({ userId: person.id, domainId: domain.id, dropId: 'bounce:rate@2026-11-01T00:00:00.000Z' });

  return { client, person, password, key };
}

describe('DELETE /api/account', () => {
  it('removes the user and every row they own, leaves another user’s data, and signs them out in every process', async () => {
    const leaver = await userWithEverything('leaver');
    const stayer = await userWithEverything('stayer');
    // Mail nobody's account owns, unrouted: kept.
    await t.database.db
      .insert(inboundMessages)
      .values({ kind: 'dmarc', source: 'smtp', rcptTo: ['dmarc@reports.example'], size: 1, status: 'unrouted' });

    const before = await tracesOf(t.database.db, leaver.person);
    // The set-up reached every feature's tables: otherwise the check after deletion proves little.
    expect(Object.keys(before)).toEqual(
      expect.arrayContaining(
        [
          'users',
          'sessions',
          'auth_tokens',
          'outbox',
          'domains',
          'inbox_tests',
          'inbound_messages',
          'dmarc_reports',
          'dmarc_source_days',
          'dmarc_reporter_alerts',
          'ip_addresses',
          'blocklist_results',
          'blocklist_listings',
          'blocklist_ignores',
          'reputation_runs',
          'alert_settings',
          'alert_rules',
          'alerts',
          'alert_notifications',
          'alert_digests',
          'webhooks',
          'webhook_deliveries',
          'integrations',
          'email_metrics',
          'postmaster_stats',
          'google_oauth_states',
          'api_keys',
          'webhook_tokens',
          'idempotency_keys',
          'delivery_events',
          'billing_subscriptions',
          'domain_notes',
          'domain_dns_changes',
          'integration_errors',
          'drop_alerts',
        ].map((name) => `public.${name}`),
      ),
    );
    expect(await userCounters(leaver.person)).not.toEqual([]);
    const stayerBefore = await tracesOf(t.database.db, stayer.person);

    // The same browser session, cached by another process.
    const elsewhere = new TestClient(second.app, leaver.client.ip);
    elsewhere.cookie = leaver.client.cookie;
    expect((await elsewhere.get('/api/user')).statusCode).toBe(200);
    const oldCookie = leaver.client.cookie;

    const res = await leaver.client.delete('/api/account');
    expect(res.statusCode).toBe(204);
    const cleared = res.cookies.find((c) => c.name === 'inboxpulse_session');
    expect(cleared?.value).toBe('');

    expect(await tracesOf(t.database.db, leaver.person)).toEqual({});
    expect(await userCounters(leaver.person)).toEqual([]);
    expect(await tracesOf(t.database.db, stayer.person)).toEqual(stayerBefore);
    const kept = await t.database.db.select().from(inboundMessages).where(eq(inboundMessages.status, 'unrouted'));
    expect(kept).toHaveLength(1);

    // The old cookie is refused here at once, and in the other process as soon as it hears the deletion.
    const replay = new TestClient(t.app, leaver.client.ip);
    replay.cookie = oldCookie;
    expect((await replay.get('/api/user')).statusCode).toBe(401);
    expect((await replay.get('/api/domains')).statusCode).toBe(401);
    expect((await withKey(t.app, leaver.key, 'GET', '/api/domains')).statusCode).toBe(401);
    await waitUntil(
      async () => (await elsewhere.get('/api/user')).statusCode === 401,
      'the other process to refuse the deleted user’s session',
    );
    // Nobody signs in as them any more; the name and address are free again.
    expect(
      (
        await new TestClient(t.app, '198.51.100.9').post('/api/login', {
          username: leaver.person.username,
          password: leaver.password,
        })
      ).statusCode,
    ).toBe(401);
    await signUp(t.app, { username: leaver.person.username, email: leaver.person.email });

    // The other user is as they were.
    expect((await stayer.client.get('/api/domains')).json()).toHaveLength(2);
    expect((await stayer.client.get('/api/inbox-tests')).json()).toHaveLength(1);
  });

  it('needs a signed-in browser session: an API key of the account cannot delete it', async () => {
    const anonymous = await new TestClient(t.app).delete('/api/account');
    expect(anonymous.statusCode).toBe(401);
    const { client, user } = await signUp(t.app);
    await setPlan(t, user.id, 'professional');
    await caughtUp(t);
    const key = await newApiKey(client);
    const byKey = await withKey(t.app, key, 'DELETE', '/api/account');
    expect(byKey.statusCode).toBe(403);
    expect((await client.get('/api/user')).json()).toMatchObject({ id: user.id });
  });
});
