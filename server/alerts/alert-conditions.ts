import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AlertSeverity, AlertType } from '@contracts/alerts';
import type { Executor } from '../platform/db/client';
import { alerts } from '../platform/db/schema/index';
import { historyEntry } from './alerts.repo';

/** Measured values are compared between evaluations: a number (a rate, a score) or words (which records fail). */
export type ConditionValue = number | string;

/**
 * A condition that holds now, as the alert it keeps open: one per (user, conditionKey) while it lasts
 * (the partial unique index alerts_open_condition_key).
 */
export interface ConditionAlert {
  userId: number;
  /** What condition it is, e.g. "inbox:example.com", "rule:12:example.com". */
  conditionKey: string;
  type: AlertType;
  severity: AlertSeverity;
  title: string;
  message: string;
  domain?: string | null;
  /** Small readable facts; `value` is what was measured, compared with the open alert's to tell a change. */
  metadata: Record<string, unknown> & { value: ConditionValue };
  /** What was measured, for history lines ("Inbox placement for example.com"); the title when absent. */
  measure?: string;
  /** Appended to values in history lines: '%' for rates. */
  unit?: string;
}

/** raised: a new alert; escalated: its severity went up (told again); updated: a new value or a lower severity. */
export type ConditionOutcome = 'raised' | 'escalated' | 'updated' | 'unchanged';

const RANK: Record<AlertSeverity, number> = { info: 0, warning: 1, error: 2, critical: 3 };

type OpenAlert = { id: number; severity: string; metadata: Record<string, unknown> | null };

/** The open alert of a condition, locked to the end of the transaction. */
async function lockOpen(ex: Executor, userId: number, conditionKey: string): Promise<OpenAlert | undefined> {
  const [row] = await ex
    .select({ id: alerts.id, severity: alerts.severity, metadata: alerts.metadata })
    .from(alerts)
    .where(and(eq(alerts.userId, userId), eq(alerts.conditionKey, conditionKey), isNull(alerts.resolvedAt)))
    .for('update');
  return row;
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

function valueWords(value: unknown, unit: string): string {
  if (value === undefined || value === null) return 'unknown';
  return typeof value === 'number' ? `${value}${unit}` : String(value);
}

/** What the alert shows of its condition, written the same when it is raised and each time it is updated. */
const shownFields = (condition: ConditionAlert) => ({
  type: condition.type,
  severity: condition.severity,
  title: condition.title,
  message: condition.message,
  domain: condition.domain ?? null,
  metadata: condition.metadata,
});

/**
 * The one way to keep a condition alert: raises one when none is open for the key (history
 * "raised"); while one is open, rewrites it only when the severity or the measured value changed
 * (history "updated": "Inbox placement for example.com now 61% (was 72%)"). A higher severity is an
 * escalation: notified_at goes back to null so delivery tells it again. Safe beside another writer
 * of the same key: the insert yields to the open alert the unique index keeps, which is then updated.
 */
export async function openOrUpdateCondition(ex: Executor, condition: ConditionAlert): Promise<ConditionOutcome> {
  const { userId, conditionKey } = condition;
  let open = await lockOpen(ex, userId, conditionKey);
  if (!open) {
    const inserted = await ex
      .insert(alerts)
      .values({
        userId,
        conditionKey,
        ...shownFields(condition),
        history: historyEntry('raised', condition.message),
      })
      .onConflictDoNothing({
        target: [alerts.userId, alerts.conditionKey],
        where: sql.raw('condition_key is not null and resolved_at is null'),
      })
      .returning({ id: alerts.id });
    if (inserted.length > 0) return 'raised';
    // Another transaction raised it meanwhile (and has committed): update that one instead.
    open = await lockOpen(ex, userId, conditionKey);
    if (!open) throw new Error(`condition alert ${conditionKey} neither inserted nor found`);
  }
  const before = open.metadata?.value;
  const severityChanged = open.severity !== condition.severity;
  if (!severityChanged && sameValue(before, condition.metadata.value)) return 'unchanged';

  const escalated = RANK[condition.severity] > (RANK[open.severity as AlertSeverity] ?? 0);
  const unit = condition.unit ?? '';
  const parts = [
    `${condition.measure ?? condition.title} now ${valueWords(condition.metadata.value, unit)} (was ${valueWords(before, unit)})`,
  ];
  if (severityChanged)
    parts.push(`${escalated ? 'escalated' : 'lowered'} from ${open.severity} to ${condition.severity}`);
  const line = `${parts.join('; ')}.`;
  await ex
    .update(alerts)
    .set({
      ...shownFields(condition),
      updatedAt: sql`now()`,
      history: sql`${alerts.history} || ${historyEntry('updated', line)}`,
      ...(escalated ? { notifiedAt: null } : {}),
    })
    .where(eq(alerts.id, open.id));
  return escalated ? 'escalated' : 'updated';
}

/** Resolves the condition's open alert, if any, with a "resolved" history line ("Recovered: …"); whether one was open. */
export async function resolveCondition(
  ex: Executor,
  userId: number,
  conditionKey: string,
  message: string,
): Promise<boolean> {
  const line = message.startsWith('Recovered') ? message : `Recovered: ${message}`;
  const rows = await ex
    .update(alerts)
    .set({ resolvedAt: sql`now()`, history: sql`${alerts.history} || ${historyEntry('resolved', line)}` })
    .where(and(eq(alerts.userId, userId), eq(alerts.conditionKey, conditionKey), isNull(alerts.resolvedAt)))
    .returning({ id: alerts.id });
  return rows.length > 0;
}

/** The keys of the user's open condition alerts under these prefixes ("inbox:", "rule:", …). */
export async function openConditionKeys(ex: Executor, userId: number, prefixes: readonly string[]): Promise<string[]> {
  if (prefixes.length === 0) return [];
  const rows = await ex
    .select({ key: alerts.conditionKey })
    .from(alerts)
    .where(
      and(
        eq(alerts.userId, userId),
        isNull(alerts.resolvedAt),
        sql`(${sql.join(
          prefixes.map((p) => sql`starts_with(${alerts.conditionKey}, ${p})`),
          sql` or `,
        )})`,
      ),
    );
  return rows.map((r) => r.key!).filter(Boolean);
}
