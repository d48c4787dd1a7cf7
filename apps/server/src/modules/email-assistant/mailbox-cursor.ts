import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { MessageEnvelopeObject } from 'imapflow';
import type { AppContext } from '../../app-context.ts';
import type { DbOrTx } from '../../db/database.ts';
import { emailInbound, emailSettings } from '../../db/schema/index.ts';
import type { EmailSettingRow } from './email-settings.queries.ts';
import { type IgnoreReason, ignoreReason, questionOf, senderOf, threadOf } from './mail-classify.ts';

/** A mailbox as the worker holding its lease reads it: the setting, with its cursor kept up to date. */
export interface HeldMailbox {
  setting: EmailSettingRow;
  /** The worker holding the lease (`mail_watchers.id`): the cursor moves only while it still does. */
  holder: string;
}

/** Moves the cursor past `uid`, while the lease is still the holder's (else 'mailbox lease lost'). */
async function moveCursor(db: DbOrTx, held: HeldMailbox, uid: number): Promise<void> {
  const moved = await db
    .update(emailSettings)
    .set({ lastUid: uid })
    .where(and(eq(emailSettings.id, held.setting.id), eq(emailSettings.leaseHolder, held.holder)))
    .returning({ id: emailSettings.id });
  if (moved.length === 0) throw new Error('mailbox lease lost');
}

/** Starts the cursor anew (a first read, or a mailbox whose UIDVALIDITY changed) just before `lastUid + 1`. */
export async function resetCursor(
  ctx: AppContext,
  held: HeldMailbox,
  uidValidity: string,
  lastUid: number,
): Promise<void> {
  const moved = await ctx.db
    .update(emailSettings)
    .set({ uidValidity, lastUid })
    .where(and(eq(emailSettings.id, held.setting.id), eq(emailSettings.leaseHolder, held.holder)))
    .returning({ id: emailSettings.id });
  if (moved.length === 0) throw new Error('mailbox lease lost');
  held.setting.uidValidity = uidValidity;
  held.setting.lastUid = lastUid;
}

/** Passes over a mail delivered before the setting's cut-off: nothing is stored, the cursor moves past it. */
export async function passOver(ctx: AppContext, held: HeldMailbox, uid: number): Promise<void> {
  await moveCursor(ctx.db, held, uid);
  held.setting.lastUid = uid;
}

/** Why a stored mail is not answered: the classifier's reasons, or too large to be read at all. */
type NotAnswered = IgnoreReason | 'too-large';

interface InboundMail {
  messageId: string;
  deliveredAt: Date | null;
  fromAddress: string;
  subject: string;
  question: string;
  references: string[];
  reason: NotAnswered | null;
}

/**
 * Stores one mail of the mailbox (once per Message-ID: a mail seen before, after a UIDVALIDITY change, is only
 * skipped) and moves the cursor past its UID in the same transaction, so the cursor never passes a mail that is not
 * durably stored. Returns the stored mail's id when it is to be answered.
 */
async function storeMail(
  ctx: AppContext,
  held: HeldMailbox,
  uid: number,
  mail: InboundMail,
): Promise<string | null> {
  const { setting } = held;
  const { reason } = mail;
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(emailInbound)
      .values({
        settingId: setting.id,
        companyId: setting.companyId,
        uid,
        messageId: mail.messageId,
        fromAddress: mail.fromAddress,
        subject: mail.subject.slice(0, 998),
        question: reason ? '' : mail.question.slice(0, 8000),
        references: mail.references.slice(-20),
        status: reason ? 'ignored' : 'queued',
        reason,
        deliveredAt: mail.deliveredAt,
      })
      .onConflictDoNothing()
      .returning({ id: emailInbound.id });
    await moveCursor(tx, held, uid);
    return row && !reason ? row.id : null;
  });
  setting.lastUid = uid;
  if (reason) ctx.log.info({ settingId: setting.id, uid, reason }, 'mail not answered');
  return id;
}

/** Stores a mail the mailbox delivered whole (see storeMail), judged and with its question read. */
export async function queueMail(
  ctx: AppContext,
  held: HeldMailbox,
  uid: number,
  source: Buffer,
  deliveredAt: Date | null,
): Promise<string | null> {
  const { setting } = held;
  // Loaded on first use: only a server that reads a mailbox parses mail.
  const { simpleParser } = await import('mailparser');
  const mail = await simpleParser(source, { skipHtmlToText: false, skipImageLinks: true });
  const messageId =
    mail.messageId?.trim() || `<sha256-${createHash('sha256').update(source).digest('hex')}@werkwissen>`;
  const question = questionOf(mail);
  const reason =
    ignoreReason(mail, {
      ownAddresses: [setting.fromEmail, setting.smtpEmail],
      allowed: setting.allowedEmails,
      authservId: setting.authservId,
    }) ?? (question ? null : 'no-question');
  return storeMail(ctx, held, uid, {
    messageId,
    deliveredAt,
    fromAddress: senderOf(mail),
    subject: mail.subject ?? '',
    question,
    references: threadOf(mail, messageId),
    reason,
  });
}

/**
 * Stores a mail over the size limit as not answered (`too-large`), from its envelope alone: it is never downloaded.
 * Without a Message-ID it is named by the mailbox and UID.
 */
export async function skipLargeMail(
  ctx: AppContext,
  held: HeldMailbox,
  uid: number,
  envelope: MessageEnvelopeObject | undefined,
  deliveredAt: Date | null,
): Promise<void> {
  const messageId =
    envelope?.messageId?.trim() || `<uid-${held.setting.uidValidity}-${uid}@${held.setting.id}.werkwissen>`;
  await storeMail(ctx, held, uid, {
    messageId,
    deliveredAt,
    fromAddress: (envelope?.from?.[0]?.address ?? '').trim().toLowerCase(),
    subject: envelope?.subject ?? '',
    question: '',
    references: [messageId],
    reason: 'too-large',
  });
}
