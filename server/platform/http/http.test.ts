import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (payload: string | Buffer, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  t.app.inject({ method: 'POST', url: '/api/login', payload, headers });

describe('HTTP hardening', () => {
  it('answers unknown API routes with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'not_found', message: 'No API route GET /api/nope' });
  });

  it('rejects malformed JSON, an empty body, a wrong content type and a non-object body', async () => {
    expect((await post('{"username":')).json()).toEqual({
      code: 'validation_error',
      message: 'Request body is not valid JSON',
    });
    expect((await post('')).statusCode).toBe(400);
    const form = await post('username=a&password=b', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.statusCode).toBe(415);
    expect(form.json().code).toBe('unsupported_media_type');
    const array = await post('[1,2]');
    expect(array.json()).toEqual({ code: 'validation_error', message: 'Request body is missing or not a JSON object' });
  });

  it('rejects bodies over 1 MB with 413 before reading them', async () => {
    const huge = JSON.stringify({ username: 'x', password: 'y'.repeat(1024 * 1024) });
    const res = await post(huge);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ code: 'payload_too_large', message: 'Request body is too large (limit 1 MB)' });
  });

  it('names the field when a value has the wrong type', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: ['a@b.co'] } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Please enter a valid email address');
    const tour = await t.app.inject({ method: 'POST', url: '/api/validate-reset-token', payload: { token: 42 } });
    expect(tour.json().message).toBe('Token is required');
  });

  it('refuses state-changing requests from another site, allows its own origin', async () => {
    const { client } = await signUp(t.app);
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { cookie: client.cookie!, origin: 'https://evil.example' },
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({ code: 'forbidden', message: 'Cross-site request refused' });
    expect((await client.get('/api/user')).statusCode).toBe(200);

    const crossSite = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { cookie: client.cookie!, 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.statusCode).toBe(403);

    const own = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { cookie: client.cookie!, origin: 'http://localhost:3000' },
    });
    expect(own.statusCode).toBe(200);
  });

  it('sends API answers with headers that keep them from being run, framed or cached, and a request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/user', headers: { 'x-request-id': 'trace-123' } });
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-request-id']).toBe('trace-123');
  });

  it('hides internals when the database fails under a request', async () => {
    const broken = await createTestApp();
    const { client } = await signUp(broken.app);
    await broken.database.close();
    const res = await client.get('/api/user');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 'internal', message: 'Something went wrong on our side. Please try again.' });
    await broken.app.close();
    await broken.jobs.stop().catch(() => {});
  });
});
