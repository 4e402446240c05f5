import { readdirSync, readFileSync } from 'node:fs';

/**
 * The memory a process tree really takes: the sum of PSS (proportional set size, from
 * /proc/PID/smaps_rollup) over `pid` and every descendant, so pages shared between processes
 * (PostgreSQL's shared buffers, shared libraries) count once in all. The embedded PostgreSQL server
 * is a child of the app process, so the app's pid covers node and PostgreSQL together.
 */
export interface TreeMemory {
  pssMb: number;
  rssMb: number;
  processes: number;
}

export function treeMemory(pid: number): TreeMemory {
  const children = childrenByParent();
  let pss = 0;
  let rss = 0;
  let processes = 0;
  const pending = [pid];
  while (pending.length) {
    const current = pending.pop()!;
    const rollup = readRollup(current);
    if (rollup) {
      pss += rollup.pss;
      rss += rollup.rss;
      processes++;
    }
    pending.push(...(children.get(current) ?? []));
  }
  return { pssMb: Math.round(pss / 1024), rssMb: Math.round(rss / 1024), processes };
}

/** kB, as the kernel reports them. */
function readRollup(pid: number): { pss: number; rss: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
    return { pss: field('Pss'), rss: field('Rss') };
  } catch {
    return undefined; // ended meanwhile, or not ours to read
  }
}

export function childrenByParent(): Map<number, number[]> {
  const map = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (name) state ppid ...": the name may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = map.get(ppid) ?? [];
      list.push(Number(entry));
      map.set(ppid, list);
    } catch {
      // ended meanwhile
    }
  }
  return map;
}

/**
 * The highest tree PSS (treeMemory) seen since the last `reset`, read every `everyMs`: what a phase left at its end
 * says nothing of what it took meanwhile (a parse or a sort that let go of its memory before the phase ended).
 */
export function treePeakSampler(pid: number, everyMs = 250) {
  let peak = 0;
  let peakAll = 0;
  const read = () => {
    const { pssMb } = treeMemory(pid);
    peak = Math.max(peak, pssMb);
    peakAll = Math.max(peakAll, pssMb);
    return pssMb;
  };
  read();
  const timer = setInterval(read, everyMs);
  timer.unref();
  return {
    /** Starts a new phase's peak from what the tree takes now. */
    reset: () => (peak = read()),
    /** MB: the peak since the last reset (read once more now), and the peak of the whole run. */
    peak: () => (read(), { phase: peak, run: peakAll }),
    stop: () => clearInterval(timer),
  };
}
