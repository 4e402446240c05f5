import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import net from 'node:net';

/*
 * Real servers a test starts (Dovecot, spamd) run in their own process group, so one signal ends
 * the master and every child it forked, and a test worker that exits without stopping them does
 * not leave them behind.
 */

/** Groups still running, with the temp dir each one owns. */
const liveGroups = new Map<number, string>();
process.once('exit', () => {
  for (const [pid, dir] of liveGroups) {
    signalGroup(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Starts `binary` as the leader of a new process group that owns `dir`; its stderr goes to `onOutput`. */
export function spawnGroup(
  binary: string,
  args: string[],
  dir: string,
  onOutput: (chunk: string) => void,
): ChildProcess {
  const child = spawn(binary, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  child.once('error', (err) => onOutput(`${err.message}\n`));
  child.stderr!.setEncoding('utf8').on('data', onOutput);
  if (child.pid) liveGroups.set(child.pid, dir);
  return child;
}

function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is already gone
  }
}

/**
 * SIGTERM to the whole group ends every process at once (a master alone may wait for its children).
 * The data is thrown away, so nothing needs a clean shutdown: SIGKILL after 3 s.
 */
export async function stopGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (!pid) return; // never started
  signalGroup(pid, 'SIGTERM');
  const deadline = Date.now() + 3_000;
  while (signalGroup(pid, 0)) {
    if (Date.now() > deadline) {
      signalGroup(pid, 'SIGKILL');
      break;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r));
  liveGroups.delete(pid);
}

/** A TCP port on 127.0.0.1 nobody listens on right now (another process may still take it: retry on EADDRINUSE). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Whether the server on 127.0.0.1:`port` answers as `ready` expects, after we say `request` (if
 * anything): a bound port alone is not a server that works yet.
 */
export function answers(port: number, ready: (data: string) => boolean, request?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2_000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('close', () => done(ready(data)));
    if (request) socket.on('connect', () => socket.end(request));
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
      if (ready(data)) done(true);
    });
  });
}
