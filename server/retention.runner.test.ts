import { daysAgo, utcDay } from '@contracts/utc-day';
import { eq, getTableName, sql } from 'drizzle-orm';
import type { PgColumn, PgInsertValue, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanId } from '@contracts/plans';
import { jobRegistry } from './job-registry';
import { applyRetention, KEPT_TABLES, RETENTION_PURGES } from './data-retention';
import {
  alertDigests,
  alertNotifications,
  alerts,
  blocklistListings,
  deliveryEvents,
  dmarcReceivedFiles,
  dmarcRecords,
  dmarcReports,
  dmarcSourceDays,
  domainDnsChanges,
  domains,
  dropAlerts,
  emailMetrics,
  inboxTestPlacements,
  inboxTests,
  integrationErrors,
  integrations,
  ipAddresses,
  postmasterStats,
  users,
  webhookDeliveries,
  webhooks,
} from './platform/db/schema/index';
import { createTestApp, signUp, type TestApp } from './test/test-app';
import { retentionRunner } from './retention.runner';

// Data retention (ADR 032): rows put in place on both sides of each plan's boundary, the job run, and
// exactly the older ones gone, for a Free user (30 days) and a Professional one (365 days).

/** The purged tables' names. */
const PURGED = RETENTION_PURGES.map((purge) => getTableName(purge.table));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const NOW = new Date();
const ago = (days: number) => daysAgo(days, NOW);
const dayAgo = (days: number) => utcDay(ago(days));
let serial = 0;
const unique = (prefix: string) => `${prefix}-${++serial}`;

/** What identifies a row of each purged table: its id, or for the tables without one, a column of it. */
const KEY_OF: Record<string, string> = { dmarc_source_days: 'source_ip', drop_alerts: 'drop_id' };

interface Seeded {
  userId: number;
  /** Per table, the keys of the rows that must go and of those that must stay. */
  old: Record<string, string[]>;
  kept: Record<string, string[]>;
  config: { domainId: number; ipId: number; integrationId: number; webhookId: number };
}

