import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, TestClient, type TestApp } from '../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/user', () => {
  it('answers 401 when nobody is signed in (part 1, section 7)', async () => {
    const res = await new TestClient(t.app).get('/api/user');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthorized' });
  });

  it('answers the session probe ?whenSignedOut=null with 200 and null, so a signed-out page load logs no failure', async () => {
    const res = await new TestClient(t.app).get('/api/user?whenSignedOut=null');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toBe('null');
  });

  it('answers the user to the probe as to the plain call when signed in', async () => {
    const { client, user } = await signUp(t.app);
    const plain = await client.get('/api/user');
    const probe = await client.get('/api/user?whenSignedOut=null');
    expect(plain.statusCode).toBe(200);
    expect(probe.statusCode).toBe(200);
    expect(probe.json()).toEqual(plain.json());
    expect(probe.json()).toMatchObject({ id: user.id, username: user.username });
  });

  it('refuses any other value of whenSignedOut', async () => {
    const res = await new TestClient(t.app).get('/api/user?whenSignedOut=empty');
    expect(res.statusCode).toBe(400);
  });
});
