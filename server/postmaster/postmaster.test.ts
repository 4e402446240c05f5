import { DAY_MS, utcDay } from '@contracts/utc-day';
// Google Postmaster Tools end to end, against a loopback Google (test/fake-google.ts): the OAuth web
// server flow (connect, Google's consent page, the callback, the code exchange with PKCE), the refresh
// token sealed in the integrations row, the daily import of trafficStats, and the read endpoints.
import { and, eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CONNECT_OUTCOME_MESSAGES,
  GOOGLE_NOT_CONFIGURED,
  POSTMASTER_PROVIDER,
  type PostmasterStats,
} from '@contracts/postmaster';
import { newApiKey, setPlan, withKey } from '../api-keys/api-keys.test-support';
import { alerts, googleOauthStates, integrations, postmasterStats } from '../platform/db/schema/index';
import { decryptSecret } from '../platform/security/secret-box';
import { backoffMs, queueDueSyncs } from '../integrations/integrations.service';
import { caughtUp } from '../test/caught-up';
import { createTestApp, signUp, TestClient, type TestApp } from '../test/test-app';
import { waitUntil } from '../test/wait-until';
import { importPostmasterStats, postmasterAlertKey, type PostmasterContext } from './postmaster-import';
import { postmasterProvider } from './postmaster.service';
import { startFakeGoogle, type FakeAccount, type FakeGoogle, type FakeTrafficStats } from './test/fake-google';

let google: FakeGoogle;
let t: TestApp;
let ctx: PostmasterContext;

/** The app's Google OAuth client and Postmaster Tools API: the loopback Google. */
const googleEnv = () => ({
  GOOGLE_CLIENT_ID: google.clientId,
  GOOGLE_CLIENT_SECRET: google.clientSecret,
  GOOGLE_ACCOUNTS_BASE_URL: google.url,
  GOOGLE_OAUTH_TOKEN_BASE_URL: google.url,
  GOOGLE_POSTMASTER_API_BASE_URL: google.url,
});

beforeAll(async () => {
  google = await startFakeGoogle();
  t = await createTestApp({ env: googleEnv() });
  ctx = { db: t.database.db, env: t.env, jobs: t.jobs, log: pino({ level: 'silent' }) };
});
afterAll(async () => {
  await t?.close();
  await google?.close();
});
beforeEach(() => {
  google.consent = 'allow';
  google.grantedScopes = undefined;
  google.omitRefreshToken = false;
});

const daysAgo = (n: number, now = new Date()) => utcDay(now.getTime() - n * DAY_MS);

/** Postmaster Tools days as Google reports them: ratios, int64 counts as strings, enums. */
function trafficDay(n: number, overrides: Partial<FakeTrafficStats> = {}): FakeTrafficStats {
  return {
    date: daysAgo(n),
    userReportedSpamRatio: 0.0012,
    userReportedSpamRatioLowerBound: 0.001,
    userReportedSpamRatioUpperBound: 0.0015,
    spfSuccessRatio: 0.998,
    dkimSuccessRatio: 0.995,
    dmarcSuccessRatio: 0.99,
    inboundEncryptionRatio: 1,
    outboundEncryptionRatio: 0.97,
    domainReputation: 'HIGH',
    ipReputations: [
      { reputation: 'HIGH', ipCount: '2', sampleIps: ['198.51.100.7', '198.51.100.8'] },
      { reputation: 'LOW', ipCount: '1', sampleIps: ['203.0.113.9'] },
    ],
    deliveryErrors: [
      { errorClass: 'TEMPORARY_ERROR', errorType: 'RATE_LIMIT_EXCEEDED', errorRatio: 0.004 },
      { errorClass: 'PERMANENT_ERROR', errorType: 'BAD_DMARC_POLICY', errorRatio: 0.0007 },
    ],
    spammyFeedbackLoops: [{ id: 'campaign-42:newsletter', spamRatio: 0.006 }],
    ...overrides,
  };
}