/** A user on `plan` with their configuration and, in every purged table, a row either side of `days` ago. */
async function seed(plan: PlanId, days: number): Promise<Seeded> {
  const { user } = await signUp(t.app);
  const db = t.database.db;
  await db.update(users).set({ subscriptionPlan: plan }).where(eq(users.id, user.id));
  const userId = user.id;
  const [domain] = await db
    .insert(domains)
    .values({ userId, domain: `${unique('brand')}.example.com`, verificationToken: 't' })
    .returning();
  const [ip] = await db
    .insert(ipAddresses)
    .values({ userId, ipAddress: `192.0.2.${serial % 250}`, type: 'dedicated' })
    .returning();
  const [integration] = await db
    .insert(integrations)
    .values({ userId, provider: 'google-postmaster', type: 'analytics' })
    .returning();
  const [webhook] = await db
    .insert(webhooks)
    .values({ userId, url: 'https://hooks.example.com/x', events: ['alert.created'], secretEncrypted: 'x' })
    .returning();

  // Old, but an open condition: the live state, kept whatever its age (notifications below hang on it).
  const long = ago(days + 100);
  const [open] = await db
    .insert(alerts)
    .values({
      userId,
      type: 'blacklist_detection',
      severity: 'error',
      title: 'o',
      message: 'o',
      isRead: true,
      conditionKey: 'ip:1',
      createdAt: long,
    })
    .returning();

  const old: Record<string, string[]> = {};
  const kept: Record<string, string[]> = {};
  const put = (into: Record<string, string[]>, table: string, key: string | number) =>
    (into[table] ??= []).push(String(key));
  /** Inserts a row of a purged table and notes its id among the rows that must go or stay. */
  async function insertNoted<T extends PgTable & { id: PgColumn }>(
    into: Record<string, string[]>,
    table: T,
    values: PgInsertValue<T>,
  ): Promise<number> {
    const [row] = await db.insert(table).values(values).returning({ id: table.id });
    const id = Number(row!.id);
    put(into, getTableName(table), id);
    return id;
  }

  // Either side of the boundary by a day: older goes, newer stays.
  for (const [into, age] of [
    [old, days + 1],
    [kept, days - 1],
  ] as const) {
    const at = ago(age);
    const [test] = await db
      .insert(inboxTests)
      .values({ userId, testEmailAddress: `${unique('t')}@inbox.localhost`, status: 'completed', createdAt: at })
      .returning();
    await db.insert(inboxTestPlacements).values({
      testId: test!.id,
      provider: 'Gmail',
      mailboxSystem: 'Gmail',
      region: 'NA',
      country: 'US',
      placement: 'inbox',
    });
    put(into, 'inbox_tests', test!.id);
    // A report is as old as the period it covers, whenever it was imported.
    const [report] = await db
      .insert(dmarcReports)
      .values({
        userId,
        status: 'imported',
        fileName: 'r.xml',
        rawSize: 1,
        orgName: 'google.com',
        reportId: unique('r'),
        dateBegin: ago(age + 1),
        dateEnd: at,
      })
      .returning();
    await db.insert(dmarcRecords).values({
      reportId: report!.id,
      sourceIp: '192.0.2.1',
      count: 1,
      disposition: 'none',
      dkimResult: 'pass',
      spfResult: 'pass',
      headerFrom: 'x',
      dkimAuth: [],
      spfAuth: [],
    });
    put(into, 'dmarc_reports', report!.id);
    const sourceIp = unique('198.51.100');
    await db.insert(dmarcSourceDays).values({
      userId,
      day: dayAgo(age),
      domain: 'x',
      sourceIp,
      disposition: 'none',
      total: 1,
      spfAligned: 1,
      dkimAligned: 1,
      failed: 0,
      failedMisaligned: 0,
    });
    put(into, 'dmarc_source_days', sourceIp);
    // A report file kept as received, because a report in it could not be read: as old as its import.
    const [received] = await db
      .insert(dmarcReceivedFiles)
      .values({ userId, fileName: 'cut.xml.gz', data: Buffer.from('cut'), createdAt: at })
      .returning();
    put(into, 'dmarc_received_files', received!.id);
    await insertNoted(into, deliveryEvents, {
      userId,
      source: 'api',
      messageId: unique('m'),
      recipient: 'a@example.org',
      eventType: 'delivered',
      recipientDomain: 'example.org',
      occurredAt: at,
    });
    await insertNoted(into, emailMetrics, { userId, provider: 'sendgrid', date: dayAgo(age), emailsSent: 10 });
    await insertNoted(into, postmasterStats, {
      userId,
      integrationId: integration!.id,
      domain: domain!.domain,
      date: dayAgo(age),
    });
    await insertNoted(into, blocklistListings, {
      userId,
      ipAddressId: ip!.id,
      listId: 'zen',
      listedAt: ago(age + 3),
      delistedAt: at,
    });
    await insertNoted(into, alerts, {
      userId,
      type: 'dns_changes',
      severity: 'info',
      title: 'a',
      message: 'a',
      isRead: true,
      createdAt: at,
    });
    await insertNoted(into, alertNotifications, {
      userId,
      alertId: open!.id,
      event: 'raised',
      type: 'dns_changes',
      severity: 'info',
      title: 'a',
      message: 'a',
      occurredAt: at,
      claimedAt: at,
      createdAt: at,
    });
    await insertNoted(into, alertDigests, {
      userId,
      channel: 'email',
      frequency: 'daily',
      items: [],
      status: 'sent',
      createdAt: at,
    });
    await insertNoted(into, webhookDeliveries, {
      webhookId: webhook!.id,
      userId,
      eventId: unique('evt'),
      eventType: 'alert.created',
      body: '{}',
      status: 'delivered',
      createdAt: at,
    });
    await insertNoted(into, domainDnsChanges, {
      userId,
      domainId: domain!.id,
      record: 'spf',
      summary: 'changed',
      observedAt: at,
    });
    await insertNoted(into, integrationErrors, {
      userId,
      integrationId: integration!.id,
      provider: 'google-postmaster',
      error: 'x',
      at,
    });
    const dropId = unique('placement:gmail');
    await db.insert(dropAlerts).values({ userId, domainId: domain!.id, dropId, raisedAt: at });
    put(into, 'drop_alerts', dropId);
  }

  // Old, but still the current state or not seen yet: kept whatever their age.
  const [unread] = await db
    .insert(alerts)
    .values({ userId, type: 'dns_changes', severity: 'info', title: 'u', message: 'u', createdAt: long })
    .returning();
  kept.alerts!.push(String(unread!.id), String(open!.id));
  await insertNoted(kept, alertNotifications, {
    userId,
    alertId: open!.id,
    event: 'raised',
    type: 'blacklist_detection',
    severity: 'error',
    title: 'o',
    message: 'o',
    occurredAt: long,
    createdAt: long,
  });
  await insertNoted(kept, blocklistListings, { userId, ipAddressId: ip!.id, listId: 'spamcop', listedAt: long });
  await insertNoted(kept, alertDigests, { userId, channel: 'email', frequency: 'daily', items: [], createdAt: long });
  await insertNoted(kept, webhookDeliveries, {
    webhookId: webhook!.id,
    userId,
    eventId: unique('evt'),
    eventType: 'alert.created',
    body: '{}',
    status: 'retrying',
    createdAt: long,
  });

  return {
    userId,
    old,
    kept,
    config: { domainId: domain!.id, ipId: ip!.id, integrationId: integration!.id, webhookId: webhook!.id },
  };
}

