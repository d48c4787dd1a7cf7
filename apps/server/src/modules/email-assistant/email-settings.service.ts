import type {
  EmailConnectionTest,
  EmailConnectionTestBody,
  EmailSetting,
  EmailSettingCreate,
  EmailSettingUpdate,
  Language,
} from '@werkwissen/shared';
import { and, eq, sql } from 'drizzle-orm';
import { divisionAccess } from '../../access/division.access.ts';
import { emailSettingAccess } from '../../access/email-setting.access.ts';
import { homeCompany } from '../../access/resource-access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { notFound } from '../../core/app-error.ts';
import type { DbOrTx } from '../../db/database.ts';
import { chats, divisions, emailSettings } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';
import { SecretBox } from '../ai-providers/secret-box.ts';
import { takeLimitSlot } from '../billing/limit-slot.ts';
import { type MailFailure, testAccount } from './mail-connection.ts';

type Row = typeof emailSettings.$inferSelect;

const failureText = (lang: Language, failure: MailFailure | string) =>
  translate(lang, `emailSettings.failure.${failure}`);

function present(row: Row, divisionName: string, lang: Language): EmailSetting {
  return {
    id: row.id,
    fromEmail: row.fromEmail,
    allowedEmails: row.allowedEmails,
    divisionId: row.divisionId,
    divisionName,
    isPrivate: row.isPrivate,
    smtpHost: row.smtpHost,
    smtpPort: row.smtpPort,
    imapHost: row.imapHost,
    imapPort: row.imapPort,
    smtpEmail: row.smtpEmail,
    userName: row.userName,
    security: row.security,
    authservId: row.authservId,
    answerFrom: row.answerFrom.toISOString(),
    hasPassword: row.passwordSealed !== '',
    mailbox: {
      checkedAt: row.checkedAt?.toISOString() ?? null,
      error: row.checkError ? failureText(lang, row.checkError) : null,
    },
    createdAt: row.createdAt.toISOString(),
  };
}

/** The e-mail settings the actor may read (their EmailSetting rules in SQL, within their company). */
export async function listEmailSettings(ctx: AppContext, actor: Actor): Promise<EmailSetting[]> {
  const rows = await ctx.db
    .select({ row: emailSettings, divisionName: divisions.name })
    .from(emailSettings)
    .innerJoin(divisions, eq(divisions.id, emailSettings.divisionId))
    .where(emailSettingAccess.where(actor, 'read'))
    .orderBy(emailSettings.createdAt, emailSettings.id);
  return rows.map((r) => present(r.row, r.divisionName, actor.language));
}

/** The division a setting answers from: one the actor may read, of their company (else 404). */
async function readableDivision(db: DbOrTx, actor: Actor, divisionId: string): Promise<string> {
  const [row] = await db
    .select({ name: divisions.name })
    .from(divisions)
    .where(and(eq(divisions.id, divisionId), divisionAccess.where(actor, 'read')));
  if (!row) throw notFound();
  return row.name;
}

const normalized = (body: EmailSettingUpdate) => ({
  fromEmail: body.fromEmail,
  allowedEmails: [...new Set(body.allowedEmails)],
  divisionId: body.divisionId,
  isPrivate: body.isPrivate,
  smtpHost: body.smtpHost.toLowerCase(),
  smtpPort: body.smtpPort,
  imapHost: body.imapHost.toLowerCase(),
  imapPort: body.imapPort,
  smtpEmail: body.smtpEmail,
  userName: body.userName,
  security: body.security,
  authservId: body.authservId,
});

/**
 * Adds an e-mail setting within the plan's limits: each one is an e-mail setting and an SMTP setting of the
 * company (PLAN_LIMIT_REACHED; both slots taken in the insert's transaction). The password is stored sealed; a
 * worker takes the mailbox within seconds and answers what arrives from now (or from the chosen cut-off) on.
 */
export async function createEmailSetting(
  ctx: AppContext,
  actor: Actor,
  body: EmailSettingCreate,
): Promise<EmailSetting> {
  const companyId = homeCompany(actor);
  emailSettingAccess.assertCan(actor, 'create', { companyId, divisionId: body.divisionId });
  const box = new SecretBox(ctx.config.secrets.encryptionKey);
  const { row, divisionName } = await ctx.db.transaction(async (tx) => {
    const divisionName = await readableDivision(tx, actor, body.divisionId);
    for (const limit of ['emailSettings', 'smtpSettings'] as const) {
      await takeLimitSlot(ctx, tx, { companyId, limit, language: actor.language });
    }
    const [row] = await tx
      .insert(emailSettings)
      .values({
        companyId,
        ownerId: actor.userId,
        ...normalized(body),
        passwordSealed: box.seal(body.password),
        answerFrom: body.answerFrom ? new Date(body.answerFrom) : sql`now()`,
      })
      .returning();
    return { row: row!, divisionName };
  });
  return present(row, divisionName, actor.language);
}

