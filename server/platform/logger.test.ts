import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger';
import { waitUntil } from '../test/wait-until';

function capture(terminal: boolean) {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk) => (text += chunk));
  const log = createLogger('info', { terminal, stream });
  return { log, text: () => text };
}

/** The output once a whole line has come through the stream (pino and pino-pretty write asynchronously). */
const flushed = (read: () => string): Promise<string> => waitUntil(() => read().includes('\n') && read(), 'a whole line of log output', { intervalMs: 1 });

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