async function keysLeft(table: string, userId: number): Promise<string[]> {
  const key = KEY_OF[table] ?? 'id';
  const { rows } = await t.database.pool.query<{ key: string }>(
    `SELECT ${key}::text AS key FROM ${table} WHERE user_id = $1`,
    [userId],
  );
  return rows.map((r) => r.key);
}

describe('data retention', () => {
  it('deletes exactly what is older than each user’s plan keeps, table by table, and none of their configuration', async () => {
    const free = await seed('free', 30);
    const professional = await seed('professional', 365);
    // A Professional user's month-old rows are well inside their year.
    const monthOld = await seed('professional', 30);

    const deleted = await applyRetention(t.database.db, NOW);

    for (const user of [free, professional]) {
      for (const table of PURGED) {
        const left = await keysLeft(table, user.userId);
        expect(left.sort(), `${table} of user ${user.userId}`).toEqual([...user.kept[table]!].sort());
      }
    }
    for (const table of PURGED) {
      expect((await keysLeft(table, monthOld.userId)).sort(), table).toEqual(
        [...monthOld.old[table]!, ...monthOld.kept[table]!].sort(),
      );
      // The two users' old rows, and those of no one else this database holds.
      expect(deleted[table], table).toBeGreaterThanOrEqual(free.old[table]!.length + professional.old[table]!.length);
    }
    // What went with the deleted rows (their cascades), and what did not.
    const placements = await t.database.db
      .select()
      .from(inboxTestPlacements)
      .where(eq(inboxTestPlacements.testId, Number(free.old.inbox_tests![0])));
    expect(placements).toEqual([]);
    const records = await t.database.pool.query(
      `SELECT count(*)::int AS n FROM dmarc_records WHERE report_id = ANY($1::int[])`,
      [free.old.dmarc_reports!.map(Number)],
    );
    expect(records.rows[0].n).toBe(0);
    for (const user of [free, professional]) {
      const { domainId, ipId, integrationId, webhookId } = user.config;
      const { rows } = await t.database.pool.query(
        `SELECT (SELECT count(*) FROM domains WHERE id = $1)::int + (SELECT count(*) FROM ip_addresses WHERE id = $2)::int
           + (SELECT count(*) FROM integrations WHERE id = $3)::int + (SELECT count(*) FROM webhooks WHERE id = $4)::int AS n`,
        [domainId, ipId, integrationId, webhookId],
      );
      expect(rows[0].n).toBe(4);
    }
  });

  it('deletes in batches until nothing old is left', async () => {
    const { user } = await signUp(t.app);
    // More than one batch of inbox tests (500) and of delivery events (5,000).
    await t.database.db.execute(sql`
      INSERT INTO inbox_tests (user_id, test_email_address, status, created_at)
      SELECT ${user.id}, 'batch-' || ${user.id} || '-' || n || '@inbox.localhost', 'completed', now() - interval '40 days' FROM generate_series(1, 1203) AS n`);
    await t.database.db.execute(sql`
      INSERT INTO delivery_events (user_id, source, message_id, recipient, event_type, recipient_domain, occurred_at)
      SELECT ${user.id}, 'api', 'm' || n, 'a@example.org', 'delivered', 'example.org', now() - interval '40 days' FROM generate_series(1, 10007) AS n`);
    await applyRetention(t.database.db, NOW);
    expect(await keysLeft('inbox_tests', user.id)).toEqual([]);
    expect(await keysLeft('delivery_events', user.id)).toEqual([]);
  });

  it('places every table that holds a user’s rows: purged by a rule, or kept for a stated reason', async () => {
    const { rows } = await t.database.pool.query<{ table_name: string }>(
      `SELECT DISTINCT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'user_id' ORDER BY 1`,
    );
    const placed = [...PURGED, ...Object.keys(KEPT_TABLES)];
    expect(rows.map((r) => r.table_name).filter((name) => !placed.includes(name))).toEqual([]);
    expect(PURGED.filter((name) => name in KEPT_TABLES)).toEqual([]);
  });

  it('runs once a day on the worker’s schedule', () => {
    expect(jobRegistry).toContain(retentionRunner);
    expect(retentionRunner.schedule).toBe('17 3 * * *');
  });
});
