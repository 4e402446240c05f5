import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '@contracts/auth';
import { ID_MAX } from '@contracts/input';
import { uploadReport } from '../../dmarc/upload-client.test-support';
import { createTestApp, signUp, TestClient, type TestApp } from '../../test/test-app';

// "Bad input gets a clear 4xx message and changes nothing": every cause that used to reach
// PostgreSQL (and come back as a 500) is refused by the contracts with a 400 naming the field.

let t: TestApp;
let user: TestClient;
let domainId: number;
beforeAll(async () => {
  t = await createTestApp();
  user = (await signUp(t.app)).client;
  domainId = (await user.post('/api/domains', { domain: 'bad-input-brand.com' })).json().id;
  await user.patch(`/api/domains/${domainId}`, { notes: 'Sends via our ESP' });
});
afterAll(() => t.close());

interface Route {
  method: string;
  path: string;
}

/** Every API route the app serves (HEAD aside), read from Fastify's own route tree. */
function apiRoutes(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const parents: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    const path = (parents[depth - 1] ?? '') + match[2];
    parents.length = depth;
    parents.push(path);
    for (const method of match[3]?.split(', ') ?? [])
      if (method !== 'HEAD' && path.startsWith('/api/')) routes.push({ method, path });
  }
  return routes;
}

/** What every table of the app holds: equal before and after means the request changed nothing. */
async function databaseState(): Promise<Record<string, string>> {
  const { rows: tables } = await t.database.pool.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
  );
  const state: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await t.database.pool.query<{ n: number; hash: string }>(
      `SELECT count(*)::int AS n, md5(coalesce(string_agg(x::text, E'\\n' ORDER BY x::text), '')) AS hash FROM public."${name}" x`,
    );
    state[name] = `${rows[0].n} rows, ${rows[0].hash}`;
  }
  return state;
}

function expectRefused(res: LightMyRequestResponse, status: number, message: RegExp | string, label: string) {
  expect(res.statusCode, `${label}: ${res.body.slice(0, 200)}`).toBe(status);
  const body = res.json();
  expect(Object.keys(body).sort(), label).toEqual(['code', 'message']);
  if (typeof message === 'string') expect(body.message, label).toBe(message);
  else expect(body.message, label).toMatch(message);
}

const anonymous = () => new TestClient(t.app, '10.9.9.9');
const REPORT_XML = '<?xml version="1.0"?><feedback></feedback>';

