import { sql } from 'drizzle-orm';
import type { Db } from '../../../server/platform/db/client';

/**
 * The row count of every table of the app's schema that has rows (exact, not the planner's estimate), and the
 * database's size on disk. ANALYZE first: the planner has statistics, as autovacuum leaves a database in use.
 */
export async function databaseSize(db: Db): Promise<{ rows: Record<string, number>; dbBytes: number }> {
  await db.execute(sql`ANALYZE`);
  const tables = await db.execute<{ name: string }>(
    sql`select relname as name from pg_stat_user_tables where schemaname = 'public' order by relname`,
  );
  const rows: Record<string, number> = {};
  for (const { name } of tables.rows) {
    const [{ n }] = (await db.execute<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(name)}`)).rows;
    if (n > 0) rows[name] = n;
  }
  const [{ bytes }] = (
    await db.execute<{ bytes: string }>(sql`select pg_database_size(current_database())::text as bytes`)
  ).rows;
  return { rows, dbBytes: Number(bytes) };
}
