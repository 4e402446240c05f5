import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, LOG_LIMITS } from './logger';
import { waitUntil } from '../test/wait-until';

const repoRoot = path.resolve(import.meta.dirname, '../..');

function capture(terminal: boolean) {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk) => (text += chunk));
  const log = createLogger('info', { terminal, stream });
  return { log, text: () => text };
}

/** The output once a whole line has come through the stream (pino and pino-pretty write asynchronously). */
const flushed = (read: () => string): Promise<string> =>
  waitUntil(() => read().includes('\n') && read(), 'a whole line of log output', { intervalMs: 1 });

describe('createLogger', () => {
  it('writes one JSON object a line when no person is watching', async () => {
    const { log, text } = capture(false);
    log.info({ roles: ['web'] }, 'InboxPulse started');
    const line = JSON.parse((await flushed(text)).trim());
    expect(line).toMatchObject({ level: 30, msg: 'InboxPulse started', roles: ['web'] });
  });

  it('writes readable lines in a terminal: level, message and fields, no JSON', async () => {
    const { log, text } = capture(true);
    log.warn({ smtpPort: 2525 }, 'SMTP_URL is not set');
    const out = await flushed(text);
    expect(out).toMatch(/WARN.*SMTP_URL is not set/);
    expect(out).toMatch(/smtpPort: 2525/);
    expect(() => JSON.parse(out)).toThrow();
    expect(out).not.toMatch(/hostname|"pid"/);
  });
});

describe('bounded log lines', () => {
  const lineOf = async (write: (log: ReturnType<typeof createLogger>) => void) => {
    const { log, text } = capture(false);
    write(log);
    const line = (await flushed(text)).trim();
    return { line, json: JSON.parse(line) as Record<string, unknown> };
  };

  it('caps every string field, bounds arrays, depth and buffers, and the whole line', async () => {
    const { line, json } = await lineOf((log) =>
      log.info(
        {
          big: 'x'.repeat(1_000_000),
          list: Array.from({ length: 10_000 }, (_, i) => i),
          upload: Buffer.alloc(28 * 1024 * 1024),
          deep: { a: { b: { c: { d: { e: { f: 'g' } } } } } },
          many: Array.from({ length: 40 }, () => 'y'.repeat(5000)),
        },
        'z'.repeat(100_000),
      ),
    );
    expect(line.length).toBeLessThan(LOG_LIMITS.lineChars + 4000);
    expect((json.big as string).length).toBeLessThan(LOG_LIMITS.fieldChars + 50);
    expect(json.big).toMatch(/… \[998000 more characters\]$/);
    expect(json.list).toHaveLength(LOG_LIMITS.arrayItems + 1);
    expect(json.upload).toBe(`[${28 * 1024 * 1024} bytes]`);
    expect(JSON.stringify(json.deep)).toContain('[truncated]');
    expect((json.msg as string).length).toBeLessThan(LOG_LIMITS.fieldChars + 50);
  });

  it('leaves ordinary lines as they are', async () => {
    const { json } = await lineOf((log) => log.info({ roles: ['web'], port: 3000, nested: { ok: true } }, 'started'));
    expect(json).toMatchObject({ roles: ['web'], port: 3000, nested: { ok: true }, msg: 'started' });
  });

  it("logs a query error's text without its values, and PostgreSQL's refused values redacted", async () => {
    const cause = Object.assign(new Error('new row for relation "users" violates check constraint "c"'), {
      code: '23514',
      detail: 'Failing row contains (7, alice, alice@example.com, $argon2id$v=19$secret).',
    });
    const unique = Object.assign(new Error('duplicate key value violates unique constraint "users_email"'), {
      code: '23505',
      detail: 'Key (lower(email))=(alice@example.com) already exists.',
    });
    const query = Object.assign(
      new Error(`Failed query: insert into "users" values ($1, $2)\nparams: alice@example.com,$argon2id$v=19$secret`),
      {
        query: 'insert into "users" values ($1, $2)',
        params: ['alice@example.com', '$argon2id$v=19$secret'],
        cause,
      },
    );
    const { line, json } = await lineOf((log) => log.error({ err: query, other: unique }, 'failed'));
    expect(line).not.toMatch(/argon2|alice@example\.com/);
    expect(json.err).toMatchObject({
      message: 'Failed query: insert into "users" values ($1, $2)',
      query: 'insert into "users" values ($1, $2)',
      stack: expect.stringMatching(/^Error: Failed query: insert into "users" values \(\$1, \$2\)\n {4}at /),
      cause: { code: '23514', detail: 'Failing row contains [redacted]' },
    });
    expect(json.other).toMatchObject({ code: '23505', detail: 'Key (lower(email))=([redacted]) already exists.' });

    const first = await lineOf((log) => log.error(query));
    expect(first.json).toMatchObject({ msg: 'Failed query: insert into "users" values ($1, $2)' });
    expect(first.line).not.toMatch(/argon2|alice@example\.com/);
  });

  it('writes request URLs with secret parameters redacted', async () => {
    const { json } = await lineOf((log) =>
      log.info(
        { req: { method: 'GET', url: '/reset-password?token=live-token-value', ip: '10.0.0.1' } },
        'incoming request',
      ),
    );
    expect(json.req).toEqual({ method: 'GET', url: '/reset-password?token=[redacted]', remoteAddress: '10.0.0.1' });
  });
});

describe('stdout of a production process', () => {
  // Lines are written in blocks; the last block must still reach the collector when the process dies of an error.
  it('keeps every line logged before an uncaught exception ends the process', () => {
    const script = [
      "import { createLogger } from './server/platform/logger.ts';",
      "const log = createLogger('info', { terminal: false });",
      "for (let i = 0; i < 3; i++) log.info({ i }, 'before the crash');",
      "setImmediate(() => { throw new Error('boom'); });",
    ].join('\n');
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      cwd: repoRoot,
    });
    expect(child.status).not.toBe(0);
    const lines = child.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.i)).toEqual([0, 1, 2]);
  });

  it('keeps the lines of the very turn in which the process died', () => {
    const script = [
      "import { createLogger } from './server/platform/logger.ts';",
      "const log = createLogger('info', { terminal: false });",
      "log.info({ i: 0 }, 'an earlier turn');",
      "setImmediate(() => { log.info({ i: 1 }, 'the last words'); process.exit(3); });",
    ].join('\n');
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      cwd: repoRoot,
    });
    expect(child.status).toBe(3);
    expect(
      child.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).i),
    ).toEqual([0, 1]);
  });

  it("writes a quiet server's line at once, not when a block of lines fills up", async () => {
    const script = [
      "import { createLogger } from './server/platform/logger.ts';",
      "const log = createLogger('info', { terminal: false });",
      "log.info({ port: 3000 }, 'listening');",
      'setInterval(() => {}, 1000);', // alive, logging nothing more
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    try {
      const line = await waitUntil(() => out.includes('\n') && out, 'the one line on stdout', { timeoutMs: 20_000 });
      expect(JSON.parse(line.trim())).toMatchObject({ msg: 'listening', port: 3000 });
    } finally {
      child.kill('SIGKILL');
    }
  });
});