describe('bad input gets a 400 naming the field and changes nothing', () => {
  it('refuses an id past PostgreSQL integer on every :id route', async () => {
    // Every :id names a row by its integer key, except a session's (16 hex digits of its hash), refused too,
    // and a blocklist's (its catalogue slug: an unknown one is a 404, reputation-run.service.test.ts).
    const idRoutes = apiRoutes(t.app).filter(
      (route) =>
        route.path.includes(':id') &&
        !route.path.startsWith('/api/account/sessions/') &&
        !route.path.startsWith('/api/blocklists/'),
    );
    expect(idRoutes.length).toBeGreaterThanOrEqual(11);
    for (const id of [String(ID_MAX + 1), '9'.repeat(30)]) {
      expectRefused(
        await user.request('DELETE', `/api/account/sessions/${id}`),
        400,
        'Session id must be 16 hexadecimal digits',
        `session ${id}`,
      );
    }
    const before = await databaseState();
    // A valid body and a valid second id (a note's), so only the :id is wrong.
    const bodyOf = (method: string, path: string) =>
      method === 'PATCH'
        ? { notes: 'changed' }
        : method === 'POST' && path.endsWith('/notes')
          ? { text: 'a note' }
          : undefined;
    const withId = (path: string, id: string) => path.replace(':id', id).replace(':noteId', String(ID_MAX));
    for (const { method, path } of idRoutes) {
      for (const id of [String(ID_MAX + 1), '9'.repeat(30)]) {
        const res = await user.request(method as 'GET', withId(path, id), bodyOf(method, path));
        expectRefused(
          res,
          400,
          /^(Domain|Alert|Alert rule|Webhook|Delivery|Report|Test|IP address|Integration) id must be at most 2147483647$/,
          `${method} ${path} ${id}`,
        );
      }
    }
    expect(await databaseState()).toEqual(before);
    // The largest id is a valid one that names nothing here.
    for (const { method, path } of idRoutes) {
      const res = await user.request(method as 'GET', withId(path, String(ID_MAX)), bodyOf(method, path));
      expect(res.statusCode, `${method} ${path}`).toBe(404);
    }
  });

  it('refuses a NUL character (U+0000) in every text field that is stored or queried', async () => {
    const signedOut = anonymous();
    const cases: [string, () => Promise<LightMyRequestResponse>, string][] = [
      [
        'login username',
        () => signedOut.post('/api/login', { username: 'ad\u0000min', password: 'correct horse' }),
        'Username',
      ],
      [
        'register coupon',
        () =>
          signedOut.post('/api/register', {
            username: 'nul_coupon',
            email: 'nul-coupon@example.com',
            password: 'correct horse',
            couponCode: 'SAVE\u000010',
          }),
        'Coupon code',
      ],
      ['chat message', () => signedOut.post('/api/chatbot', { message: 'hello\u0000' }), 'Message'],
      ['new domain', () => user.post('/api/domains', { domain: 'nul\u0000brand.com' }), 'Domain'],
      ['domain notes', () => user.patch(`/api/domains/${domainId}`, { notes: 'a\u0000b' }), 'Notes'],
      ['reports domain filter', () => user.get('/api/dmarc/reports?domain=exa%00mple.com'), 'domain'],
      ['analytics domain filter', () => user.get('/api/dmarc/analytics?domain=exa%00mple.com'), 'domain'],
      ['upload file name', () => uploadReport(t.app, user, REPORT_XML, { fileName: 'report\u0000.xml' }), 'filename'],
    ];
    const before = await databaseState();
    for (const [label, send, field] of cases) {
      expectRefused(await send(), 400, `${field} must not contain NUL characters (U+0000)`, label);
    }
    expect(await databaseState()).toEqual(before);
    expect((await user.get(`/api/domains/${domainId}`)).json().notes).toBe('Sends via our ESP');
  });

  it('refuses date filters outside 2000-01-01..2100-12-31 and days that do not exist', async () => {
    const cases: [string, string][] = [
      ['from=0000-01-01', 'from must be between 2000-01-01 and 2100-12-31'],
      ['to=9999-12-31', 'to must be between 2000-01-01 and 2100-12-31'],
      ['from=1999-12-31', 'from must be between 2000-01-01 and 2100-12-31'],
      ['to=2101-01-01', 'to must be between 2000-01-01 and 2100-12-31'],
      ['from=2024-02-30', 'from is not a real date'],
      ['to=2023-02-29', 'to is not a real date'],
      ['to=2024-13-01', 'to is not a real date'],
      ['from=275760-09-13', 'from must be a date like 2024-03-31'],
      ['from=31/03/2024', 'from must be a date like 2024-03-31'],
      ['from=2024-03-31&from=2024-04-01', 'from must be a date like 2024-03-31'],
    ];
    const before = await databaseState();
    for (const [query, message] of cases)
      expectRefused(await user.get(`/api/dmarc/reports?${query}`), 400, message, query);
    expect(await databaseState()).toEqual(before);
    for (const query of ['from=2000-01-01&to=2100-12-31', 'from=2024-02-29&to=2024-02-29']) {
      expect((await user.get(`/api/dmarc/reports?${query}`)).statusCode, query).toBe(200);
    }
  });

  it("answers a URL with broken percent-encoding 400 in the app's error shape", async () => {
    for (const url of ['/api/domains/%E0%A4%A', '/api/dmarc/reports/%ZZ']) {
      const res = await t.app.inject({ method: 'GET', url });
      expectRefused(res, 400, 'The URL is not valid: it has broken percent-encoding', url);
    }
  });

  it('refuses a 9 MB text field with 413, and a field over its own limit with 400 naming it', async () => {
    const huge = 'x'.repeat(9 * 1024 * 1024);
    // A URL cannot be 9 MB (Node refuses request heads over 16 KB): 8 KB stands for a long query.
    const long = 'x'.repeat(8 * 1024);
    const signedOut = anonymous();
    const tooLarge = 'Request body is too large (limit 1 MB)';
    const cases: [string, () => Promise<LightMyRequestResponse>, number, string][] = [
      [
        'login username',
        () => signedOut.post('/api/login', { username: huge, password: 'correct horse' }),
        413,
        tooLarge,
      ],
      [
        'register coupon',
        () =>
          signedOut.post('/api/register', {
            username: 'huge_coupon',
            email: 'huge@example.com',
            password: 'correct horse',
            couponCode: huge,
          }),
        413,
        tooLarge,
      ],
      ['domain notes', () => user.patch(`/api/domains/${domainId}`, { notes: huge }), 413, tooLarge],
      [
        'simulated message (3 MB route)',
        () => user.post('/api/simulate-email', { fromEmail: 'a@example.com', subject: 's', content: huge }),
        413,
        'Request body is too large (limit 3 MB)',
      ],
      [
        'reports domain filter',
        () => user.get(`/api/dmarc/reports?domain=${long}`),
        400,
        'domain must be at most 253 characters',
      ],
      [
        'upload file name',
        () => uploadReport(t.app, user, REPORT_XML, { fileName: long }),
        400,
        'filename must be at most 255 characters',
      ],
      // Under the body limit, over the field's own.
      [
        'notes over 2000',
        () => user.patch(`/api/domains/${domainId}`, { notes: 'x'.repeat(2001) }),
        400,
        'Notes are at most 2000 characters',
      ],
      [
        'coupon over 64',
        () =>
          signedOut.post('/api/register', {
            username: 'long_coupon',
            email: 'long@example.com',
            password: 'correct horse',
            couponCode: 'C'.repeat(65),
          }),
        400,
        'Coupon code must be at most 64 characters',
      ],
      [
        'chat over 500',
        () => signedOut.post('/api/chatbot', { message: 'x'.repeat(501) }),
        400,
        'Message must be at most 500 characters',
      ],
    ];
    const before = await databaseState();
    for (const [label, send, status, message] of cases) expectRefused(await send(), status, message, label);
    expect(await databaseState()).toEqual(before);
  });
});

