import type { UploadResponse } from '../../contracts/dmarc';
import type { Db } from '../db/client';
import { storeFailedImport, storeReport } from './dmarc.store';
import { parseAggregateReport } from './parse-aggregate';
import { unpackUpload } from './unpack';

/**
 * One uploaded file (XML, gzip, zip or an e-mail carrying them) into the user's reports. The
 * whole file is unpacked before anything is stored, so a refused upload (decompression bomb,
 * too many parts) stores nothing. Each report then stands alone: imported, a duplicate, or kept
 * as a failed import with its error. Meant for any way reports arrive (upload, mail, IMAP).
 */
export async function ingestFile(db: Db, userId: number, data: Uint8Array, fileName: string): Promise<UploadResponse> {
  const parts = await unpackUpload(data, fileName);
  const result: UploadResponse = { imported: 0, duplicates: 0, failed: [], reports: [] };
  for (const part of parts) {
    const rawSize = part.error === undefined ? part.bytes.length : part.rawSize;
    const parsed = part.error === undefined ? parseAggregateReport(part.bytes) : { ok: false as const, error: part.error };
    if (!parsed.ok) {
      result.failed.push({ fileName: part.fileName, error: parsed.error });
      result.reports.push(await storeFailedImport(db, userId, { fileName: part.fileName, rawSize, error: parsed.error }));
      continue;
    }
    const stored = await storeReport(db, userId, parsed.report, { fileName: part.fileName, rawSize });
    if (stored) {
      result.imported++;
      result.reports.push(stored);
    } else {
      result.duplicates++;
    }
  }
  return result;
}
