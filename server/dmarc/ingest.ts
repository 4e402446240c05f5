import type { UploadResponse } from '@contracts/dmarc';
import type { Db } from '../platform/db/client';
import { importReport } from './import-report';
import { parseAggregateReport } from './parse-aggregate';
import { unpackUpload } from './unpack';

/**
 * One uploaded file (XML, gzip, zip or an e-mail carrying them) into the user's reports. Runs in the
 * report-intake thread (report-intake.ts). The whole file is unpacked first, so a refused one
 * (decompression bomb, too many parts) throws before anything is stored; then each report is parsed
 * and stored in turn, so only one report's records are held at a time. One transaction for the file:
 * a thread stopped half-way (time or memory limit) leaves nothing of it behind.
 */
export async function ingestFile(db: Db, userId: number, data: Uint8Array, fileName: string): Promise<UploadResponse> {
  const parts = await unpackUpload(data, fileName);
  return db.transaction(async (tx) => {
    const result: UploadResponse = { imported: 0, duplicates: 0, failed: [], reports: [] };
    for (const part of parts) {
      const parsed = part.error === undefined ? parseAggregateReport(part.bytes) : { ok: false as const, error: part.error };
      const file = { fileName: part.fileName, rawSize: part.error === undefined ? part.bytes.length : part.rawSize };
      const outcome = await importReport(tx, userId, parsed, file);
      if (outcome.kind === 'duplicate') result.duplicates++;
      else result.reports.push(outcome.report);
      if (outcome.kind === 'imported') result.imported++;
      if (outcome.kind === 'failed') result.failed.push({ fileName: file.fileName, error: outcome.error });
    }
    return result;
  });
}
