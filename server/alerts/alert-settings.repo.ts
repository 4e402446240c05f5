import { eq } from 'drizzle-orm';
import type { Executor } from '../platform/db/client';
import { alertSettings } from '../platform/db/schema/index';

export type AlertSettingsRow = typeof alertSettings.$inferSelect;
/** What a save writes: every column but the owner and the time, which the save sets. */
export type AlertSettingsValues = Omit<AlertSettingsRow, 'userId' | 'updatedAt'>;

export async function findAlertSettings(ex: Executor, userId: number): Promise<AlertSettingsRow | undefined> {
  const [row] = await ex.select().from(alertSettings).where(eq(alertSettings.userId, userId));
  return row;
}

/**
 * The saved row, locked to the end of the transaction, created with the column defaults on the
 * first save: two saves at once apply one after the other instead of each undoing the other's fields.
 */
export async function lockAlertSettings(ex: Executor, userId: number): Promise<AlertSettingsRow> {
  await ex.insert(alertSettings).values({ userId }).onConflictDoNothing();
  const [row] = await ex.select().from(alertSettings).where(eq(alertSettings.userId, userId)).for('update');
  return row;
}

export async function saveAlertSettings(
  ex: Executor,
  userId: number,
  values: AlertSettingsValues,
): Promise<AlertSettingsRow> {
  const [row] = await ex
    .update(alertSettings)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(alertSettings.userId, userId))
    .returning();
  return row;
}

/** The SMS number's verification state (a code texted, a try counted, the number proven); not a settings save. */
export async function saveSmsVerification(
  ex: Executor,
  userId: number,
  values: Partial<Pick<AlertSettingsRow, 'smsVerifiedAt' | 'smsCodeHash' | 'smsCodeExpiresAt' | 'smsCodeTries'>>,
): Promise<void> {
  await ex.update(alertSettings).set(values).where(eq(alertSettings.userId, userId));
}
