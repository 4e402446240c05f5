import type { UploadResponse } from '@contracts/dmarc';
import type { Db } from '../platform/db/client';
import { storeFailedImport, storeReport } from './dmarc.repo';
import type { ParseResult } from './aggregate-report';
import { parseAggregateReport } from './parse-aggregate';
import { unpackUpload } from './unpack';

/** One report file found in an upload or a mail, parsed or with the reason it did not parse. */
export interface ReadReport {
  fileName: string;
  rawSize: number;
  parsed: ParseResult;
}

/**
 * A file (XML, gzip, zip or an e-mail carrying them) -> its parsed reports. The whole file is
 * unpacked first, so a refused one (decompression bomb, too many parts) throws before anything is
 * stored.
 */
export async function readReports(data: Uint8Array, fileName: string): Promise<ReadReport[]> {
  const parts = await unpackUpload(data, fileName);
  return parts.map((part) =>
    part.error === undefined
      ? { fileName: part.fileName, rawSize: part.bytes.length, parsed: parseAggregateReport(part.bytes) }
      : { fileName: part.fileName, rawSize: part.rawSize, parsed: { ok: false, error: part.error } },
  );
}

/** Each report stands alone: imported, a duplicate, or kept as a failed import with its error. */
export async function storeReports(db: Db, userId: number, reports: ReadReport[]): Promise<UploadResponse> {
  const result: UploadResponse = { imported: 0, duplicates: 0, failed: [], reports: [] };
  for (const { fileName, rawSize, parsed } of reports) {
    if (!parsed.ok) {
      result.failed.push({ fileName, error: parsed.error });
      result.reports.push(await storeFailedImport(db, userId, { fileName, rawSize, error: parsed.error }));
      continue;
    }
    const stored = await storeReport(db, userId, parsed.report, { fileName, rawSize });
    if (stored) {
      result.imported++;
      result.reports.push(stored);
    } else {
      result.duplicates++;
    }
  }
  return result;
}

/** One uploaded file into the user's reports. */
export async function ingestFile(db: Db, userId: number, data: Uint8Array, fileName: string): Promise<UploadResponse> {
  return storeReports(db, userId, await readReports(data, fileName));
}
