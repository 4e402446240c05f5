import type { UploadResponse, UploadResult } from '@contracts/dmarc';
import type { Db, Executor } from '../platform/db/client';
import { importReport } from './import-report';
import { unpackFiles, type UnpackedPart, type UploadedFile } from './unpack';

/**
 * The files of one upload (one raw body, or the file parts of a form; each XML, gzip, zip or an
 * e-mail carrying them) into the user's reports. Runs in the report-intake thread (report-intake.ts).
 * Every file is unpacked first, so a refused one (decompression bomb, too many parts) throws before
 * anything is stored; then each report is read and stored in turn, a batch of records at a time
 * (import-report.ts). One transaction for the upload: a thread stopped half-way (time or memory
 * limit) leaves nothing of it behind.
 *
 * `form`: the answer adds the files' results up and lists each file's own (UploadResponse.files).
 */
export async function ingestUpload(
  db: Db,
  userId: number,
  files: UploadedFile[],
  form: boolean,
): Promise<UploadResponse> {
  const unpacked = await unpackFiles(files);
  return db.transaction(async (tx) => {
    const results: UploadResult[] = [];
    for (const parts of unpacked) results.push(await ingestParts(tx, userId, parts));
    if (!form) return results[0];
    return {
      ...addUp(results),
      files: results.map((result, index) => ({ fileName: files[index].fileName, ...result })),
    };
  });
}

async function ingestParts(tx: Executor, userId: number, parts: UnpackedPart[]): Promise<UploadResult> {
  const result: UploadResult = { imported: 0, duplicates: 0, failed: [], reports: [] };
  for (const part of parts) {
    const file = {
      fileName: part.fileName,
      rawSize: part.error === undefined ? part.bytes.length : part.rawSize,
      // A failure report holds another's message: what it says is kept, not the message.
      received: part.error !== undefined && part.failureReport ? undefined : part.received,
    };
    const outcome = await importReport(tx, userId, part, file);
    if (outcome.kind === 'duplicate') result.duplicates++;
    else result.reports.push(outcome.report);
    if (outcome.kind === 'imported') result.imported++;
    if (outcome.kind === 'failed') result.failed.push({ fileName: file.fileName, error: outcome.error });
    const warnings = outcome.kind === 'imported' ? (outcome.report.warnings ?? []) : [];
    for (const warning of warnings) (result.warnings ??= []).push({ fileName: part.fileName, warning });
  }
  return result;
}

function addUp(results: UploadResult[]): UploadResult {
  const warnings = results.flatMap((r) => r.warnings ?? []);
  return {
    imported: results.reduce((sum, r) => sum + r.imported, 0),
    duplicates: results.reduce((sum, r) => sum + r.duplicates, 0),
    failed: results.flatMap((r) => r.failed),
    reports: results.flatMap((r) => r.reports),
    ...(warnings.length > 0 && { warnings }),
  };
}
