import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The embedded PostgreSQL belongs to one app process: a second one on the same DATA_DIR would take
 * the first one's server for a leftover and stop it. A pid file turns that mistake into a clear
 * start-up error.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'inboxpulse.pid');
  if (existsSync(file)) {
    const pid = Number(readFileSync(file, 'utf8'));
    if (pid && pid !== process.pid && isRunning(pid)) {
      throw new Error(
        `Another InboxPulse process (pid ${pid}) is using ${dataDir}. The embedded database serves one process; ` +
          'stop the other one, choose another DATA_DIR, or run several processes on PostgreSQL with DATABASE_URL.',
      );
    }
  }
  writeFileSync(file, String(process.pid));
  return () => rmSync(file, { force: true });
}

/** Whether a process runs. A killed process is a zombie until its parent reaps it: that one has ended. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    // /proc/PID/stat: "pid (name) state ...", the name in parentheses may hold spaces.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return !existsSync('/proc/self'); // no /proc (macOS): the signal's answer stands
  }
}
