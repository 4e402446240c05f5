import { and, desc, eq, gte, inArray, lte } from 'drizzle-orm';
import { ROWS_MAX, type Range } from '../insights/timeline-figures';
import type { Executor } from '../platform/db/client';
import { domainNotes, dropAlerts, integrationErrors } from '../platform/db/schema/index';

// The timeline's own tables: integration errors, the user's notes and the drops already alerted. The evidence from
// other capabilities' tables is read in server/insights/timeline-figures.ts.

export type IntegrationErrorRow = typeof integrationErrors.$inferSelect;

export async function listIntegrationErrors(
  ex: Executor,
  userId: number,
  range: Range,
): Promise<IntegrationErrorRow[]> {
  return ex
    .select()
    .from(integrationErrors)
    .where(
      and(
        eq(integrationErrors.userId, userId),
        gte(integrationErrors.at, range.since),
        lte(integrationErrors.at, range.until),
      ),
    )
    .orderBy(desc(integrationErrors.at), desc(integrationErrors.id))
    .limit(ROWS_MAX);
}

export type NoteRow = typeof domainNotes.$inferSelect;

export async function listNotes(ex: Executor, userId: number, domainId: number, range: Range): Promise<NoteRow[]> {
  return ex
    .select()
    .from(domainNotes)
    .where(
      and(
        eq(domainNotes.userId, userId),
        eq(domainNotes.domainId, domainId),
        gte(domainNotes.at, range.since),
        lte(domainNotes.at, range.until),
      ),
    )
    .orderBy(desc(domainNotes.at), desc(domainNotes.id))
    .limit(ROWS_MAX);
}

export async function insertNote(
  ex: Executor,
  note: { userId: number; domainId: number; at: Date; text: string },
): Promise<NoteRow> {
  const [row] = await ex.insert(domainNotes).values(note).returning();
  return row!;
}

/** Whether a note of the user's domain was there to delete. */
export async function deleteNote(ex: Executor, userId: number, domainId: number, noteId: number): Promise<boolean> {
  const rows = await ex
    .delete(domainNotes)
    .where(and(eq(domainNotes.id, noteId), eq(domainNotes.userId, userId), eq(domainNotes.domainId, domainId)))
    .returning({ id: domainNotes.id });
  return rows.length > 0;
}

/** Which of these drops of the domain were alerted already. */
export async function alertedDrops(ex: Executor, domainId: number, dropIds: string[]): Promise<Set<string>> {
  if (dropIds.length === 0) return new Set();
  const rows = await ex
    .select({ dropId: dropAlerts.dropId })
    .from(dropAlerts)
    .where(and(eq(dropAlerts.domainId, domainId), inArray(dropAlerts.dropId, dropIds)));
  return new Set(rows.map((r) => r.dropId));
}

/** Marks a drop alerted; false when it already was (its alert is never raised twice). */
export async function claimDropAlert(ex: Executor, userId: number, domainId: number, dropId: string): Promise<boolean> {
  const rows = await ex
    .insert(dropAlerts)
    .values({ userId, domainId, dropId })
    .onConflictDoNothing()
    .returning({ dropId: dropAlerts.dropId });
  return rows.length > 0;
}
