import type {
  EmailConnectionTest,
  EmailConnectionTestBody,
  EmailSetting,
  EmailSettingCreate,
  EmailSettingUpdate,
  Language,
} from '@werkwissen/shared';
import { divisionAccess } from '../../access/division.access.ts';
import { emailSettingAccess } from '../../access/email-setting.access.ts';
import { homeCompany } from '../../access/resource-access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { notFound } from '../../core/app-error.ts';
import type { DbOrTx } from '../../db/database.ts';
import { translate } from '../../i18n/translator.ts';
import { SecretBox } from '../ai-providers/secret-box.ts';
import { takeLimitSlot } from '../billing/limit-slot.ts';
import {
  deleteSetting,
  divisionNameAmong,
  type EmailSettingRow,
  insertSetting,
  moveConversationChats,
  settingById,
  settingsAmong,
  updateSetting,
} from './email-settings.queries.ts';
import { type MailFailure, testAccount } from './mail-connection.ts';

const failureText = (lang: Language, failure: MailFailure | string) =>
  translate(lang, `emailSettings.failure.${failure}`);

function present(row: EmailSettingRow, divisionName: string, lang: Language): EmailSetting {
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
  const rows = await settingsAmong(ctx.db, emailSettingAccess.where(actor, 'read'));
  return rows.map((r) => present(r.row, r.divisionName, actor.language));
}

/** The division a setting answers from: one the actor may read, of their company (else 404). */
async function readableDivision(db: DbOrTx, actor: Actor, divisionId: string): Promise<string> {
  const name = await divisionNameAmong(db, divisionId, divisionAccess.where(actor, 'read'));
  if (name === null) throw notFound();
  return name;
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
    const row = await insertSetting(tx, {
      companyId,
      ownerId: actor.userId,
      ...normalized(body),
      passwordSealed: box.seal(body.password),
      answerFrom: body.answerFrom ? new Date(body.answerFrom) : null,
    });
    return { row, divisionName };
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
    const before = await settingById(tx, settingId);
    if (!before) throw notFound();
    const mailboxMoved = before.imapHost !== values.imapHost || before.userName !== values.userName;
    const cutOff = body.answerFrom ? new Date(body.answerFrom) : null;
    const cutOffMoved = cutOff !== null && cutOff.getTime() !== before.answerFrom.getTime();
    const row = await updateSetting(tx, settingId, emailSettingAccess.where(actor, 'update'), {
      ...values,
      passwordSealed: body.password ? box.seal(body.password) : null,
      rereadFrom: mailboxMoved || cutOffMoved ? { from: cutOff } : null,
    });
    if (!row) throw notFound();
    await moveConversationChats(tx, row);
    return { row, divisionName };
  });
  return present(row, divisionName, actor.language);
}

/** Deletes an e-mail setting; its mailbox is no longer read (the conversations' chats stay). */
export async function deleteEmailSetting(ctx: AppContext, actor: Actor, settingId: string): Promise<void> {
  await emailSettingAccess.authorize(ctx.db, actor, 'delete', settingId);
  if (!(await deleteSetting(ctx.db, settingId, emailSettingAccess.where(actor, 'delete')))) throw notFound();
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
    const saved = await settingById(ctx.db, body.settingId);
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
