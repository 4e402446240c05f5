import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';

const lines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ logger: pino({ level: 'info' }, sink) });
});
afterAll(() => t.close());

describe('request log', () => {
  it('writes one line a request at info, when it is answered, with the request id the client got', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/user?x=1', headers: { 'x-request-id': 'trace-77' } });
    expect(res.statusCode).toBe(401);
    const mine = lines.filter((l) => l.reqId === 'trace-77');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ msg: 'request completed', method: 'GET', url: '/api/user?x=1', statusCode: 401 });
    expect(typeof mine[0].responseTime).toBe('number');
    expect(JSON.stringify(mine[0])).not.toMatch(/cookie|authorization/i);
  });
});
