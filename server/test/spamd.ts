import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { answers, freePort, spawnGroup, stopGroup } from './process-group';
import { waitUntil } from './wait-until';

/**
 * A real SpamAssassin daemon (Debian's `spamd`) on 127.0.0.1 for tests, with the rules the package
 * ships. `--local`: no network tests (DNSBL, URIBL, Razor), which would wait on the internet; the
 * rules on headers, body and URIs all run.
 */
export interface TestSpamd {
  /** For SPAMD_HOST: `127.0.0.1:<port>`. */
  host: string;
  log(): string;
  stop(): Promise<void>;
}

const spamdBinary = ['/usr/sbin/spamd', '/usr/bin/spamd'].find((file) => existsSync(file)) ?? null;

/** A skip reason for `describe.skipIf(noSpamd)`, or false when spamd can run. CI installs it, so there it never skips. */
export const noSpamd: string | false = spamdBinary ? false : 'spamd is not installed (apt-get install spamd)';
if (noSpamd && process.env.CI) throw new Error('CI must run the SpamAssassin tests: install Debian spamd');

export async function startSpamd(): Promise<TestSpamd> {
  if (!spamdBinary) throw new Error(noSpamd as string);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(spamdBinary, await freePort());
    } catch (err) {
      // Another process may take the port between our probe and spamd's bind.
      if (attempt >= 3 || !/Address already in use|could not create/i.test(String(err))) throw err;
    }
  }
}

async function startOnce(binary: string, port: number): Promise<TestSpamd> {
  const dir = await mkdtemp(path.join(tmpdir(), 'inboxpulse-spamd-'));
  let output = '';
  const args = [
    `--listen=127.0.0.1:${port}`,
    '--local',
    '--nouser-config',
    '--min-children=1',
    '--max-children=2',
    `--pidfile=${path.join(dir, 'spamd.pid')}`,
    '--syslog=stderr',
    // As root spamd runs its children as this user; it needs no home (no user config, no Bayes).
    ...(process.getuid?.() === 0 ? ['--username=nobody'] : []),
  ];
  const child = spawnGroup(binary, args, dir, (chunk) => {
    output = (output + chunk).slice(-100_000);
  });
  try {
    await waitForPong(port, child, () => output);
  } catch (err) {
    await stopGroup(child);
    await rm(dir, { recursive: true, force: true });
    throw new Error(`spamd did not start: ${(err as Error).message}\n${output.trim()}`);
  }
  let stopped: Promise<void> | undefined;
  return {
    host: `127.0.0.1:${port}`,
    log: () => output,
    stop: () =>
      (stopped ??= (async () => {
        await stopGroup(child);
        await rm(dir, { recursive: true, force: true });
      })()),
  };
}

/** Ready means a child answered PING, not merely that the port is bound (rules compile first). */
async function waitForPong(port: number, child: ChildProcess, output: () => string): Promise<void> {
  await waitUntil(
    async () => {
      if (!child.pid || child.exitCode !== null || child.signalCode !== null)
        throw new Error(`spamd exited (${child.exitCode ?? child.signalCode ?? 'not started'})`);
      if (/could not create|Address already in use/i.test(output())) throw new Error('spamd could not listen');
      return answers(port, (data) => data.includes('PONG'), 'PING SPAMC/1.5\r\n\r\n');
    },
    `spamd's PONG on port ${port}`,
    { timeoutMs: 25_000, intervalMs: 100 },
  );
}
