import type { UploadResponse } from '@contracts/dmarc';
import { queueAlertEvaluation } from '../alerts/alerts.service';
import type { AppContext } from '../platform/context';
import { parseIp, sendingNetwork } from '../platform/dns/ip-address';
import { AppError } from '../platform/errors';
import { TaskStoppedError } from '../platform/workers/thread-pool';
import { defineThreadTask } from '../platform/workers/thread-tasks';
import type { SmtpEnvelope } from '../engine/message-analysis/checks/authentication';
import type { MailedReportsOutcome } from './mailed-reports';
import type { UploadedFile } from './unpack';

/*
 * Reading DMARC reports (decompressing, parsing, storing their records) runs in a thread of its own,
 * never on the event loop that answers HTTP and SMTP: a 455 KB gzip can hold 130,000 records. The
 * thread is bounded: READ_TIME_LIMIT_MS per file and READ_HEAP_MB of heap. A report of any size is read a
 * piece at a time and stored a batch of records at a time (import-report.ts), so the heap holds a batch, not
 * the report. One thread: files wait their turn rather than share a core.
 */

export type IntakeInput =
  /** form: the files came as the file parts of a multipart/form-data body (ingest.ts). */
  | { kind: 'upload'; userId: number; files: UploadedFile[]; form: boolean }
  /** envelope: what the SMTP session saw; null for a mail fetched from the report mailbox. */
  | { kind: 'mail'; data: Uint8Array; fileName: string; envelope: SmtpEnvelope | null };
export type IntakeOutput = UploadResponse | MailedReportsOutcome;

/**
 * A real report takes well under a second per thousand records; a million-record report (the most a 10 MB upload
 * or mail holds in practice) took over 60 s on a busy two-core machine, so the limit leaves it room (ADR 017).
 */
export const READ_TIME_LIMIT_MS = 240_000;
/** At most 50 MB of a file held decompressed (outside the heap: unpack.ts), a piece of its text and a batch of records fit with room to spare. */
export const READ_HEAP_MB = 384;

const workerModule = new URL(
  import.meta.url.endsWith('.ts') ? './report-intake.worker.ts' : './report-intake.worker.js',
  import.meta.url,
);

export const reportIntakeTask = defineThreadTask<IntakeInput, IntakeOutput>({
  name: 'DMARC report reading',
  module: workerModule,
  timeoutMs: READ_TIME_LIMIT_MS,
  heapMb: READ_HEAP_MB,
});

export const STOPPED_READING = `Reading the file was stopped: it took longer than ${READ_TIME_LIMIT_MS / 1000} s or more memory than a file of reports may use. Nothing from it was stored.`;

/** An upload's files into the user's reports (ingest.ts, in the thread). */
export async function importUpload(
  ctx: Pick<AppContext, 'threads' | 'jobs'>,
  userId: number,
  files: UploadedFile[],
  form: boolean,
): Promise<UploadResponse> {
  try {
    const response = (await ctx.threads.run(
      reportIntakeTask,
      { kind: 'upload', userId, files, form },
      { lane: `user:${userId}` },
    )) as UploadResponse;
    // Stored and committed: the DMARC failure conditions are computed from them.
    if (response.imported > 0) await queueAlertEvaluation(ctx.jobs, userId);
    return response;
  } catch (error) {
    if (error instanceof TaskStoppedError) throw new AppError('payload_too_large', STOPPED_READING);
    throw error;
  }
}

/**
 * Mail waits for the thread in the lane of the network that sent it (its /24 or /64): a sender cannot forge the peer of
 * a TCP connection, as it can a reporter's name, nor take more turns by spreading over the addresses of one network.
 * Mail fetched from the report mailbox has no peer: it shares one lane.
 */
function mailLane(envelope: SmtpEnvelope | null): string {
  if (!envelope) return 'mailbox';
  return parseIp(envelope.ip) ? sendingNetwork(envelope.ip) : envelope.ip;
}

/** The reports a mail carries, to the owners of their domains (mailed-reports.ts, in the thread). */
export async function importMailedReports(
  ctx: Pick<AppContext, 'threads' | 'jobs'>,
  raw: Uint8Array,
  fileName: string,
  envelope: SmtpEnvelope | null,
): Promise<MailedReportsOutcome> {
  try {
    const outcome = (await ctx.threads.run(
      reportIntakeTask,
      { kind: 'mail', data: raw, fileName, envelope },
      { lane: mailLane(envelope) },
    )) as MailedReportsOutcome;
    for (const userId of outcome.importedFor ?? []) await queueAlertEvaluation(ctx.jobs, userId);
    return outcome;
  } catch (error) {
    // The same mail would be stopped again: failed for good, not retried.
    if (error instanceof TaskStoppedError) return { status: 'failed', result: STOPPED_READING, reportDomains: [] };
    throw error;
  }
}
