import { DMARC_RECORDS_PER_ACCOUNT } from '@contracts/account';
import type { Executor } from '../platform/db/client';
import { storedRecordCount } from './dmarc.repo';

/**
 * Why a report of `records` records does not fit in the user's account (DMARC_RECORDS_PER_ACCOUNT),
 * or null when it does. Reports are stored one at a time by the one intake thread, so the count read
 * here is not raced by another import.
 */
export async function noRoomFor(ex: Executor, userId: number, records: number): Promise<string | null> {
  const stored = await storedRecordCount(ex, userId);
  if (stored + records <= DMARC_RECORDS_PER_ACCOUNT) return null;
  const n = (x: number) => x.toLocaleString('en-US');
  return `Your account keeps at most ${n(DMARC_RECORDS_PER_ACCOUNT)} DMARC report records and holds ${n(stored)}; this report has ${n(records)}. Delete old reports to make room, then upload it again.`;
}
