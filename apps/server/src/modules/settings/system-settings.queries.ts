import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { systemSettings } from '../../db/schema/index.ts';

/** The one row of system settings. */
const THE_ROW = eq(systemSettings.id, 1);

/** The stored settings, their row locked (`for update`) until the caller's transaction ends. */
export async function storedValuesForUpdate(tx: DbOrTx): Promise<Record<string, unknown> | undefined> {
  const [row] = await tx
    .select({ values: systemSettings.values })
    .from(systemSettings)
    .where(THE_ROW)
    .for('update');
  return row?.values;
}

export async function saveStoredValues(tx: DbOrTx, values: Record<string, unknown>): Promise<void> {
  await tx.update(systemSettings).set({ values }).where(THE_ROW);
}

/** Marks the settings as changed by `userId` (every process reloads them on its next read), in the caller's transaction. */
export async function bumpSettingsVersion(tx: DbOrTx, userId: string): Promise<void> {
  await tx
    .update(systemSettings)
    .set({ version: sql`${systemSettings.version} + 1`, updatedAt: new Date(), updatedBy: userId })
    .where(THE_ROW);
}