/**
 * Changes an e-mail setting; an empty password keeps the saved one. The conversations' chats follow the private
 * flag and the division. A moved mailbox (another server or user) is read from the time of the save, a changed
 * cut-off from it (mails already seen are known by Message-ID); a failing mailbox is tried again at once. The worker
 * holding the mailbox notices the save and reads it again with the new details.
 */
export async function updateEmailSetting(
  ctx: AppContext,
  actor: Actor,
  settingId: string,
  body: EmailSettingUpdate,
): Promise<EmailSetting> {
  await emailSettingAccess.authorize(ctx.db, actor, 'update', settingId);
  const box = new SecretBox(ctx.config.secrets.encryptionKey);
  const { row, divisionName } = await ctx.db.transaction(async (tx) => {
    const divisionName = await readableDivision(tx, actor, body.divisionId);
    const values = normalized(body);
    const [before] = await tx.select().from(emailSettings).where(eq(emailSettings.id, settingId));
    if (!before) throw notFound();
    const mailboxMoved = before.imapHost !== values.imapHost || before.userName !== values.userName;
    const cutOff = body.answerFrom ? new Date(body.answerFrom) : null;
    const cutOffMoved = cutOff !== null && cutOff.getTime() !== before.answerFrom.getTime();
    const [row] = await tx
      .update(emailSettings)
      .set({
        ...values,
        ...(body.password ? { passwordSealed: box.seal(body.password) } : {}),
        ...(mailboxMoved || cutOffMoved
          ? { uidValidity: null, lastUid: 0, answerFrom: cutOff ?? sql`now()` }
          : {}),
        checkError: null,
        failures: 0,
        retryAt: null,
        updatedAt: new Date(),
      })
      .where(and(eq(emailSettings.id, settingId), emailSettingAccess.where(actor, 'update')))
      .returning();
    if (!row) throw notFound();
    const conversations = sql`(select chat_id from email_conversations where setting_id = ${row.id})`;
    await tx
      .update(chats)
      .set({ visibility: row.isPrivate ? 'private' : 'public', updatedAt: new Date() })
      .where(sql`${chats.id} in ${conversations}`);
    await tx.execute(sql`update chat_divisions set division_id = ${row.divisionId}
      where chat_id in ${conversations}`);
    return { row, divisionName };
  });
  return present(row, divisionName, actor.language);
}

/** Deletes an e-mail setting; its mailbox is no longer read (the conversations' chats stay). */
export async function deleteEmailSetting(ctx: AppContext, actor: Actor, settingId: string): Promise<void> {
  await emailSettingAccess.authorize(ctx.db, actor, 'delete', settingId);
  const deleted = await ctx.db
    .delete(emailSettings)
    .where(and(eq(emailSettings.id, settingId), emailSettingAccess.where(actor, 'delete')))
    .returning({ id: emailSettings.id });
  if (deleted.length === 0) throw notFound();
}

/**
 * "Test connection": signs in to the SMTP and the IMAP server with the form's details and tells which failed and
 * why. An empty password of a saved setting is its saved one, and only for the hosts it was saved for.
 */
export async function testEmailConnection(
  ctx: AppContext,
  actor: Actor,
  body: EmailConnectionTestBody,
): Promise<EmailConnectionTest> {
  homeCompany(actor);
  let password = body.password ?? '';
  if (!password && body.settingId) {
    await emailSettingAccess.authorize(ctx.db, actor, 'update', body.settingId);
    const [saved] = await ctx.db.select().from(emailSettings).where(eq(emailSettings.id, body.settingId));
    const sameHosts =
      saved &&
      saved.smtpHost === body.smtpHost.toLowerCase() &&
      saved.imapHost === body.imapHost.toLowerCase();
    if (saved && sameHosts)
      password = new SecretBox(ctx.config.secrets.encryptionKey).open(saved.passwordSealed);
  }
  const result = await testAccount(ctx.outbound.policy, { ...body, password });
  const lang = actor.language;
  if (result.smtp || result.imap) ctx.log.info({ ...result }, 'e-mail connection test failed');
  return {
    smtp: { ok: !result.smtp, message: result.smtp ? failureText(lang, result.smtp) : null },
    imap: { ok: !result.imap, message: result.imap ? failureText(lang, result.imap) : null },
  };
}
