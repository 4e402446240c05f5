import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { redactUrl } from '../logger';
import { accessLineLevel, lazyRequestLogger, millis } from './request-log';
import { waitUntil } from '../../test/wait-until';

const lines: Record<string, unknown>[] = [];
const rawLines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) {
      rawLines.push(line);
      lines.push(JSON.parse(line));
    }
    done();
  },
});

let t: TestApp;
const appLogger = pino({ level: 'info' }, sink);
let childrenMade = 0;
const makeChild = appLogger.child.bind(appLogger);
appLogger.child = ((...args: Parameters<typeof makeChild>) => (
  childrenMade++,
  makeChild(...args)
)) as typeof appLogger.child;
beforeAll(async () => {
  t = await createTestApp({ logger: appLogger });
});
afterAll(() => t.close());

describe('request log', () => {
  it('writes one line a request when it is answered (a refused one at info), with the request id the client got', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/user?x=1', headers: { 'x-request-id': 'trace-77' } });
    expect(res.statusCode).toBe(401);
    const mine = lines.filter((l) => l.reqId === 'trace-77');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ msg: 'request completed', method: 'GET', url: '/api/user?x=1', statusCode: 401 });
    expect(typeof mine[0].responseTime).toBe('number');
    expect(JSON.stringify(mine[0])).not.toMatch(/cookie|authorization/i);
  });

  it('is the line pino would write for the same fields, key for key, bindings included', async () => {
    await t.app.inject({ method: 'GET', url: '/api/user?page=2', headers: { 'x-request-id': 'same-as-pino' } });
    const written = rawLines.find((l) => l.includes('"same-as-pino"'))!;
    const { level, time, pid, hostname, msg, ...fields } = JSON.parse(written) as Record<string, unknown>;
    expect({ level, msg }).toEqual({ level: 30, msg: 'request completed' });
    const before = rawLines.length;
    appLogger.info(fields, 'request completed');
    await waitUntil(() => rawLines.length > before, 'the line pino writes');
    const fromPino = rawLines[before];
    const withoutTime = (line: string) => line.replace(/,"time":\d+/, '');
    expect(withoutTime(written)).toBe(withoutTime(fromPino));
    expect(Object.keys(JSON.parse(written))).toEqual([
      'level',
      'time',
      'pid',
      'hostname',
      'reqId',
      'method',
      'url',
      'remoteAddress',
      'statusCode',
      'responseTime',
      'msg',
    ]);
    expect({ pid, hostname, time: typeof time }).toEqual({
      pid: process.pid,
      hostname: expect.any(String),
      time: 'number',
    });
  });

  it('bounds a request id the client chose, and writes nothing below its level', async () => {
    await t.app.inject({ method: 'GET', url: '/api/user', headers: { 'x-request-id': `long-"${'x'.repeat(10_000)}` } });
    const long = await waitUntil(
      () => lines.find((l) => String(l.reqId).startsWith('long-"')),
      'the line of the long request id',
    );
    expect(String(long.reqId).length).toBeLessThan(2100);
    expect(String(long.reqId)).toMatch(/more characters\]$/);

    t.app.log.level = 'warn';
    try {
      await t.app.inject({ method: 'GET', url: '/api/user', headers: { 'x-request-id': 'quiet-1' } });
    } finally {
      t.app.log.level = 'info';
    }
    await t.app.inject({ method: 'GET', url: '/api/user', headers: { 'x-request-id': 'loud-1' } });
    await waitUntil(() => lines.some((l) => l.reqId === 'loud-1'), 'the access line at info');
    expect(lines.some((l) => l.reqId === 'quiet-1')).toBe(false);
  });

  it('writes a quick, successful read at debug only; a change, a refusal and a failure at info', async () => {
    const read = await t.app.inject({
      method: 'GET',
      url: '/api/user?whenSignedOut=null',
      headers: { 'x-request-id': 'read-at-info' },
    });
    expect(read.statusCode).toBe(200);
    const change = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { 'x-request-id': 'change-at-info' },
    });
    expect(change.statusCode).toBeLessThan(400);
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/domains',
      headers: { 'x-request-id': 'refusal-at-info' },
    });
    expect(refused.statusCode).toBe(401);
    await waitUntil(
      () => ['change-at-info', 'refusal-at-info'].every((id) => lines.some((l) => l.reqId === id)),
      'the lines at info',
    );
    expect(lines.find((l) => l.reqId === 'change-at-info')).toMatchObject({
      level: 30,
      method: 'POST',
      url: '/api/logout',
    });
    expect(lines.find((l) => l.reqId === 'refusal-at-info')).toMatchObject({ level: 30, statusCode: 401 });
    expect(lines.some((l) => l.reqId === 'read-at-info')).toBe(false);

    t.app.log.level = 'debug';
    try {
      await t.app.inject({
        method: 'GET',
        url: '/api/user?whenSignedOut=null',
        headers: { 'x-request-id': 'read-at-debug' },
      });
    } finally {
      t.app.log.level = 'info';
    }
    const atDebug = await waitUntil(
      () => lines.find((l) => l.reqId === 'read-at-debug' && l.msg === 'request completed'),
      'the read at debug',
    );
    expect(atDebug).toMatchObject({ level: 20, statusCode: 200, method: 'GET' });
  });

  it('never writes the token of a mailed link, on the API or on the page that opens it, at info or debug', async () => {
    const token = 'Zq7pLiveResetToken_9bXk2mWw4rTt8uYy1oPa3sDf';
    t.app.log.level = 'debug';
    try {
      const opened = [
        `/api/verify-email?token=${token}`,
        `/verify-email?token=${token}`,
        `/reset-password?token=${token}&next=%2Fdashboard`,
        `/api/nope?code=${token}`,
      ];
      for (const [i, url] of opened.entries())
        await t.app.inject({ method: 'GET', url, headers: { 'x-request-id': `link-${i}` } });
    } finally {
      t.app.log.level = 'info';
    }
    const mine = lines.filter((l) => String(l.reqId).startsWith('link-'));
    expect(mine.map((l) => l.msg)).toContain('incoming request');
    expect(mine.find((l) => l.reqId === 'link-2' && l.msg === 'request completed')).toMatchObject({
      url: '/reset-password?token=[redacted]&next=%2Fdashboard',
    });
    expect(JSON.stringify(mine)).not.toContain(token);
    expect(JSON.stringify(mine)).not.toContain(token.slice(0, 12));
  });
});

