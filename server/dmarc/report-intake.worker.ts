// A thread of the DMARC report intake (report-intake.ts): unpacking, parsing and storing reports off
// the main event loop. Built as its own entry beside dist/server.js (scripts/build.mjs).
import { serveThreadTask } from '../platform/workers/thread-tasks';
import { ingestUpload } from './ingest';
import { ingestMailedReports } from './mailed-reports';
import { provenSenderDomains } from './report-sender';
import type { IntakeInput, IntakeOutput } from './report-intake';

serveThreadTask<IntakeInput, IntakeOutput>(async (input, { db, dns }) => {
  if (input.kind === 'upload') return ingestUpload(db, input.userId, input.files, input.form);
  return ingestMailedReports(
    db,
    input.data,
    input.fileName,
    await provenSenderDomains(input.data, input.envelope, dns),
  );
});
