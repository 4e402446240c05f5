import { eq } from 'drizzle-orm';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  API_ENDPOINTS,
  OPENAPI_PATH,
  RATE_LIMITS,
  UNAUTHORIZED_EXAMPLE,
  type ApiEndpoint,
} from '@content/docs/api-reference';
import { REGISTRATION_EXAMPLE } from '@content/docs/webhooks';
import { API_KEY_PREFIX } from '@contracts/api-keys';
import { PLAN_LIMITS } from '@contracts/plans';
import { Alert, AlertList } from '@contracts/alerts';
import { AlertRule } from '@contracts/alert-settings';
import { ComplianceScorecard } from '@contracts/compliance';
import { BounceCauses, IngestAnswer } from '@contracts/delivery-events';
import { DmarcAnalytics, DmarcReportList, UploadResponse } from '@contracts/dmarc';
import { DomainDetail, DomainList } from '@contracts/domains';
import { EmailMetricList } from '@contracts/email-metrics';
import { ProviderSyncAnswer } from '@contracts/integrations';
import { InboxTest, InboxTestList, InboxTestResults } from '@contracts/inbox-tests';
import { Diagnosis, DomainTimeline } from '@contracts/timeline';
import { IpAddress, IpMonitoringStatus, TriggerMonitoringResponse } from '@contracts/reputation';
import { CreatedWebhook, WebhookDelivery, WebhookDeliveryList, WebhookList } from '@contracts/webhooks';
import { alerts } from './platform/db/schema/alerts';
import { domains } from './platform/db/schema/domains';
import { emailMetrics } from './platform/db/schema/email-metrics';
import { users } from './platform/db/schema/users';
import { startDnsServer, type TestDnsServer } from './test/dns-server';
import { createTestApp, signUp, type TestApp, type TestClient } from './test/test-app';

/**
 * Every request example of the API documentation (content/docs/api-reference.ts, shown on /api-docs)
 * is sent to the real app, and its answer example must be true of the real answer: same status, every
 * documented field present with the same type, and the example itself valid under the route's schema.
 */

/** The schema each documented answer is read with (the route's response schema). */
const ANSWER_SCHEMAS: Record<string, z.ZodType> = {
  'list-domains': DomainList,
  'create-domain': DomainDetail,
  'get-domain': DomainDetail,
  'verify-domain': DomainDetail,
  'domain-timeline': DomainTimeline,
  'domain-diagnosis': Diagnosis,
  'domain-compliance': ComplianceScorecard,
  'list-email-metrics': EmailMetricList,
  'record-delivery-event': IngestAnswer,
  'record-event': IngestAnswer,
  'push-smtp2go-stats': ProviderSyncAnswer,
  'bounce-causes': BounceCauses,
  'create-inbox-test': InboxTest,
  'get-inbox-test': InboxTest,
  'list-inbox-tests': InboxTestList,
  'inbox-test-results': InboxTestResults,
  'create-ip-address': IpAddress,
  'list-ip-addresses': IpAddress.array(),
  'trigger-ip-monitoring': TriggerMonitoringResponse,
  'ip-monitoring-status': IpMonitoringStatus,
  'upload-dmarc-report': UploadResponse,
  'list-dmarc-reports': DmarcReportList,
  'dmarc-analytics': DmarcAnalytics,
  'list-alerts': AlertList,
  'create-alert-rule': AlertRule,
  'list-alert-rules': AlertRule.array(),
  'acknowledge-alert': Alert,
  'read-alert': Alert,
  'create-webhook': CreatedWebhook,
  'list-webhooks': WebhookList,
  'test-webhook': WebhookDelivery,
  'webhook-deliveries': WebhookDeliveryList,
  'redeliver-webhook': WebhookDelivery,
};

const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/**
 * Where the documented example says something the real answer does not: a field missing, or of
 * another type. A documented null stands for a nullable field and matches anything; a real null
 * matches a documented value of a nullable field (the schema check says which fields may be null).
 */
export function shapeMismatches(documented: unknown, real: unknown, at = '$'): string[] {
  if (documented === null || real === null) return [];
  if (typeOf(documented) !== typeOf(real)) return [`${at}: documented ${typeOf(documented)}, real ${typeOf(real)}`];
  if (Array.isArray(documented) && Array.isArray(real)) {
    if (documented.length === 0 || real.length === 0) return [];
    return real.flatMap((item, i) => shapeMismatches(documented[0], item, `${at}[${i}]`));
  }
  if (typeof documented === 'object' && typeof real === 'object') {
    const actual = real as Record<string, unknown>;
    return Object.entries(documented as Record<string, unknown>).flatMap(([key, value]) =>
      key in actual
        ? shapeMismatches(value, actual[key], `${at}.${key}`)
        : [`${at}.${key}: documented, missing from the real answer`],
    );
  }
  return [];
}

