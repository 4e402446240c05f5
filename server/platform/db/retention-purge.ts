import { getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/** The moment before which a plan keeps nothing, as a timestamp and as its UTC day (for date columns). */
export interface RetentionCutoff {
  at: string;
  day: string;
}

/**
 * One table's share of data retention (ADR 032), declared by the capability that owns the table: which of a
 * user's rows are history past the cutoff. What it leaves out (the current state, a pending delivery) stays.
 */
export interface RetentionPurge {
  /** A table whose rows carry user_id. */
  table: PgTable;
  /** Rows deleted per statement: each statement is its own short transaction. */
  batch: number;
  /** How a batch is picked: by primary key id, or by physical row address for a table without an id column. */
  rowKey?: 'id' | 'ctid';
  /** The condition on the user's rows that makes one history past the cutoff. */
  older(cutoff: RetentionCutoff): SQL;
}

export type PurgeCounts = Record<string, number>;

function batchStatement(purge: RetentionPurge, userId: number, cutoff: RetentionCutoff): SQL {
  const { table, batch } = purge;
  const picked = sql`SELECT ${sql.raw(purge.rowKey ?? 'id')} FROM ${table} WHERE user_id = ${userId} AND ${purge.older(cutoff)} LIMIT ${batch}`;
  return purge.rowKey === 'ctid'
    ? sql`DELETE FROM ${table} WHERE ctid = ANY(ARRAY(${picked}))`
    : sql`DELETE FROM ${table} WHERE id IN (${picked})`;
}

/** Deletes the user's rows older than `cutoff`, purge by purge, in short batches. How many rows per table. */
export async function runRetentionPurges(
  db: Db,
  purges: readonly RetentionPurge[],
  userId: number,
  cutoff: Date,
): Promise<PurgeCounts> {
  const at = cutoff.toISOString();
  const bounds = { at, day: at.slice(0, 10) };
  const counts: PurgeCounts = {};
  for (const purge of purges) {
    let total = 0;
    for (;;) {
      const deleted = (await db.execute(batchStatement(purge, userId, bounds))).rowCount ?? 0;
      total += deleted;
      if (deleted < purge.batch) break;
    }
    if (total > 0) counts[getTableName(purge.table)] = total;
  }
  return counts;
}