function account(): FakeAccount {
  return {
    domains: { 'mail.example.com': 'OWNER', 'example.org': 'READER', 'someone-else.net': 'NONE' },
    stats: {
      // Days 1 to 8 ago; the first import (120 days) reads them all, in two pages.
      'mail.example.com': [8, 7, 6, 5, 4, 3, 2, 1].map((n) =>
        trafficDay(n, n === 1 ? { domainReputation: 'MEDIUM', userReportedSpamRatio: 0.0031 } : {}),
      ),
      // Too little traffic on most days: Google lists only some, with fewer metrics.
      'example.org': [
        trafficDay(2, {
          deliveryErrors: undefined,
          spammyFeedbackLoops: undefined,
          ipReputations: undefined,
          domainReputation: 'REPUTATION_CATEGORY_UNSPECIFIED',
        }),
      ],
    },
  };
}

/** The browser's round trip: InboxPulse's connect, Google's consent page, back to the callback. */
async function connect(client: TestClient, as: FakeAccount = account()) {
  google.signInAs = as;
  const start = await client.post('/api/integrations/google-postmaster/connect');
  expect(start.statusCode, start.body).toBe(200);
  const authorizationUrl = new URL(start.json().authorizationUrl);
  const consent = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const back = new URL(consent.headers.get('location')!);
  const callback = await client.get(`${back.pathname}${back.search}`);
  return { start, authorizationUrl, back, callback };
}

const outcomeOf = (res: { statusCode: number; headers: Record<string, unknown> }) => {
  expect(res.statusCode).toBe(302);
  const location = new URL(String(res.headers.location), 'http://localhost');
  expect(location.pathname).toBe('/integrations');
  expect(location.searchParams.get('manage')).toBe('google-postmaster');
  return location.searchParams.get('google');
};

async function integrationOf(userId: number) {
  const [row] = await t.database.db
    .select()
    .from(integrations)
    .where(and(eq(integrations.userId, userId), eq(integrations.provider, POSTMASTER_PROVIDER)));
  return row;
}

async function statsRows(userId: number) {
  return t.database.db
    .select()
    .from(postmasterStats)
    .where(eq(postmasterStats.userId, userId))
    .orderBy(postmasterStats.domain, postmasterStats.date);
}

/** The integrations a round of the integrations' sync loop queues at `at`. */
async function dueForSync(at: Date): Promise<number[]> {
  const queued: number[] = [];
  const jobs = {
    send: async (_job: unknown, data: unknown) => void queued.push((data as { integrationId: number }).integrationId),
  };
  await queueDueSyncs({ db: t.database.db, jobs }, [postmasterProvider], at);
  return queued;
}

async function openAlert(userId: number) {
  const integration = await integrationOf(userId);
  const [row] = await t.database.db
    .select()
    .from(alerts)
    .where(
      and(
        eq(alerts.userId, userId),
        eq(alerts.conditionKey, postmasterAlertKey(integration.id)),
        sql`${alerts.resolvedAt} is null`,
      ),
    );
  return row;
}