/** Which row a `{id}` in a documented path stands for, by the path's start. */
const ID_OWNERS: [prefix: string, key: string][] = [
  ['/api/domains/', 'domain'],
  ['/api/inbox-tests/', 'inboxTest'],
  ['/api/ip-addresses/', 'ipAddress'],
  ['/api/alerts/', 'alert'],
  ['/api/webhooks/deliveries/', 'delivery'],
  ['/api/webhooks/', 'webhook'],
];

/** Deletions last, so what they delete is there for every other example first. */
const ORDERED: ApiEndpoint[] = [
  ...API_ENDPOINTS.filter((e) => e.method !== 'DELETE'),
  ...API_ENDPOINTS.filter((e) => e.method === 'DELETE'),
];

describe('the API documentation examples against the real API', () => {
  let t: TestApp;
  let dns: TestDnsServer;
  let client: TestClient;
  let userId = 0;
  /** The reader's key: a Professional account's, as the Authentication section says. */
  let apiKey = '';
  const ids: Record<string, number> = {};
  const answers: Record<string, unknown> = {};

  beforeAll(async () => {
    // The documented webhook host resolves to a public address, as a real receiver's would.
    dns = await startDnsServer({ 'hooks.example.com': { A: ['93.184.215.14'] } });
    t = await createTestApp({ env: { DNS_SERVERS: dns.address } });
    const signedUp = await signUp(t.app);
    client = signedUp.client;
    userId = signedUp.user.id;
    await t.database.db.update(users).set({ subscriptionPlan: 'professional' }).where(eq(users.id, userId));
    const generated = await client.post('/api/api-keys/generate');
    expect(generated.statusCode, generated.body).toBe(200);
    apiKey = generated.json().apiKey;
    expect(apiKey.startsWith(API_KEY_PREFIX)).toBe(true);
    // What an ESP sync and the alert evaluation would have written.
    await t.database.db.insert(emailMetrics).values({
      userId,
      provider: 'sendgrid',
      date: '2026-11-26',
      emailsSent: 12000,
      delivered: 11850,
      bounced: 150,
      complaints: 3,
    });
    const [alert] = await t.database.db
      .insert(alerts)
      .values({
        userId,
        type: 'blacklist_detection',
        severity: 'critical',
        title: '198.51.100.23 listed on Spamhaus ZEN',
        message: '198.51.100.23 appears on Spamhaus ZEN.',
        domain: 'example.com',
        metadata: { ipAddress: '198.51.100.23', listedCount: 1, totalProviders: 47 },
        history: [{ at: new Date().toISOString(), event: 'raised', message: 'Listed on Spamhaus ZEN' }],
      })
      .returning();
    ids.alert = alert!.id;
  });
  afterAll(async () => {
    if (process.env.DOCS_DUMP) writeFileSync(process.env.DOCS_DUMP, JSON.stringify(answers, null, 2));
    await t?.close();
    await dns?.close();
  });

  /** What must hold before an example can be sent as a reader would send it. */
  const before: Record<string, () => Promise<void>> = {
    // Creating a test needs a domain that passes its checks: the documented one, as if it did.
    'create-inbox-test': async () => {
      await t.database.db.update(domains).set({ status: 'healthy' }).where(eq(domains.id, ids.domain!));
    },
  };

  /** The ids the later examples' paths use, from the answers that created them. */
  const created: Record<string, (answer: any) => void> = {
    'create-domain': (a) => (ids.domain = a.id),
    'create-inbox-test': (a) => (ids.inboxTest = a.id),
    'create-ip-address': (a) => (ids.ipAddress = a.id),
    'create-webhook': (a) => (ids.webhook = a.id),
    'test-webhook': (a) => (ids.delivery = a.id),
  };

  function urlOf(endpoint: ApiEndpoint): string {
    let path = endpoint.path;
    if (path.includes('{id}')) {
      const owner = ID_OWNERS.find(([prefix]) => path.startsWith(prefix));
      if (!owner || ids[owner[1]] === undefined) throw new Error(`No id for ${path}`);
      path = path.replace('{id}', String(ids[owner[1]]));
    }
    return endpoint.query ? `${path}?${new URLSearchParams(endpoint.query).toString()}` : path;
  }

  it('documents an answer schema for every endpoint that answers a body, and nothing else', () => {
    const withBody = API_ENDPOINTS.filter((e) => e.status !== 204).map((e) => e.id);
    expect(withBody.sort()).toEqual(Object.keys(ANSWER_SCHEMAS).sort());
    expect(new Set(API_ENDPOINTS.map((e) => e.id)).size).toBe(API_ENDPOINTS.length);
  });

  it('registers the Webhook Documentation’s example webhook with the body the API documentation shows', () => {
    expect(API_ENDPOINTS.find((e) => e.id === 'create-webhook')!.body).toEqual(REGISTRATION_EXAMPLE);
  });

  it('documents each plan’s hourly limit as the server counts it', () => {
    const byName = { Starter: 'starter', Professional: 'professional', Enterprise: 'enterprise' } as const;
    for (const limit of RATE_LIMITS)
      expect(limit.perHour, limit.plan).toBe(PLAN_LIMITS[byName[limit.plan]].apiRequestsPerHour);
  });

  it('finds every documented endpoint in the OpenAPI document the page’s reference renders', async () => {
    const res = await t.app.inject({ method: 'GET', url: OPENAPI_PATH });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths as Record<string, Record<string, unknown>>;
    if (process.env.DOCS_DUMP) writeFileSync(`${process.env.DOCS_DUMP}.openapi.json`, res.body);
    const missing = API_ENDPOINTS.filter((e) => !paths[e.path]?.[e.method.toLowerCase()]).map(
      (e) => `${e.method} ${e.path}`,
    );
    expect(missing).toEqual([]);
  });

  it('refuses a Free account’s key with 403 "Requires Professional plan", as the Rate limits section says', async () => {
    const free = await signUp(t.app);
    const key = (await free.client.post('/api/api-keys/generate')).json().apiKey as string;
    const res = await t.app.inject({ method: 'GET', url: '/api/domains', headers: { authorization: `Bearer ${key}` } });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Requires Professional plan');
  });

  it('answers a request without credentials as the documented error example', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/domains' });
    expect(res.statusCode).toBe(UNAUTHORIZED_EXAMPLE.status);
    expect(res.json()).toEqual(UNAUTHORIZED_EXAMPLE.body);
  });

  for (const endpoint of ORDERED) {
    it(`${endpoint.method} ${endpoint.path} (${endpoint.id})`, async () => {
      await before[endpoint.id]?.();
      const send = () =>
        t.app.inject({
          method: endpoint.method,
          url: urlOf(endpoint),
          remoteAddress: client.ip,
          // As the page shows it: the key as a bearer token, no cookie, and an Idempotency-Key on what creates.
          headers: {
            authorization: `Bearer ${apiKey}`,
            ...(endpoint.creates ? { 'idempotency-key': `docs-${endpoint.id}` } : {}),
            ...(endpoint.rawBody ? { 'content-type': endpoint.rawBody.contentType } : {}),
          },
          ...(endpoint.rawBody
            ? { payload: endpoint.rawBody.text }
            : endpoint.body === undefined
              ? {}
              : { payload: endpoint.body as object }),
        });
      const res = await send();
      expect(res.statusCode, res.body).toBe(endpoint.status);
      for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
        expect(res.headers, header).toHaveProperty(header);
      expect(Number(res.headers['x-ratelimit-limit'])).toBe(PLAN_LIMITS.professional.apiRequestsPerHour);
      if (endpoint.status === 204) {
        expect(endpoint.response).toBeUndefined();
        return;
      }
      if (endpoint.creates) {
        // The documented retry: the same request with the same key replays the first answer.
        const again = await send();
        expect(again.statusCode).toBe(res.statusCode);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(again.json()).toEqual(res.json());
      }
      const real = res.json();
      answers[endpoint.id] = real;
      created[endpoint.id]?.(real);
      expect(endpoint.response, `${endpoint.id} documents no answer`).toBeDefined();
      const schema = ANSWER_SCHEMAS[endpoint.id]!;
      const parsed = schema.safeParse(endpoint.response);
      expect(parsed.success, `${endpoint.id}'s answer example against its schema: ${parsed.error?.message}`).toBe(true);
      expect(shapeMismatches(endpoint.response, real)).toEqual([]);
    });
  }
});
