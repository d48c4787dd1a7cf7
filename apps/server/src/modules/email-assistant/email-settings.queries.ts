import type { ChatVisibility } from '@werkwissen/shared';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { chatDivisions, chats, divisions, emailConversations, emailSettings } from '../../db/schema/index.ts';

/** An e-mail setting as stored. */
export type EmailSettingRow = typeof emailSettings.$inferSelect;

/** A setting with the name of the division it answers from. */
export interface SettingWithDivision {
  row: EmailSettingRow;
  divisionName: string;
}

/** The e-mail settings passing an access fragment, oldest first, with their divisions' names. */
export async function settingsAmong(db: DbOrTx, among: SQL): Promise<SettingWithDivision[]> {
  return db
    .select({ row: emailSettings, divisionName: divisions.name })
    .from(emailSettings)
    .innerJoin(divisions, eq(divisions.id, emailSettings.divisionId))
    .where(among)
    .orderBy(emailSettings.createdAt, emailSettings.id);
}

/** The name of a division passing an access fragment, or null. */
export async function divisionNameAmong(db: DbOrTx, divisionId: string, among: SQL): Promise<string | null> {
  const [row] = await db
    .select({ name: divisions.name })
    .from(divisions)
    .where(and(eq(divisions.id, divisionId), among));
  return row?.name ?? null;
}

/** A setting by its id. */
export async function settingById(db: DbOrTx, settingId: string): Promise<EmailSettingRow | null> {
  const [row] = await db.select().from(emailSettings).where(eq(emailSettings.id, settingId));
  return row ?? null;
}

/** The fields of a setting its form saves (the password sealed). */
export type SettingFields = Pick<
  EmailSettingRow,
  | 'fromEmail'
  | 'allowedEmails'
  | 'divisionId'
  | 'isPrivate'
  | 'smtpHost'
  | 'smtpPort'
  | 'imapHost'
  | 'imapPort'
  | 'smtpEmail'
  | 'userName'
  | 'security'
  | 'authservId'
>;

/** A new setting of an owner; its mailbox is answered from `answerFrom` on (null: from now, the database's clock). */
export async function insertSetting(
  db: DbOrTx,
  setting: SettingFields & {
    companyId: string;
    ownerId: string;
    passwordSealed: string;
    answerFrom: Date | null;
  },
): Promise<EmailSettingRow> {
  const [row] = await db
    .insert(emailSettings)
    .values({ ...setting, answerFrom: setting.answerFrom ?? sql`now()` })
    .returning();
  return row!;
}

/**
 * Saves a setting passing an access fragment (null: none does), its failures forgotten; `password` replaces the
 * sealed one, and `rereadFrom` (a moved mailbox or cut-off) forgets the reader's cursor and answers mail from that
 * time (null: from now).
 */
export async function updateSetting(
  db: DbOrTx,
  settingId: string,
  among: SQL,
  change: SettingFields & { passwordSealed: string | null; rereadFrom: { from: Date | null } | null },
): Promise<EmailSettingRow | null> {
  const { passwordSealed, rereadFrom, ...fields } = change;
  const [row] = await db
    .update(emailSettings)
    .set({
      ...fields,
      ...(passwordSealed ? { passwordSealed } : {}),
      ...(rereadFrom ? { uidValidity: null, lastUid: 0, answerFrom: rereadFrom.from ?? sql`now()` } : {}),
      checkError: null,
      failures: 0,
      retryAt: null,
      updatedAt: new Date(),
    })
    .where(and(eq(emailSettings.id, settingId), among))
    .returning();
  return row ?? null;
}

/** The chats of a setting's conversations follow its private flag and division. */
export async function moveConversationChats(
  db: DbOrTx,
  setting: Pick<EmailSettingRow, 'id' | 'isPrivate' | 'divisionId'>,
): Promise<void> {
  const conversations = db
    .select({ chatId: emailConversations.chatId })
    .from(emailConversations)
    .where(eq(emailConversations.settingId, setting.id));
  const visibility: ChatVisibility = setting.isPrivate ? 'private' : 'public';
  await db.update(chats).set({ visibility, updatedAt: new Date() }).where(inArray(chats.id, conversations));
  await db
    .update(chatDivisions)
    .set({ divisionId: setting.divisionId })
    .where(inArray(chatDivisions.chatId, conversations));
}

/** Deletes a setting passing an access fragment: whether it did. */
export async function deleteSetting(db: DbOrTx, settingId: string, among: SQL): Promise<boolean> {
  const deleted = await db
    .delete(emailSettings)
    .where(and(eq(emailSettings.id, settingId), among))
    .returning({ id: emailSettings.id });
  return deleted.length > 0;
}
