import { and, eq, sql, type SQL } from 'drizzle-orm';
import { readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SMS_CODE_TRIES, SMS_VERIFICATION_MESSAGES } from '@contracts/alert-settings';
import type { AlertSeverity, AlertType } from '@contracts/alerts';
import { RATE_RULES } from '../../platform/security/rate-limit';
import { countAttempt } from '../../platform/security/rate-limits.repo';
import { alertDigests, alerts, outbox, webhookDeliveries, webhooks } from '../../platform/db/schema/index';
import { createMailer } from '../../platform/mail/mailer';
import { decryptSecret } from '../../platform/security/secret-box';
import { caughtUp } from '../../test/caught-up';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server';
import { hasOpenssl, makeSelfSignedCert } from '../../test/self-signed-cert';
import { createTestApp, signUp, type TestApp, type TestClient } from '../../test/test-app';
import { raiseAlert } from '../alerts.service';
import { deliverUserAlerts, sendDigest, sweepAlertDelivery } from './alert-delivery.service';
import { leaseDigest } from './delivery.repo';

// Slack's own host name (the only one the settings take), answered by the test DNS with a loopback receiver.
const SLACK_HOST = 'hooks.slack.com';
const LOOPBACK = '127.0.0.2';
const TWILIO_SID = 'AC0123456789abcdef0123456789abcdef';

