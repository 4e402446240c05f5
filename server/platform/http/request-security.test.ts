import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../../test/test-app';
import { RATE_RULES } from '../security/rate-limit';

describe('TRUST_PROXY=1: one proxy in front, the hop it appends is the client', () => {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '1' }, logger: pino({ level: 'info' }, sink) });
  });
  afterAll(() => t.close());

  it('takes the right-most X-Forwarded-For entry, not the one the client wrote', async () => {
    await t.app.inject({
      method: 'GET',
      url: '/api/user',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '1.2.3.4, 5.6.7.8', 'x-request-id': 'xff-1' },
    });
    expect(lines.find((l) => l.reqId === 'xff-1')).toMatchObject({ remoteAddress: '5.6.7.8' });
  });

  it('a client writing a new left-most X-Forwarded-For each time still meets the per-IP registration limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= RATE_RULES.registerPerIp.limit; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/register',
        remoteAddress: '127.0.0.1', // the proxy
        headers: { 'x-forwarded-for': `10.66.${i}.1, 203.0.113.9` }, // what the client wrote, then what the proxy saw
        payload: { username: `spoof${i}`, email: `spoof${i}@example.com`, password: 'correct horse battery' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('Origin: only APP_URL is a browser origin of this app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(); // APP_URL http://localhost:3000
  });
  afterAll(() => t.close());

  it('refuses a DNS-rebinding page whose Origin matches the Host it sent', async () => {
    const { client } = await signUp(t.app);
    const rebound = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { cookie: client.cookie!, host: 'attacker.example:3000', origin: 'http://attacker.example:3000' },
    });
    expect(rebound.statusCode).toBe(403);
    expect(rebound.json()).toEqual({ code: 'forbidden', message: 'Cross-site request refused' });
    expect((await client.get('/api/user')).statusCode).toBe(200);
  });

  it("accepts a loopback APP_URL's page under this machine's other loopback names, on its port only", async () => {
    const { client } = await signUp(t.app);
    const logout = (origin: string) =>
      t.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie: client.cookie!, origin } });
    expect((await logout('http://127.0.0.1:8080')).statusCode).toBe(403);
    expect((await logout('https://localhost:3000')).statusCode).toBe(403);
    expect((await logout('http://127.0.0.1:3000')).statusCode).toBe(200);
  });
});

describe('Host: outside tests, only the names this server answers for', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { NODE_ENV: 'production', APP_URL: 'https://app.example.com', ALLOWED_HOSTS: 'inboxpulse.internal' },
    });
  });
  afterAll(() => t.close());

  const get = (host: string, url = '/api/user') => t.app.inject({ method: 'GET', url, headers: { host } });

  it('answers 421 in the app error shape to any other name, pages and API alike', async () => {
    for (const url of ['/api/user', '/', '/api/login']) {
      const res = await get('attacker.example', url);
      expect(res.statusCode).toBe(421);
      expect(res.json()).toEqual({
        code: 'forbidden',
        message: 'This server does not answer for the host name "attacker.example"',
      });
    }
    const post = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { host: 'attacker.example:443' },
      payload: { username: 'a', password: 'b' },
    });
    expect(post.statusCode).toBe(421);
  });

  it("serves APP_URL's host, ALLOWED_HOSTS and this machine's loopback names, whatever the port or case", async () => {
    for (const host of [
      'app.example.com',
      'APP.example.com:443',
      'inboxpulse.internal:3000',
      'localhost:3000',
      '127.0.0.1',
      '[::1]:3000',
    ]) {
      expect((await get(host)).statusCode, host).toBe(401);
    }
  });

  it('does not take X-Forwarded-Host from a client when no proxy is trusted', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { host: 'attacker.example', 'x-forwarded-host': 'app.example.com' },
    });
    expect(res.statusCode).toBe(421);
  });
});