describe('connecting Google Postmaster Tools', () => {
  it('runs the OAuth web flow and keeps only the sealed refresh token', async () => {
    const { client, user } = await signUp(t.app);
    const { authorizationUrl, back, callback } = await connect(client);

    // Google's documented authorization request.
    const asked = authorizationUrl.searchParams;
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(`${google.url}/o/oauth2/v2/auth`);
    expect(asked.get('client_id')).toBe(google.clientId);
    expect(asked.get('redirect_uri')).toBe('http://localhost:3000/oauth/google/callback');
    expect(asked.get('response_type')).toBe('code');
    expect(asked.get('scope')).toBe('https://www.googleapis.com/auth/postmaster.readonly');
    expect(asked.get('access_type')).toBe('offline');
    expect(asked.get('prompt')).toBe('consent');
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(back.pathname).toBe('/oauth/google/callback');

    expect(outcomeOf(callback)).toBe('connected');
    expect(callback.headers['referrer-policy']).toBe('no-referrer');
    expect(callback.headers['cache-control']).toBe('no-store');

    // The code exchange sent the PKCE verifier and the same redirect URI (the fake checks both).
    const exchange = google.requests
      .filter((r) => r.path === '/token' && r.form.get('grant_type') === 'authorization_code')
      .at(-1)!;
    expect(exchange.form.get('code')).toBe(back.searchParams.get('code'));
    expect(exchange.form.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const row = await integrationOf(user.id);
    expect(row).toMatchObject({ type: 'analytics', status: 'active', lastError: null });
    expect(row.config.domains).toBe('example.org,mail.example.com');
    const refreshToken = google.refreshTokens.at(-1)!;
    // Sealed: nothing of the token in the row in clear, and the secret box opens it.
    const { rows: raw } = await t.database.pool.query<{ row: string }>(
      `SELECT i::text AS row FROM integrations i WHERE id = $1`,
      [row.id],
    );
    expect(raw[0].row).not.toContain(refreshToken);
    expect(raw[0].row).not.toContain(refreshToken.slice(4, 20));
    expect(row.credentialsEncrypted).toMatch(/^v1:/);
    expect(JSON.parse(decryptSecret(row.credentialsEncrypted!, t.env.APP_SECRET))).toEqual({ refreshToken });
    // The state was used up.
    expect(await t.database.db.select().from(googleOauthStates).where(eq(googleOauthStates.userId, user.id))).toEqual(
      [],
    );

    const status = await client.get('/api/postmaster/status');
    expect(status.json()).toMatchObject({
      state: 'connected',
      domains: ['example.org', 'mail.example.com'],
      lastImportAt: null,
      lastError: null,
    });
  });

  it('refuses a forged, reused, expired or other browser’s state, and changes nothing', async () => {
    const { client, user } = await signUp(t.app);
    google.signInAs = account();

    const forged = await client.get('/oauth/google/callback?state=forged-state-value&code=4/abc');
    expect(outcomeOf(forged)).toBe('invalid_state');
    expect(outcomeOf(await client.get('/oauth/google/callback?code=4/abc'))).toBe('invalid_state');

    // A HEAD (a link checker) is not a callback and uses nothing up.
    const head = await t.app.inject({ method: 'HEAD', url: '/oauth/google/callback?state=x&code=y' });
    expect(head.statusCode).toBe(404);

    // Reused: the first callback connects, the same state and code again are refused.
    const first = await connect(client);
    expect(outcomeOf(first.callback)).toBe('connected');
    const again = await client.get(`${first.back.pathname}${first.back.search}`);
    expect(outcomeOf(again)).toBe('invalid_state');

    // Expired: a state older than its 10 minutes.
    const start = await client.post('/api/integrations/google-postmaster/connect');
    const consent = await fetch(start.json().authorizationUrl, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location')!);
    await t.database.db
      .update(googleOauthStates)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(googleOauthStates.userId, user.id));
    expect(outcomeOf(await client.get(`${back.pathname}${back.search}`))).toBe('invalid_state');

    // Another browser: an attacker who started a sign-in cannot make a victim's browser finish it
    // (the victim's session is not the one the state belongs to), nor can a signed-out browser.
    const attacker = await signUp(t.app);
    const victim = await signUp(t.app);
    const attackerStart = await attacker.client.post('/api/integrations/google-postmaster/connect');
    const attackerConsent = await fetch(attackerStart.json().authorizationUrl, { redirect: 'manual' });
    const attackerBack = new URL(attackerConsent.headers.get('location')!);
    expect(outcomeOf(await victim.client.get(`${attackerBack.pathname}${attackerBack.search}`))).toBe('invalid_state');
    expect(await integrationOf(victim.user.id)).toBeUndefined();
    expect(await integrationOf(attacker.user.id)).toBeUndefined();
    // Used up by that attempt: not even its owner can finish it now.
    expect(outcomeOf(await attacker.client.get(`${attackerBack.pathname}${attackerBack.search}`))).toBe(
      'invalid_state',
    );

    const signedOut = new TestClient(t.app);
    const mine = await client.post('/api/integrations/google-postmaster/connect');
    const mineConsent = await fetch(mine.json().authorizationUrl, { redirect: 'manual' });
    const mineBack = new URL(mineConsent.headers.get('location')!);
    expect(outcomeOf(await signedOut.get(`${mineBack.pathname}${mineBack.search}`))).toBe('invalid_state');
  });

  it('says so when the user presses Cancel on Google’s page, and connects nothing', async () => {
    const { client, user } = await signUp(t.app);
    google.consent = 'deny';
    const { back, callback } = await connect(client);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(outcomeOf(callback)).toBe('access_denied');
    expect(CONNECT_OUTCOME_MESSAGES.access_denied.description).toMatch(/did not allow/);
    expect(await integrationOf(user.id)).toBeUndefined();
    expect((await client.get('/api/postmaster/status')).json()).toMatchObject({ state: 'not_connected' });
  });

  it('refuses a consent without the Postmaster Tools permission or without lasting access', async () => {
    const { client, user } = await signUp(t.app);
    google.grantedScopes = ['openid'];
    expect(outcomeOf((await connect(client)).callback)).toBe('scope_denied');
    google.grantedScopes = undefined;
    google.omitRefreshToken = true;
    expect(outcomeOf((await connect(client)).callback)).toBe('no_refresh_token');
    expect(await integrationOf(user.id)).toBeUndefined();
  });

  it('reports invalid_grant when Google refuses the code', async () => {
    const { client, user } = await signUp(t.app);
    google.signInAs = account();
    const start = await client.post('/api/integrations/google-postmaster/connect');
    const consent = await fetch(start.json().authorizationUrl, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location')!);
    // The code was already traded (as when a user reloads the callback page on a slow network).
    const code = back.searchParams.get('code')!;
    const traded = await fetch(`${google.url}/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        client_id: google.clientId,
        client_secret: google.clientSecret,
      }),
    });
    expect(traded.status).toBe(400);
    expect(outcomeOf(await client.get(`${back.pathname}${back.search}`))).toBe('invalid_grant');
    expect(await integrationOf(user.id)).toBeUndefined();
  });

  it('is started only by a signed-in browser', async () => {
    expect((await new TestClient(t.app).post('/api/integrations/google-postmaster/connect')).statusCode).toBe(401);
    const { client, user } = await signUp(t.app);
    await setPlan(t, user.id, 'professional');
    await caughtUp(t);
    const key = await newApiKey(client);
    const byKey = await withKey(t.app, key, 'POST', '/api/integrations/google-postmaster/connect');
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().message).toMatch(/API keys cannot start a Google sign-in/);
  });
});

describe('the daily import', () => {
  it('writes one row per domain and day, and a second import changes nothing but the figures Google revised', async () => {
    const { client, user } = await signUp(t.app);
    const google1 = account();
    expect(outcomeOf((await connect(client, google1)).callback)).toBe('connected');

    const first = await importPostmasterStats(ctx, user.id);
    expect(first).toMatchObject({
      status: 'imported',
      domains: ['example.org', 'mail.example.com'],
      days: 9,
      refusedDomains: [],
    });
    // Gmail's spam rate is judged again on the new figures.
    const { rows: evaluations } = await t.database.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM pgboss.job WHERE name = 'evaluate-alerts' AND data->>'userId' = $1`,
      [String(user.id)],
    );
    expect(Number(evaluations[0].n)).toBeGreaterThan(0);
    const rows = await statsRows(user.id);
    expect(rows.map((r) => `${r.domain} ${r.date}`)).toEqual([
      `example.org ${daysAgo(2)}`,
      ...[8, 7, 6, 5, 4, 3, 2, 1].map((n) => `mail.example.com ${daysAgo(n)}`),
    ]);
    const latest = rows.at(-1)!;
    expect(latest).toMatchObject({
      userReportedSpamRatio: 0.0031,
      spfSuccessRatio: 0.998,
      dkimSuccessRatio: 0.995,
      dmarcSuccessRatio: 0.99,
      inboundEncryptionRatio: 1,
      outboundEncryptionRatio: 0.97,
      domainReputation: 'MEDIUM',
      ipReputations: [
        { reputation: 'HIGH', ipCount: 2, sampleIps: ['198.51.100.7', '198.51.100.8'] },
        { reputation: 'LOW', ipCount: 1, sampleIps: ['203.0.113.9'] },
      ],
      deliveryErrors: [
        { errorClass: 'TEMPORARY_ERROR', errorType: 'RATE_LIMIT_EXCEEDED', errorRatio: 0.004 },
        { errorClass: 'PERMANENT_ERROR', errorType: 'BAD_DMARC_POLICY', errorRatio: 0.0007 },
      ],
      spammyFeedbackLoops: [{ id: 'campaign-42:newsletter', spamRatio: 0.006 }],
    });
    // A day with few metrics: the missing ones are null, "unspecified" reputation is none.
    expect(rows[0]).toMatchObject({
      domain: 'example.org',
      domainReputation: null,
      deliveryErrors: [],
      ipReputations: [],
      userReportedSpamRatio: 0.0012,
    });
    // The import asked Google for 120 days, endDate exclusive, through a fresh access token.
    const statsRequest = google.requests.find((r) => r.path === '/v1/domains/mail.example.com/trafficStats')!;
    expect(statsRequest.headers.authorization).toMatch(/^Bearer ya29\./);
    const [y, m, d] = ['year', 'month', 'day'].map((p) => statsRequest.query.get(`endDate.${p}`));
    expect(`${y}-${m!.padStart(2, '0')}-${d!.padStart(2, '0')}`).toBe(daysAgo(-1));
    const row = await integrationOf(user.id);
    expect(row.lastSyncAt).not.toBeNull();

    // Google revises yesterday; a second import writes over it and adds nothing.
    google1.stats['mail.example.com'][7] = trafficDay(1, { userReportedSpamRatio: 0.0028, domainReputation: 'MEDIUM' });
    google.requests.length = 0;
    const second = await importPostmasterStats(ctx, user.id);
    expect(second).toMatchObject({ status: 'imported' });
    const again = await statsRows(user.id);
    expect(again).toHaveLength(9);
    expect(again.at(-1)!.userReportedSpamRatio).toBe(0.0028);
    expect(again.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    // A later import reads only the recent days.
    const recent = google.requests.find((r) => r.path === '/v1/domains/mail.example.com/trafficStats')!;
    const [sy, sm, sd] = ['year', 'month', 'day'].map((p) => recent.query.get(`startDate.${p}`));
    expect(`${sy}-${sm!.padStart(2, '0')}-${sd!.padStart(2, '0')}`).toBe(daysAgo(7));

    // The read endpoint answers the same figures.
    const stats = (await client.get('/api/postmaster/stats?days=30&domain=mail.example.com')).json() as PostmasterStats;
    expect(stats.to).toBe(daysAgo(0));
    expect(stats.from).toBe(daysAgo(29));
    expect(stats.days).toHaveLength(8);
    expect(stats.days.at(-1)).toMatchObject({
      domain: 'mail.example.com',
      date: daysAgo(1),
      userReportedSpamRatio: 0.0028,
      domainReputation: 'MEDIUM',
    });
    expect(
      (await client.get('/api/postmaster/stats?days=2')).json().days.map((d: { domain: string }) => d.domain),
    ).toEqual(['mail.example.com']);
    expect((await client.get('/api/postmaster/status')).json()).toMatchObject({ state: 'connected', lastError: null });
  });

  it('keeps the other domains when Google refuses one', async () => {
    const { client, user } = await signUp(t.app);
    const as = account();
    as.deniedDomains = ['example.org'];
    await connect(client, as);
    const outcome = await importPostmasterStats(ctx, user.id);
    expect(outcome).toMatchObject({ status: 'imported', days: 8, refusedDomains: ['example.org'] });
    expect((await integrationOf(user.id)).lastError).toMatch(/example\.org/);
  });

  it('resolves its alert when the user uninstalls it in the manager instead of reconnecting', async () => {
    const { client, user } = await signUp(t.app);
    await connect(client);
    google.revoke(google.refreshTokens.at(-1)!);
    expect(await importPostmasterStats(ctx, user.id)).toMatchObject({ status: 'needs_reconnect' });
    const row = await integrationOf(user.id);
    expect(await openAlert(user.id)).toMatchObject({ title: 'Reconnect Google Postmaster Tools' });

    expect((await client.delete(`/api/integrations/${row.id}`)).statusCode).toBe(204);
    const [alert] = await t.database.db
      .select()
      .from(alerts)
      .where(eq(alerts.conditionKey, postmasterAlertKey(row.id)));
    expect(alert.resolvedAt).not.toBeNull();
    expect((await client.get('/api/postmaster/status')).json()).toMatchObject({ state: 'not_connected' });
  });

  it('marks the integration for a reconnect and raises an alert when Google revoked the access, until the user connects again', async () => {
    const { client, user } = await signUp(t.app);
    await connect(client);
    google.revoke(google.refreshTokens.at(-1)!);

    const outcome = await importPostmasterStats(ctx, user.id);
    expect(outcome).toMatchObject({ status: 'needs_reconnect' });
    const row = await integrationOf(user.id);
    expect(row).toMatchObject({ status: 'error', credentialsEncrypted: null });
    expect(row.lastError).toMatch(/Token has been expired or revoked/);
    const alert = await openAlert(user.id);
    expect(alert).toMatchObject({ title: 'Reconnect Google Postmaster Tools', severity: 'error' });
    expect((await client.get('/api/alerts')).json().map((a: { title: string }) => a.title)).toContain(
      'Reconnect Google Postmaster Tools',
    );
    expect((await client.get('/api/postmaster/status')).json()).toMatchObject({ state: 'needs_reconnect' });
    // Nothing is asked of Google until then, and the schedule leaves the user out.
    expect(await importPostmasterStats(ctx, user.id)).toEqual({ status: 'skipped', reason: 'waiting for a reconnect' });
    expect(await dueForSync(new Date())).not.toContain(row.id);
    // One alert however often it is seen.
    expect(
      await t.database.db
        .select()
        .from(alerts)
        .where(eq(alerts.conditionKey, postmasterAlertKey(row.id))),
    ).toHaveLength(1);

    expect(outcomeOf((await connect(client)).callback)).toBe('connected');
    expect(await openAlert(user.id)).toBeUndefined();
    expect(await integrationOf(user.id)).toMatchObject({ status: 'active', lastError: null });
    expect(await importPostmasterStats(ctx, user.id)).toMatchObject({ status: 'imported' });
  });

  it('waits as long as Google’s 429 Retry-After asks', async () => {
    const { client, user } = await signUp(t.app);
    await connect(client);
    google.rateLimit(1, 900);
    const before = Date.now();
    const outcome = await importPostmasterStats(ctx, user.id);
    expect(outcome).toMatchObject({ status: 'rate_limited', retryAfterSeconds: 900 });
    const row = await integrationOf(user.id);
    expect(row.nextSyncAt!.getTime()).toBeGreaterThanOrEqual(before + 899_000);
    expect(row.status).toBe('active');
    expect(row.consecutiveFailures).toBe(0);
    // The integrations' round leaves it out until the wait is over, then queues it again.
    expect(await dueForSync(new Date())).not.toContain(row.id);
    expect(await dueForSync(new Date(Date.now() + 901_000))).toContain(row.id);
  });

  it('raises an alert when imports keep failing, and the integrations’ round queues every connected user once a day', async () => {
    const { client, user } = await signUp(t.app);
    await connect(client);
    const broken = { ...ctx, env: { ...ctx.env, GOOGLE_POSTMASTER_API_BASE_URL: 'http://127.0.0.1:9' } };
    for (let i = 1; i <= 3; i++)
      expect(await importPostmasterStats(broken, user.id)).toMatchObject({ status: 'failed', failures: i });
    expect(await openAlert(user.id)).toMatchObject({
      title: 'Google Postmaster Tools import keeps failing',
      severity: 'warning',
    });
    // A failed import waits as a plugin's failed sync does: the round leaves it out until then.
    const failed = await integrationOf(user.id);
    expect(failed.nextSyncAt!.getTime() - failed.lastErrorAt!.getTime()).toBe(backoffMs(3));
    expect(await dueForSync(new Date())).not.toContain(failed.id);
    expect(await importPostmasterStats(ctx, user.id)).toMatchObject({ status: 'imported' });
    expect(await openAlert(user.id)).toBeUndefined();

    // Imported just now: due again in the first round after Google's next daily publication (07:40 UTC).
    const { id } = await integrationOf(user.id);
    expect(await dueForSync(new Date())).not.toContain(id);
    expect(await dueForSync(new Date(Date.now() + DAY_MS))).toContain(id);
  });
});

describe('the integrations’ sync job', () => {
  it('runs the import a connect queues, as it runs any plugin’s sync', async () => {
    const worker = await createTestApp({ work: true, env: googleEnv() });
    try {
      const { client, user } = await signUp(worker.app);
      expect(outcomeOf((await connect(client)).callback)).toBe('connected');
      const status = await waitUntil(async () => (await client.get('/api/postmaster/status')).json(), 'the import', {
        until: (s: { lastImportAt: string | null }) => s.lastImportAt !== null,
        timeoutMs: 20_000,
      });
      expect(status).toMatchObject({ state: 'connected', lastError: null });
      expect((await client.get('/api/postmaster/stats')).json().days).toHaveLength(9);
      const { rows } = await worker.database.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'sync-integration' AND state = 'completed'
           AND (data->>'integrationId')::int = (SELECT id FROM integrations WHERE user_id = $1)`,
        [user.id],
      );
      expect(rows[0].n).toBe(1);
    } finally {
      await worker.close();
    }
  });
});

describe('reading the figures', () => {
  it('shows a user only their own figures', async () => {
    const owner = await signUp(t.app);
    await connect(owner.client);
    await importPostmasterStats(ctx, owner.user.id);
    expect((await owner.client.get('/api/postmaster/stats')).json().days.length).toBeGreaterThan(0);

    const other = await signUp(t.app);
    expect((await other.client.get('/api/postmaster/stats')).json().days).toEqual([]);
    expect((await other.client.get('/api/postmaster/stats?domain=mail.example.com&days=120')).json().days).toEqual([]);
    expect((await other.client.get('/api/postmaster/status')).json()).toEqual({
      state: 'not_connected',
      domains: [],
      connectedAt: null,
      lastImportAt: null,
      lastError: null,
    });
    expect((await new TestClient(t.app).get('/api/postmaster/stats')).statusCode).toBe(401);
  });

  it('refuses bad filters with a 400 naming them', async () => {
    const { client } = await signUp(t.app);
    const tooMany = await client.get('/api/postmaster/stats?days=500');
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toMatch(/days must be at most 120/);
    const badDomain = await client.get('/api/postmaster/stats?domain=not%20a%20domain');
    expect(badDomain.statusCode).toBe(400);
    expect(badDomain.json().message).toMatch(/domain must be a domain name/);
  });
});

describe('without a Google OAuth client (the self-hosted default)', () => {
  it('says Google sign-in is not configured on this server', async () => {
    const plain = await createTestApp();
    try {
      const { client } = await signUp(plain.app);
      const res = await client.post('/api/integrations/google-postmaster/connect');
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ code: 'conflict', message: GOOGLE_NOT_CONFIGURED });
      expect((await client.get('/api/postmaster/status')).json()).toMatchObject({ state: 'not_configured' });
      // The callback still answers the browser: back to the integrations page, refused.
      const callback = await client.get('/oauth/google/callback?state=x&code=y');
      expect(outcomeOf(callback)).toBe('invalid_state');
    } finally {
      await plain.close();
    }
  });
});