describe.skipIf(!hasOpenssl)('alert delivery (needs openssl for the loopback Slack)', () => {
  let t: TestApp;
  let dns: TestDnsServer;
  let slack: HttpsServer;
  let twilio: HttpServer;
  let made: ReturnType<typeof makeSelfSignedCert>;
  let slackUrl = '';
  let slackPosts: { path: string; body: any }[] = [];
  let smsSent: Record<string, string>[] = [];
  let ctx: Parameters<typeof deliverUserAlerts>[0];

  beforeAll(async () => {
    made = makeSelfSignedCert(SLACK_HOST);
    slack = createHttpsServer({ key: readFileSync(made.key), cert: readFileSync(made.cert) }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        slackPosts.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        res.writeHead(200, { 'content-type': 'text/html' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => slack.listen(0, LOOPBACK, resolve));
    slackUrl = `https://${SLACK_HOST}:${(slack.address() as AddressInfo).port}/services/T000/B000/XXXX`;
    // Twilio's Messages resource as its API reference answers it.
    twilio = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
        smsSent.push(form);
        res
          .writeHead(201, { 'content-type': 'application/json' })
          .end(JSON.stringify({ sid: `SM${smsSent.length}`, status: 'queued', to: form.To }));
      });
    });
    await new Promise<void>((resolve) => twilio.listen(0, '127.0.0.1', resolve));
    dns = await startDnsServer({ [SLACK_HOST]: { A: [LOOPBACK] }, 'hooks.receiver.example': { A: ['93.184.216.34'] } });
    t = await createTestApp({
      smtpUrl: 'smtp://127.0.0.1:9', // configured: mail is kept in the outbox for send-email (no worker runs here)
      env: {
        DNS_SERVERS: dns.address,
        OUTBOUND_ALLOW_ADDRESSES: LOOPBACK,
        OUTBOUND_CA_FILE: made.cert,
        TWILIO_ACCOUNT_SID: TWILIO_SID,
        TWILIO_AUTH_TOKEN: 'twilio-token',
        TWILIO_FROM: '+15017122661',
        TWILIO_BASE_URL: `http://127.0.0.1:${(twilio.address() as AddressInfo).port}`,
      },
    });
    ctx = {
      db: t.database.db,
      env: t.env,
      dns: t.dns,
      jobs: t.jobs,
      log: pino({ level: 'silent' }),
      mailer: createMailer(t.env.SMTP_URL, t.env.MAIL_FROM),
    };
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
    slack?.closeAllConnections();
    slack?.close();
    twilio?.closeAllConnections();
    twilio?.close();
    if (made) rmSync(made.dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    slackPosts = [];
    smsSent = [];
  });

  const db = () => t.database.db;
  const count = async (query: SQL) => (await db().execute<{ n: number }>(query)).rows[0];

  async function account(plan: 'free' | 'professional' = 'professional') {
    const signed = await signUp(t.app);
    if (plan === 'professional') {
      await db().execute(sql`UPDATE users SET subscription_plan = 'professional' WHERE id = ${signed.user.id}`);
      await caughtUp(t);
    }
    return signed;
  }

  async function settings(client: TestClient, body: Record<string, unknown>) {
    const res = await client.request('PUT', '/api/alert-settings', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  /** Asks for a code for the saved number and types back the one the fake Twilio received. */
  async function verifySmsNumber(client: TestClient) {
    const before = smsSent.length;
    expect((await client.post('/api/alert-settings/sms-code')).statusCode).toBe(200);
    const code = /\b(\d{6})\b/.exec(smsSent[before]!.Body!)![1]!;
    const verified = await client.post('/api/alert-settings/sms-code/verify', { code });
    expect(verified.statusCode, verified.body).toBe(200);
    smsSent.splice(before, 1);
  }

  async function raise(
    userId: number,
    fields: { type?: AlertType; severity?: AlertSeverity; title?: string; message?: string; createdAt?: string } = {},
  ) {
    const alert = await raiseAlert(db(), {
      userId,
      type: fields.type ?? 'authentication_failure',
      severity: fields.severity ?? 'critical',
      title: fields.title ?? 'example.com fails its authentication checks',
      message: fields.message ?? 'SPF and DMARC fail for example.com.',
      domain: 'example.com',
    });
    if (fields.createdAt)
      await db()
        .update(alerts)
        .set({ createdAt: new Date(fields.createdAt) })
        .where(eq(alerts.id, alert.id));
    return alert;
  }

  /** The deliver-alerts job at `now`, then every message it made sent, as their jobs would. */
  async function deliver(userId: number, now = new Date()) {
    const ids = await deliverUserAlerts(ctx, userId, now);
    const outcomes = [];
    for (const id of ids) outcomes.push(await sendDigest(ctx, id));
    return { ids, outcomes };
  }

  const mails = (userId: number) =>
    db()
      .select()
      .from(outbox)
      .where(and(eq(outbox.userId, userId), eq(outbox.kind, 'alert_notification')))
      .orderBy(outbox.id);
  const digests = (userId: number) =>
    db().select().from(alertDigests).where(eq(alertDigests.userId, userId)).orderBy(alertDigests.id);

  it('e-mails a raised alert at once, in HTML and text with its link, and never twice', async () => {
    const { user } = await account('free');
    const alert = await raise(user.id, { message: 'Reporter "<script>x</script>" says SPF fails & DKIM too.' });
    const first = await deliver(user.id);
    expect(first.outcomes).toEqual(['sent']);
    const [mail, ...more] = await mails(user.id);
    expect(more).toEqual([]);
    expect(mail).toMatchObject({
      toAddress: user.email,
      status: 'pending',
      subject: '[InboxPulse] Critical: example.com fails its authentication checks',
    });
    const link = `http://localhost:3000/alerts?alertId=${alert.id}`;
    expect(mail!.htmlBody).toContain(`href="${link}"`);
    expect(mail!.htmlBody).toContain(
      'Reporter &quot;&lt;script&gt;x&lt;/script&gt;&quot; says SPF fails &amp; DKIM too.',
    );
    expect(mail!.htmlBody).not.toContain('<script>');
    expect(mail!.textBody).toContain('Reporter "<script>x</script>" says SPF fails & DKIM too.');
    expect(mail!.textBody).toContain(`View: ${link}`);
    const [row] = await db().select().from(alerts).where(eq(alerts.id, alert.id));
    expect(row!.notifiedAt).not.toBeNull();

    // The job again, and the same message's job again: nothing new.
    expect((await deliver(user.id)).ids).toEqual([]);
    expect(await sendDigest(ctx, first.ids[0]!)).toBe('busy');
    expect(await mails(user.id)).toHaveLength(1);
  });

  it('honours the e-mail toggles and a rule that sends no e-mail', async () => {
    const { user, client } = await account('free');
    await settings(client, { emailBounce: false, emailReputation: false });
    await raise(user.id, { type: 'bounce', severity: 'warning', title: 'Bounce rate 7%' });
    await raise(user.id, { type: 'blacklist_detection', severity: 'error', title: 'Listed on Spamhaus' });
    await raise(user.id, { type: 'spam', severity: 'warning', title: 'Complaints 0.5%' });
    const rule = await client.request('POST', '/api/alerts/rules', {
      name: 'Quiet rule',
      type: 'inboxRate',
      threshold: { warning: 80, critical: 60 },
      notifications: { email: false, webhook: false, slack: false, sms: false },
    });
    expect(rule.statusCode, rule.body).toBe(200);
    const ruled = await raise(user.id, { type: 'deliverability_drop', severity: 'warning', title: 'Inbox rate 70%' });
    await db()
      .update(alerts)
      .set({ metadata: { ruleId: rule.json().id } })
      .where(eq(alerts.id, ruled.id));
    await deliver(user.id);
    const [mail, ...more] = await mails(user.id);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('[InboxPulse] Warning: Complaints 0.5%');
    expect(mail!.textBody).not.toContain('Bounce rate');
    expect(mail!.textBody).not.toContain('Inbox rate 70%');
  });

  it('posts to Slack and texts critical alerts only; a downgraded account gets neither, only e-mail', async () => {
    const { user, client } = await account();
    await settings(client, {
      slackEnabled: true,
      slackWebhookUrl: slackUrl,
      smsEnabled: true,
      smsNumber: '+14155550123',
    });
    await verifySmsNumber(client);
    const critical = await raise(user.id, { severity: 'critical', title: 'Listed on Spamhaus DBL' });
    await raise(user.id, { severity: 'warning', title: 'DKIM key short' });
    const { outcomes } = await deliver(user.id);
    expect(outcomes).toEqual(['sent', 'sent', 'sent']);
    expect((await digests(user.id)).map((d) => [d.channel, d.items.length])).toEqual([
      ['email', 2],
      ['slack', 2],
      ['sms', 1],
    ]);
    expect((await mails(user.id))[0]!.subject).toBe('[InboxPulse] 2 alerts');
    expect(slackPosts).toHaveLength(1);
    expect(slackPosts[0]!.path).toBe('/services/T000/B000/XXXX');
    expect(slackPosts[0]!.body.text).toBe('InboxPulse: 2 alerts');
    expect(JSON.stringify(slackPosts[0]!.body.blocks)).toContain(`http://localhost:3000/alerts?alertId=${critical.id}`);
    // The type, domain and link: no title, which may carry words the account chose (a rule's name).
    expect(smsSent).toEqual([
      {
        To: '+14155550123',
        From: '+15017122661',
        Body: `InboxPulse Critical: Authentication failure for example.com http://localhost:3000/alerts?alertId=${critical.id}`,
      },
    ]);

    // One alert alone is posted as itself.
    await raise(user.id, { severity: 'critical', title: 'Second listing' });
    await deliver(user.id);
    expect(slackPosts[1]!.body.text).toBe('Critical: Second listing');
    expect(smsSent).toHaveLength(2);
    expect(smsSent.map((m) => m.Body).join()).not.toMatch(/listing|Spamhaus/);

    // Downgraded: the plan is checked again when sending.
    await db().execute(sql`UPDATE users SET subscription_plan = 'free' WHERE id = ${user.id}`);
    await raise(user.id, { severity: 'critical', title: 'Third listing' });
    const after = await deliver(user.id);
    expect(after.outcomes).toEqual(['sent', 'skipped', 'skipped']);
    expect(slackPosts).toHaveLength(2);
    expect(smsSent).toHaveLength(2);
    const skipped = (await digests(user.id)).filter((d) => d.status === 'skipped');
    expect(skipped.map((d) => [d.channel, d.lastError])).toEqual([
      ['slack', 'Requires Professional plan'],
      ['sms', 'Requires Professional plan'],
    ]);
    expect(await mails(user.id)).toHaveLength(3);
  });

  it('texts no alert to a number until its owner enters the code texted to it, and a new number starts over', async () => {
    const { user, client } = await account();
    await settings(client, { smsEnabled: true, smsNumber: '+14155550123' });
    await raise(user.id, { severity: 'critical' });
    expect((await deliver(user.id)).outcomes).toEqual(['sent', 'skipped']);
    expect((await digests(user.id)).find((d) => d.channel === 'sms')!.lastError).toBe(
      SMS_VERIFICATION_MESSAGES.notVerified,
    );
    expect(smsSent).toEqual([]);

    const asked = await client.post('/api/alert-settings/sms-code');
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().message).toBe(SMS_VERIFICATION_MESSAGES.sent('+14155550123'));
    const code = /\b(\d{6})\b/.exec(smsSent[0]!.Body!)![1]!;
    expect(smsSent[0]!.To).toBe('+14155550123');
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < SMS_CODE_TRIES; i++) {
      const res = await client.post('/api/alert-settings/sms-code/verify', { code: wrong });
      expect(res.json().message).toBe(SMS_VERIFICATION_MESSAGES.wrong);
    }
    // Tried too often: even the right code needs a new text now.
    const spent = await client.post('/api/alert-settings/sms-code/verify', { code });
    expect(spent.json().message).toBe(SMS_VERIFICATION_MESSAGES.expired);
    await verifySmsNumber(client);
    expect((await client.get('/api/alert-settings')).json()).toMatchObject({ smsVerified: true });

    await raise(user.id, { severity: 'critical', title: 'Another' });
    smsSent = [];
    await deliver(user.id);
    expect(smsSent).toHaveLength(1);

    // Another number is unproven until its own code comes back.
    const moved = await settings(client, { smsNumber: '+14155550199' });
    expect(moved.smsVerified).toBe(false);
    await raise(user.id, { severity: 'critical', title: 'Third' });
    await deliver(user.id);
    expect(smsSent).toHaveLength(1);
  });

  it('texts an account at most 20 times a day and refuses codes to accounts without SMS alerts', async () => {
    const { user, client } = await account();
    await settings(client, { smsEnabled: true, smsNumber: '+14155550123' });
    await verifySmsNumber(client);
    const rule = RATE_RULES.smsPerUserPerDay;
    // The code's text was one; 18 more, and one alert fits before the day's bound.
    await countAttempt(db(), `${rule.name}:${user.id}`, rule.windowSeconds, rule.limit - 2);
    await raise(user.id, { severity: 'critical', title: 'Counted' });
    smsSent = [];
    await deliver(user.id);
    expect(smsSent).toHaveLength(1);
    await raise(user.id, { severity: 'critical', title: 'One too many' });
    expect((await deliver(user.id)).outcomes).toEqual(['sent', 'skipped']);
    expect(smsSent).toHaveLength(1);

    const { client: free } = await account('free');
    const refused = await free.post('/api/alert-settings/sms-code');
    expect(refused.statusCode).toBe(403);
  });

  it('groups an hourly digest into one message sent at the top of the hour, and nothing when nothing is pending', async () => {
    const { user, client } = await account('free');
    await settings(client, { frequency: 'hourly' });
    await raise(user.id, { title: 'One', createdAt: '2025-03-05T10:05:00Z' });
    await raise(user.id, { title: 'Two', severity: 'warning', createdAt: '2025-03-05T10:20:00Z' });
    await raise(user.id, { title: 'Three', severity: 'info', createdAt: '2025-03-05T10:40:00Z' });
    expect((await deliver(user.id, new Date('2025-03-05T10:50:00Z'))).ids).toEqual([]);
    expect(await mails(user.id)).toEqual([]);
    const due = await deliver(user.id, new Date('2025-03-05T11:00:20Z'));
    expect(due.outcomes).toEqual(['sent']);
    const [mail] = await mails(user.id);
    expect(mail!.subject).toBe('[InboxPulse] 3 alerts (hourly digest)');
    expect(mail!.textBody).toMatch(/Critical: One[\s\S]*Warning: Two[\s\S]*Info: Three/);
    expect((await deliver(user.id, new Date('2025-03-05T12:00:20Z'))).ids).toEqual([]);
    expect(await mails(user.id)).toHaveLength(1);
  });

  it('sends a daily digest at 08:00 on the quiet hours’ clock', async () => {
    const { user, client } = await account('free');
    await settings(client, {
      frequency: 'daily',
      quietHours: { start: '22:00', end: '06:00', timeZone: 'Europe/Paris' },
    });
    await raise(user.id, { title: 'Yesterday', severity: 'warning', createdAt: '2025-03-04T15:00:00Z' });
    await raise(user.id, { title: 'Evening', severity: 'error', createdAt: '2025-03-04T20:00:00Z' });
    // 07:30 in Paris: not yet.
    expect((await deliver(user.id, new Date('2025-03-05T06:30:00Z'))).ids).toEqual([]);
    await deliver(user.id, new Date('2025-03-05T07:00:30Z'));
    const all = await mails(user.id);
    expect(all.map((m) => m.subject)).toEqual(['[InboxPulse] 2 alerts (daily digest)']);
  });

  it('sends a weekly summary on Monday at 08:00 with the whole week, and nothing more until the next Monday', async () => {
    const { user, client } = await account('free');
    await settings(client, { frequency: 'weekly' });
    await raise(user.id, { title: 'Wednesday', severity: 'warning', createdAt: '2025-03-05T09:00:00Z' });
    await raise(user.id, { title: 'Sunday', severity: 'critical', createdAt: '2025-03-09T21:00:00Z' });
    // Sunday night, and Monday 07:59: not yet.
    expect((await deliver(user.id, new Date('2025-03-09T23:00:00Z'))).ids).toEqual([]);
    expect((await deliver(user.id, new Date('2025-03-10T07:59:00Z'))).ids).toEqual([]);
    expect((await deliver(user.id, new Date('2025-03-10T08:00:30Z'))).outcomes).toEqual(['sent']);
    await raise(user.id, { title: 'Monday noon', severity: 'info', createdAt: '2025-03-10T12:00:00Z' });
    // Tuesday and Sunday: the alert of Monday noon waits for the next summary.
    expect((await deliver(user.id, new Date('2025-03-11T08:00:30Z'))).ids).toEqual([]);
    expect((await deliver(user.id, new Date('2025-03-16T20:00:00Z'))).ids).toEqual([]);
    await deliver(user.id, new Date('2025-03-17T08:01:00Z'));
    const all = await mails(user.id);
    expect(all.map((m) => m.subject)).toEqual([
      '[InboxPulse] 2 alerts (weekly summary)',
      '[InboxPulse] Info: Monday noon',
    ]);
    expect(all[0]!.textBody).toMatch(
      /Critical: Sunday[\s\S]*Warning: Wednesday|Warning: Wednesday[\s\S]*Critical: Sunday/,
    );
    expect(all[1]!.textBody).toContain('Monday noon'); // a summary of one alert names it in the subject
  });

  it('holds non-critical alerts through quiet hours and lets critical ones through; the held ones go together when they end', async () => {
    const { user, client } = await account('free');
    await settings(client, { quietHours: { start: '22:00', end: '07:00', timeZone: 'UTC' } });
    await raise(user.id, { title: 'Warning at night', severity: 'warning', createdAt: '2025-03-05T23:00:00Z' });
    await raise(user.id, { title: 'Info at night', severity: 'info', createdAt: '2025-03-05T23:10:00Z' });
    await raise(user.id, { title: 'Critical at night', severity: 'critical', createdAt: '2025-03-05T23:20:00Z' });
    await deliver(user.id, new Date('2025-03-05T23:21:00Z'));
    expect((await mails(user.id)).map((m) => m.subject)).toEqual(['[InboxPulse] Critical: Critical at night']);
    expect((await deliver(user.id, new Date('2025-03-06T06:59:00Z'))).ids).toEqual([]);
    await deliver(user.id, new Date('2025-03-06T07:00:10Z'));
    const all = await mails(user.id);
    expect(all).toHaveLength(2);
    expect(all[1]!.subject).toBe('[InboxPulse] 2 alerts');
    expect(all[1]!.textBody).toMatch(/Warning at night[\s\S]*Info at night/);
  });

  it('tells an escalation and a resolution once each, and queues alert.created and alert.resolved webhooks at once, even in quiet hours', async () => {
    const { user, client } = await account();
    const hook = await client.request('POST', '/api/webhooks', {
      url: 'https://hooks.receiver.example/a',
      events: ['alert.created', 'alert.resolved'],
    });
    expect(hook.statusCode, hook.body).toBe(200);
    await client.request('POST', '/api/webhooks', {
      url: 'https://hooks.receiver.example/other',
      events: ['email.bounced'],
    });
    const alert = await raise(user.id, { severity: 'warning', title: 'Bounce rate 6%' });
    await db().update(alerts).set({ conditionKey: 'rule:1:example.com' }).where(eq(alerts.id, alert.id));
    await deliver(user.id);
    // What evaluation does when the condition worsens: a higher severity, notified_at null again.
    await db()
      .update(alerts)
      .set({ severity: 'critical', title: 'Bounce rate 12%', updatedAt: new Date(), notifiedAt: null })
      .where(eq(alerts.id, alert.id));
    await deliver(user.id);
    // Quiet hours now: the resolution's e-mail waits, its webhook does not.
    const hour = new Date().getUTCHours();
    await settings(client, {
      quietHours: {
        start: `${String(hour).padStart(2, '0')}:00`,
        end: `${String((hour + 2) % 24).padStart(2, '0')}:00`,
        timeZone: 'UTC',
      },
    });
    await db().update(alerts).set({ resolvedAt: new Date() }).where(eq(alerts.id, alert.id));
    await deliver(user.id);
    expect((await deliver(user.id)).ids).toEqual([]);

    expect((await mails(user.id)).map((m) => m.subject)).toEqual([
      '[InboxPulse] Warning: Bounce rate 6%',
      '[InboxPulse] Escalated to critical: Bounce rate 12%',
    ]);
    const sent = await db()
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.userId, user.id))
      .orderBy(webhookDeliveries.id);
    expect(sent.map((d) => [d.webhookId, d.eventType])).toEqual([
      [hook.json().id, 'alert.created'],
      [hook.json().id, 'alert.created'],
      [hook.json().id, 'alert.resolved'],
    ]);
    const bodies = sent.map((d) => JSON.parse(d.body));
    expect(bodies[0].data).toMatchObject({
      alert_id: alert.id,
      severity: 'warning',
      escalated: false,
      url: `http://localhost:3000/alerts?alertId=${alert.id}`,
    });
    expect(bodies[1].data).toMatchObject({ severity: 'critical', title: 'Bounce rate 12%', escalated: true });
    expect(bodies[2]).toMatchObject({
      type: 'alert.resolved',
      data: { alert_id: alert.id, resolved_at: expect.any(String) },
    });

    // A webhook message sent again (its process died before marking it) makes no second delivery.
    const [webhookRow] = (await digests(user.id)).filter((d) => d.channel === 'webhook');
    await db().update(alertDigests).set({ status: 'pending' }).where(eq(alertDigests.id, webhookRow!.id));
    expect(await sendDigest(ctx, webhookRow!.id)).toBe('sent');
    expect(await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.userId, user.id))).toHaveLength(3);
  });

  it('sends a message whose sender died mid-send once its lease runs out, through the sweep, exactly once', async () => {
    const { user } = await account('free');
    await raise(user.id, { title: 'Crash window' });
    const [id] = await deliverUserAlerts(ctx, user.id, new Date());
    const jobsOf = async () =>
      await count(
        sql`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'send-alert-digest' AND data->>'digestId' = ${String(id)}`,
      );
    expect(await jobsOf()).toMatchObject({ n: 1 });
    // A sender took the message and was killed before anything else.
    expect(await leaseDigest(db(), id!, 120)).toBeDefined();
    expect(await sendDigest(ctx, id!)).toBe('busy');
    expect(await mails(user.id)).toEqual([]);
    // Two minutes later: the lease is over, the sweep finds it (queues its job), and it goes once.
    await db()
      .update(alertDigests)
      .set({ lockedUntil: sql`now() - interval '1 second'`, createdAt: sql`now() - interval '2 minutes'` })
      .where(eq(alertDigests.id, id!));
    await sweepAlertDelivery(ctx);
    expect(await jobsOf()).toMatchObject({ n: 2 });
    expect(await sendDigest(ctx, id!)).toBe('sent');
    expect(await sendDigest(ctx, id!)).toBe('busy');
    expect(await mails(user.id)).toHaveLength(1);
  });

  it('has the sweep queue deliver-alerts for alerts raised anywhere, one job per user', async () => {
    const { user } = await account('free');
    await raise(user.id);
    await raise(user.id);
    await sweepAlertDelivery(ctx);
    await sweepAlertDelivery(ctx);
    const jobs = await count(
      sql`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'deliver-alerts' AND singleton_key = ${`user-${user.id}`} AND state = 'created'`,
    );
    expect(jobs).toMatchObject({ n: 1 });
  });

  it('makes Alert Settings’ webhook URL one managed webhook: created with a secret shown once, rotated with a new URL, removed when turned off', async () => {
    const { user, client } = await account();
    const on = await settings(client, { webhookEnabled: true, webhookUrl: 'https://hooks.receiver.example/alerts' });
    expect(on.webhookSigningSecret).toMatch(/^whsec_/);
    const listed = (await client.get('/api/webhooks')).json();
    expect(listed).toEqual([
      expect.objectContaining({
        url: 'https://hooks.receiver.example/alerts',
        events: ['alert.created', 'alert.resolved'],
        description: 'Alert Settings',
        secretPreview: `${on.webhookSigningSecret.slice(0, 10)}…`,
      }),
    ]);
    const [row] = await db().select().from(webhooks).where(eq(webhooks.userId, user.id));
    expect(decryptSecret(row!.secretEncrypted, t.env.APP_SECRET)).toBe(on.webhookSigningSecret);
    expect(row!.source).toBe('alert_settings');

    // Saved again as it is: no new secret. A new URL: a new secret, the same single webhook.
    expect(
      await settings(client, { webhookEnabled: true, webhookUrl: 'https://hooks.receiver.example/alerts' }),
    ).not.toHaveProperty('webhookSigningSecret');
    expect((await client.get('/api/alert-settings')).json()).not.toHaveProperty('webhookSigningSecret');
    const moved = await settings(client, { webhookUrl: 'https://hooks.receiver.example/v2' });
    expect(moved.webhookSigningSecret).toMatch(/^whsec_/);
    expect(moved.webhookSigningSecret).not.toBe(on.webhookSigningSecret);
    const rows = await db().select().from(webhooks).where(eq(webhooks.userId, user.id));
    expect(rows.map((r) => [r.id, r.url])).toEqual([[row!.id, 'https://hooks.receiver.example/v2']]);

    // It is removed where it was made.
    const refused = await client.delete(`/api/webhooks/${row!.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/belongs to Alert Settings/);
    await settings(client, { webhookEnabled: false });
    expect(await db().select().from(webhooks).where(eq(webhooks.userId, user.id))).toEqual([]);
  });
});