describe('request.log', () => {
  it('is made only when the request logs something itself, and then carries the request id', () => {
    const written: Record<string, unknown>[] = [];
    const parent = pino({ level: 'info' }, { write: (line: string) => written.push(JSON.parse(line)) });
    let children = 0;
    const child = parent.child.bind(parent);
    parent.child = ((...args: Parameters<typeof child>) => (children++, child(...args))) as typeof parent.child;
    const log = lazyRequestLogger.call(undefined, parent, { reqId: 'r-1' }, {});
    expect(log.level).toBe('info');
    log.debug('below the level');
    expect(children).toBe(1); // a call made it, even one below the level: pino decides
    log.warn({ detail: 2 }, 'something to say');
    expect(children).toBe(1);
    expect(written).toEqual([expect.objectContaining({ reqId: 'r-1', detail: 2, msg: 'something to say', level: 40 })]);
  });

  it('is not made for a request that only writes its access line', async () => {
    const before = { lines: lines.length, children: childrenMade };
    const res = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { 'x-request-id': 'lazy-1' } });
    expect(res.statusCode).toBeLessThan(400);
    await waitUntil(() => lines.some((l) => l.reqId === 'lazy-1'), 'the access line');
    expect(childrenMade).toBe(before.children);
    expect(lines.slice(before.lines).filter((l) => l.reqId === 'lazy-1')).toEqual([
      expect.objectContaining({ msg: 'request completed', method: 'POST' }),
    ]);
  });
});

describe('accessLineLevel', () => {
  it('keeps a slow read, any failure and any change at info', () => {
    expect(accessLineLevel('GET', 200, 999)).toBe(20);
    expect(accessLineLevel('HEAD', 304, 1)).toBe(20);
    expect(accessLineLevel('OPTIONS', 204, 1)).toBe(20);
    expect(accessLineLevel('GET', 200, 1000)).toBe(30);
    expect(accessLineLevel('GET', 404, 1)).toBe(30);
    expect(accessLineLevel('GET', 500, 1)).toBe(30);
    expect(accessLineLevel('POST', 200, 1)).toBe(30);
    expect(accessLineLevel('DELETE', 204, 1)).toBe(30);
  });
});

describe('millis', () => {
  it('writes a response time as JSON writes it rounded to the microsecond', () => {
    for (const ms of [
      0, 0.0004, 0.0005, 0.001, 0.01, 0.1, 0.643208999, 0.9996, 1, 2.5, 12.04, 999.9999, 1234.5678, 86_400_000.1234,
    ]) {
      expect(millis(ms)).toBe(String(Math.round(ms * 1000) / 1000));
    }
    for (let i = 0; i < 10_000; i++) {
      const ms = Math.random() * 10 ** Math.floor(Math.random() * 7);
      expect(millis(ms)).toBe(String(Math.round(ms * 1000) / 1000));
    }
  });
});

describe('redactUrl', () => {
  it('keeps paths and ordinary parameters, redacts secret ones and values that look like tokens', () => {
    expect(redactUrl('/api/dmarc/reports?page=2&domain=example.com')).toBe(
      '/api/dmarc/reports?page=2&domain=example.com',
    );
    expect(redactUrl('/api/verify-email?token=abc')).toBe('/api/verify-email?token=[redacted]');
    expect(redactUrl('/callback?code=1&state=2&api_key=3&Password=4&x=5')).toBe(
      '/callback?code=[redacted]&state=[redacted]&api_key=[redacted]&Password=[redacted]&x=5',
    );
    expect(redactUrl('/x?t=ZmFrZS10b2tlbi1mb3ItYS10ZXN0LXRoYXQtaXMtbG9uZw')).toBe('/x?t=[redacted]');
    expect(redactUrl('/x?flag&token')).toBe('/x?flag&token');
    expect(redactUrl(`/x?q=${'a.'.repeat(5000)}`).length).toBeLessThan(2100);
  });
});
