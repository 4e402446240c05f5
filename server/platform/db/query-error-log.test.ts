import { sql } from 'drizzle-orm';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestClient, type TestApp } from '../../test/test-app';
import { createLogger, LOG_LIMITS } from '../logger';

// What one line may take: every string field together within lineChars, plus keys, quotes and numbers.
const MAX_LINE = LOG_LIMITS.lineChars + 4000;

const output = new PassThrough();
let text = '';
output.on('data', (chunk) => (text += chunk));
const logged = () =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => ({ line, json: JSON.parse(line) as Record<string, unknown> & { err?: Record<string, unknown> } }));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ logger: createLogger('info', { terminal: false, stream: output }) });
});
afterAll(() => t.close());

describe('a failed query in the log', () => {
  it('a failed registration logs the query, not the password hash, the address or the refused row', async () => {
    await t.database.pool.query('ALTER TABLE users ADD CONSTRAINT refuse_new_users CHECK (false) NOT VALID');
    try {
      const res = await new TestClient(t.app).post('/api/register', {
        username: 'leaky',
        email: 'leaky-person@example.com',
        password: 'correct horse battery',
      });
      expect(res.statusCode).toBe(500);
    } finally {
      await t.database.pool.query('ALTER TABLE users DROP CONSTRAINT refuse_new_users');
    }
    await new Promise((resolve) => setImmediate(resolve));
    const failure = logged().find((l) => l.json.msg === 'unhandled error');
    expect(failure).toBeDefined();
    const { line, json } = failure!;
    expect(json.err).toMatchObject({
      type: 'DrizzleQueryError',
      message: expect.stringMatching(/^Failed query: insert into "users"/),
    });
    expect(json.err).not.toHaveProperty('params');
    expect(json.err!.cause).toMatchObject({ code: '23514', detail: 'Failing row contains [redacted]' });
    expect(line).not.toMatch(/\$argon2|leaky-person|correct horse/);
  });

  it('a query given a huge secret value logs a bounded line without it, however the error is logged', async () => {
    const secret = `s3cr3t-${'q'.repeat(5 * 1024 * 1024)}`;
    const err = await t.database.db.execute(sql`select ${secret}::int`).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(err).toBeInstanceOf(Error);
    const log = createLogger('info', { terminal: false, stream: output });
    const before = logged().length;
    log.error({ err }, 'query failed');
    log.error(err!);
    log.warn({ error: err, rows: [err] }, 'query failed, another key');
    await new Promise((resolve) => setImmediate(resolve));
    const lines = logged().slice(before);
    expect(lines).toHaveLength(3);
    for (const { line, json } of lines) {
      expect(line.length).toBeLessThan(MAX_LINE);
      expect(line).not.toContain('s3cr3t');
      expect(line).not.toContain('qqqqqqqqqq');
      expect(JSON.stringify(json)).toContain('Failed query: select $1::int');
    }
  });
});
