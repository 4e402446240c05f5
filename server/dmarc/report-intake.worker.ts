// A thread of the DMARC report intake (report-intake.ts): unpacking, parsing and storing reports off
// the main event loop. Built as its own entry beside dist/server.js (scripts/build.mjs).
import { platform, setPriority } from 'node:os';
import { serveThreadTask } from '../platform/workers/thread-tasks';
import { ingestUpload } from './ingest';
import { ingestMailedReports } from './mailed-reports';
import { provenSenderDomains } from './report-sender';
import type { IntakeInput, IntakeOutput } from './report-intake';

// Reading reports is background work: when this thread and the event loop that answers HTTP and SMTP want the same
// core, the event loop goes first; with a core to itself the thread runs at full speed (ADR 063). Only on Linux is a
// thread's nice value its own: elsewhere it is the whole process's, the event loop's too.
if (platform() === 'linux') setPriority(10);

serveThreadTask<IntakeInput, IntakeOutput>(async (input, { db, dns }) => {
  if (input.kind === 'upload') return ingestUpload(db, input.userId, input.files, input.form);
  return ingestMailedReports(
    db,
    input.data,
    input.fileName,
    await provenSenderDomains(input.data, input.envelope, dns),
  );
});
