import { readFileSync } from 'node:fs';
import { childrenByParent } from './process-memory';

/** Clock ticks per second of /proc/PID/stat's times: 100 on every Linux this runs on (USER_HZ). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system, ms) used so far by `pid` and every descendant alive now, by process
 * name (`node`, `postgres`, ...). What a benchmark divides by the work done: unlike a rate, it
 * hardly moves when other work shares the machine's cores.
 */
export function treeCpuMs(pid: number): Map<string, number> {
  const children = childrenByParent();
  const byName = new Map<string, number>();
  const pending = [pid];
  while (pending.length) {
    const current = pending.pop()!;
    try {
      const stat = readFileSync(`/proc/${current}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      // Fields after the name: state is 3rd, utime the 14th and stime the 15th of the whole line.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
      byName.set(name, (byName.get(name) ?? 0) + ms);
    } catch {
      // ended meanwhile
    }
    pending.push(...(children.get(current) ?? []));
  }
  return byName;
}

/** What each process name used between two readings. */
export function cpuSince(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  return Object.fromEntries([...after].map(([name, ms]) => [name, ms - (before.get(name) ?? 0)]));
}
