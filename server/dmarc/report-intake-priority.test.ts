import { readdirSync, readFileSync } from 'node:fs';
import { platform } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startThreadTasks, type ThreadTasks } from '../platform/workers/thread-tasks';
import { createTestApp, signUp, type TestApp } from '../test/test-app';
import { importUpload } from './report-intake';
import { reportXml } from './report-xml.test-support';

/*
 * The report-intake thread reads at a lower priority than the event loop (issue 39: while it stored a 120,000-record
 * upload, the API's answers waited for the core).
 */

let t: TestApp;
let threads: ThreadTasks;
beforeAll(async () => {
  t = await createTestApp();
  threads = startThreadTasks({
    connection: t.database.connection,
    dns: { servers: ['127.0.0.1:1'], timeoutMs: 1000, tries: 1, maxCacheSeconds: 0 },
  });
});
afterAll(async () => {
  await threads?.close();
  await t?.close();
});

/** The nice value of each thread of this process, by thread id (field 19 of /proc/self/task/TID/stat). */
function niceByThread(): Map<number, number> {
  const nice = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    nice.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return nice;
}

describe.runIf(platform() === 'linux')('the report-intake thread', () => {
  it('runs at a lower priority (a higher nice value) than the event loop, which keeps its own', async () => {
    const before = niceByThread();
    const { user } = await signUp(t.app);
    const xml = reportXml({
      orgName: 'google.com',
      reportId: 'priority-1',
      domain: 'example.com',
      begin: new Date('2026-11-20T00:00:00Z'),
      records: [{ ip: '203.0.113.5', count: 3, dkim: 'pass', spf: 'pass' }],
    });
    const answer = await importUpload(
      { threads, jobs: t.jobs },
      user.id,
      [{ fileName: 'r.xml', data: Buffer.from(xml) }],
      false,
    );
    expect(answer).toMatchObject({ imported: 1 });

    const after = niceByThread();
    const eventLoop = after.get(process.pid)!;
    expect(eventLoop).toBe(before.get(process.pid));
    const newThreads = [...after].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice);
    expect(newThreads.some((nice) => nice > eventLoop)).toBe(true);
  });
});
