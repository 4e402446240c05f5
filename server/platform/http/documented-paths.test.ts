import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';

// Paths for programs, not pages: /v1/postfix/... (served to scripts with an API key) and /oauth/...
// (only the Google callback is a route). A script that calls one the app does not serve must read a
// JSON 404, not the SPA's index.html with a 200.
let t: TestApp;
beforeAll(async () => {
  const webRoot = mkdtempSync(path.join(tmpdir(), 'inboxpulse-web-'));
  writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><div id="root"></div>');
  t = await createTestApp({ webRoot });
});
afterAll(() => t.close());

describe('documented paths that are not pages', () => {
  // The four Postfix calls are served (server/delivery-events) to scripts with an API key: without
  // one they answer a JSON 401 saying what to send. Any other /v1 path is a JSON 404.
  it('answer the documented Postfix calls with a JSON 401 asking for an API key', async () => {
    for (const [method, url] of [
      ['POST', '/v1/postfix/queue'],
      ['GET', '/v1/postfix/analytics'],
      ['POST', '/v1/postfix/logs'],
      ['GET', '/v1/postfix/config?x=1'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json(), url).toEqual({ code: 'unauthorized', message: expect.stringMatching(/^Send your API key/) });
    }
  });

  it('answer JSON 404 for /v1/* and /oauth/*, whatever the method', async () => {
    const calls = [
      ['POST', '/v1/postfix/flush'],
      ['GET', '/v1/metrics'],
      ['GET', '/v1/postfix/config/extra?x=1'],
      ['GET', '/v1'],
      ['GET', '/oauth/github/callback?code=abc&state=xyz'],
      ['GET', '/oauth/google'],
      ['POST', '/oauth/google/callback'],
      ['HEAD', '/oauth'],
    ] as const;
    for (const [method, url] of calls) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      if (method !== 'HEAD')
        expect(res.json(), url).toEqual({ code: 'not_found', message: `No API route ${method} ${url.split('?')[0]}` });
    }
  });

  it('still serves pages whose names only start alike', async () => {
    for (const url of ['/v1-notes', '/oauthorize', '/settings']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
    }
  });
});