/** The MTA and ESP webhook endpoints (server/delivery-events): their callers send a webhook token. */
const WEBHOOK_TOKEN_ROUTE =
  /^\/api\/(webhooks\/(postfix|powermta|greenarrow|halon|kumo|postal|smtp2go\/:account)|esp-webhooks\/:provider)$/;

// Public routes: everything else needs a session.
const PUBLIC_ROUTES = new Set([
  'POST /api/register',
  'POST /api/login',
  'POST /api/logout',
  'POST /api/forgot-password',
  'POST /api/validate-reset-token',
  'POST /api/reset-password',
  'GET /api/verify-email',
  'POST /api/verify-email',
  'POST /api/resend-verification-public',
  'POST /api/chatbot',
  // The OpenAPI document: public so clients and the reference page read it signed out.
  'GET /api/openapi.json',
  // Stripe's calls, authenticated by their signature over the raw body (billing tests), not a session.
  'POST /api/stripe/webhook',
]);

describe('signed-in routes', () => {
  it('answer a signed-out request with bad input 401 before validating anything', async () => {
    const signedIn = apiRoutes(t.app).filter(({ method, path }) => !PUBLIC_ROUTES.has(`${method} ${path}`));
    expect(signedIn.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        'POST /api/domains',
        'PATCH /api/domains/:id',
        'POST /api/inbox-tests',
        'POST /api/simulate-email',
        'POST /api/dmarc/upload',
      ]),
    );
    const before = await databaseState();
    const signedOut = anonymous();
    for (const { method, path } of signedIn) {
      // A path id that is not a number, a query that breaks every filter, and a body that is no object.
      const url = `${path.replace(':id', 'not-a-number')}?page=x&days=x&from=x&domain=%00&filename=%00`;
      const res = await signedOut.request(
        method as 'GET',
        url,
        method === 'POST' || method === 'PATCH' ? [42] : undefined,
      );
      // The MTA webhooks take a webhook token, not a session: refused too, saying which token to send.
      expectRefused(
        res,
        401,
        WEBHOOK_TOKEN_ROUTE.test(path) ? /^Missing webhook token: / : AUTH_MESSAGES.notSignedIn,
        `${method} ${path}`,
      );
      expect(res.json().code).toBe('unauthorized');
    }
    expect(await databaseState()).toEqual(before);
  });
});
