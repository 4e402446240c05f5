import type { InboxTestResultRow } from '@contracts/inbox-tests';
import { percentOf } from '@contracts/figures';
import { roundTo } from '../../lib/format';

// Pure arithmetic over result rows (part 2, section 4): rates are rounded percentages of seedsUsed.

/**
 * Where one provider's copy landed: inbox if any seed saw it in the inbox, else spam if any saw it in
 * spam, else missing (part 2, section 4). A row whose seeds have not all answered and that has no
 * placement yet is "pending" rather than missing, so a slow mailbox is not reported as a loss.
 */
export type PlacementStatus = 'inbox' | 'spam' | 'missing' | 'pending';

export function providerStatus(
  row: Pick<InboxTestResultRow, 'inboxCount' | 'spamCount' | 'pendingCount'>,
): PlacementStatus {
  if (row.inboxCount > 0) return 'inbox';
  if (row.spamCount > 0) return 'spam';
  if (row.pendingCount > 0) return 'pending';
  return 'missing';
}

export interface PlacementTotals {
  seedsUsed: number;
  inboxCount: number;
  spamCount: number;
  missingCount: number;
  pendingCount: number;
}

/** Whole percentages of seedsUsed; null when no seed was used (nothing to divide by). */
export interface PlacementRates {
  inbox: number | null;
  spam: number | null;
  missing: number | null;
}

export interface BreakdownRow extends PlacementTotals {
  name: string;
  /** Distinct providers in the group. */
  providers: number;
  rates: PlacementRates;
}

export type BreakdownKey = 'region' | 'country' | 'mailboxSystem';

const ZERO: PlacementTotals = { seedsUsed: 0, inboxCount: 0, spamCount: 0, missingCount: 0, pendingCount: 0 };

export function sumRows(rows: readonly InboxTestResultRow[]): PlacementTotals {
  return rows.reduce<PlacementTotals>(
    (sum, row) => ({
      seedsUsed: sum.seedsUsed + row.seedsUsed,
      inboxCount: sum.inboxCount + row.inboxCount,
      spamCount: sum.spamCount + row.spamCount,
      missingCount: sum.missingCount + row.missingCount,
      pendingCount: sum.pendingCount + row.pendingCount,
    }),
    ZERO,
  );
}

function roundedPercent(part: number, total: number): number | null {
  const value = percentOf(part, total);
  return value === null ? null : roundTo(value, 0);
}

export function placementRates(totals: PlacementTotals): PlacementRates {
  return {
    inbox: roundedPercent(totals.inboxCount, totals.seedsUsed),
    spam: roundedPercent(totals.spamCount, totals.seedsUsed),
    missing: roundedPercent(totals.missingCount, totals.seedsUsed),
  };
}

/** Rows grouped by region, country or mailbox system; the biggest groups (most seeds) first. */
export function breakdownBy(rows: readonly InboxTestResultRow[], key: BreakdownKey): BreakdownRow[] {
  const groups = new Map<string, InboxTestResultRow[]>();
  for (const row of rows) {
    const name = row[key].trim() || 'Unknown';
    groups.set(name, [...(groups.get(name) ?? []), row]);
  }
  return [...groups.entries()]
    .map(([name, members]) => {
      const totals = sumRows(members);
      return {
        name,
        ...totals,
        providers: new Set(members.map((row) => row.provider)).size,
        rates: placementRates(totals),
      };
    })
    .sort((a, b) => b.seedsUsed - a.seedsUsed || a.name.localeCompare(b.name));
}

export interface ResultsSummary {
  /** Rows of real seed mailboxes. */
  seedRows: InboxTestResultRow[];
  /**
   * InboxPulse's own inbound analyser, the one row of a test run without a seed network: it classes
   * the message inbox or spam by its analysis score (ADR 012), it is not a mailbox provider.
   */
  analyserRows: InboxTestResultRow[];
  /** Only the analyser answered: region, country and mailbox system would describe InboxPulse itself. */
  analyserOnly: boolean;
  /** Over every row (part 2, section 4: rounded percentages of seedsUsed). */
  totals: PlacementTotals;
  rates: PlacementRates;
  /** Over the seed rows only. */
  byRegion: BreakdownRow[];
  byCountry: BreakdownRow[];
  byMailboxSystem: BreakdownRow[];
}

export function summarizeResults(rows: readonly InboxTestResultRow[]): ResultsSummary {
  const seedRows = rows.filter((row) => !row.isAnalyser);
  const analyserRows = rows.filter((row) => row.isAnalyser);
  const totals = sumRows(rows);
  return {
    seedRows,
    analyserRows,
    analyserOnly: seedRows.length === 0 && analyserRows.length > 0,
    totals,
    rates: placementRates(totals),
    byRegion: breakdownBy(seedRows, 'region'),
    byCountry: breakdownBy(seedRows, 'country'),
    byMailboxSystem: breakdownBy(seedRows, 'mailboxSystem'),
  };
}
