import { DMARC_RECORDS_PER_ACCOUNT } from '@contracts/account';
import type { DmarcReport } from '@contracts/dmarc';
import type { Executor } from '../platform/db/client';
import type { ParseResult } from './aggregate-report';
import { storedRecordCount, storeFailedImport, storeReport, type StoredFile } from './dmarc.repo';

/** What became of one report file for one user. */
export type ImportOutcome =
  | { kind: 'imported'; report: DmarcReport }
  | { kind: 'duplicate' }
  | { kind: 'failed'; report: DmarcReport; error: string };

/**
 * One report file into one user's reports, uploaded or mailed alike: imported, a duplicate, or kept as a
 * failed import with its reason: it did not parse, or it would take the account past
 * DMARC_RECORDS_PER_ACCOUNT. Reports are stored one at a time by the one intake thread, so the record
 * count read here is not raced by another import.
 */
export async function importReport(
  tx: Executor,
  userId: number,
  parsed: ParseResult,
  file: StoredFile,
): Promise<ImportOutcome> {
  const failed = async (error: string): Promise<ImportOutcome> => ({
    kind: 'failed',
    report: await storeFailedImport(tx, userId, { ...file, error }),
    error,
  });
  if (!parsed.ok) return failed(parsed.error);
  const noRoom = await noRoomFor(tx, userId, parsed.report.records.length);
  if (noRoom) return failed(noRoom);
  const report = await storeReport(tx, userId, parsed.report, file);
  return report ? { kind: 'imported', report } : { kind: 'duplicate' };
}

async function noRoomFor(ex: Executor, userId: number, records: number): Promise<string | null> {
  const stored = await storedRecordCount(ex, userId);
  if (stored + records <= DMARC_RECORDS_PER_ACCOUNT) return null;
  const n = (x: number) => x.toLocaleString('en-US');
  return `Your account keeps at most ${n(DMARC_RECORDS_PER_ACCOUNT)} DMARC report records and holds ${n(stored)}; this report has ${n(records)}. Delete old reports to make room, then upload it again.`;
}
