import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { waitUntil } from '../../test/wait-until';
import { keepExpectedSenders } from './expected-senders';

/*
 * The in-memory set behind the listener's kept slots. The load is a function here so a failing database can be
 * played; the listener's own test (smtp-hostile.test.ts) reads the real one.
 */

/** A logger whose warnings the test can read. */
function recordingLog() {
  const warnings: { msg: string }[] = [];
  const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line)) });
  return { log, warnings };
}

describe('the expected senders', () => {
  it('counts each address under its sending network (/24, /64) and skips what is not an address', async () => {
    const { log } = recordingLog();
    const senders = await keepExpectedSenders(
      async () => ['192.0.2.10', '::ffff:198.51.100.7', '2001:db8:1:2::25', 'unknown'],
      60_000,
      log,
    );
    senders.stop();
    for (const network of ['192.0.2.0/24', '198.51.100.0/24', '2001:db8:1:2::/64'])
      expect(senders.has(network), network).toBe(true);
    expect(senders.has('192.0.3.0/24')).toBe(false);
  });

  it('picks up a network that starts sending at the next reload', async () => {
    const { log } = recordingLog();
    const ips = ['192.0.2.10'];
    const senders = await keepExpectedSenders(async () => [...ips], 10, log);
    ips.push('203.0.113.5');
    await waitUntil(() => senders.has('203.0.113.0/24'), 'the new network to be expected');
    senders.stop();
  });

  it('keeps the last set when a reload fails, and says so in the log', async () => {
    const { log, warnings } = recordingLog();
    let loads = 0;
    const senders = await keepExpectedSenders(
      async () => {
        loads++;
        if (loads > 1) throw new Error('connection terminated unexpectedly');
        return ['192.0.2.10'];
      },
      10,
      log,
    );
    await waitUntil(() => loads >= 3, 'two failed reloads');
    senders.stop();
    expect(senders.has('192.0.2.0/24')).toBe(true);
    expect(warnings[0].msg).toContain('keeping the last set');
  });
});
