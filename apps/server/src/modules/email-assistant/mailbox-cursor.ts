import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { MessageEnvelopeObject } from 'imapflow';
import { simpleParser } from 'mailparser';
import type { AppContext } from '../../app-context.ts';
import { emailInbound, emailSettings } from '../../db/schema/index.ts';
import { type IgnoreReason, ignoreReason, questionOf, senderOf, threadOf } from './mail-classify.ts';
import type { MailFailure } from './mail-connection.ts';

/** A lease lasts this long unless renewed: a worker that died gives its mailboxes up after this. */
const LEASE_SECONDS = 60;

type Setting = typeof emailSettings.$inferSelect;

export interface LeasedSetting {
  setting: Setting;
  renew(): Promise<void>;
  /** Notes that the mailbox was read (null) or why it could not be (shown on the settings screen). */
  checked(failure: MailFailure | null): Promise<void>;
}

/**
 * Takes the mailbox's lease for this job: one consumer per mailbox, whichever worker runs it. Free, expired, or
 * already this job's (a retried or handed-back job); null while another job holds it.
 */
export async function takeLease(
  ctx: AppContext,
  settingId: string,
  holder: string,
): Promise<LeasedSetting | null> {
  const until = sql`now() + make_interval(secs => ${LEASE_SECONDS})`;
  const [setting] = await ctx.db
    .update(emailSettings)
    .set({ leaseHolder: holder, leaseUntil: until })
    .where(
      and(
        eq(emailSettings.id, settingId),
        sql`(${emailSettings.leaseUntil} is null or ${emailSettings.leaseUntil} < now()
          or ${emailSettings.leaseHolder} = ${holder})`,
      ),
    )
    .returning();
  if (!setting) return null;
  const mine = and(eq(emailSettings.id, settingId), eq(emailSettings.leaseHolder, holder));
  return {
    setting,
    async renew() {
      const renewed = await ctx.db
        .update(emailSettings)
        .set({ leaseUntil: until })
        .where(mine)
        .returning({ id: emailSettings.id });
      if (renewed.length === 0) throw new Error('mailbox lease lost');
    },
    async checked(failure) {
      await ctx.db
        .update(emailSettings)
        .set({ checkedAt: new Date(), checkError: failure, leaseUntil: until })
        .where(mine);
    },
  };
}

export async function releaseLease(ctx: AppContext, settingId: string, holder: string): Promise<void> {
  await ctx.db
    .update(emailSettings)
    .set({ leaseHolder: null, leaseUntil: null })
    .where(and(eq(emailSettings.id, settingId), eq(emailSettings.leaseHolder, holder)));
}

/** Why a stored mail is not answered: the classifier's reasons, or too large to be read at all. */
type NotAnswered = IgnoreReason | 'too-large';

interface InboundMail {
  messageId: string;
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
  lease: LeasedSetting,
  uid: number,
  mail: InboundMail,
): Promise<string | null> {
  const { setting } = lease;
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
      })
      .onConflictDoNothing()
      .returning({ id: emailInbound.id });
    const moved = await tx
      .update(emailSettings)
      .set({ lastUid: uid })
      .where(and(eq(emailSettings.id, setting.id), eq(emailSettings.leaseHolder, setting.leaseHolder!)))
      .returning({ id: emailSettings.id });
    if (moved.length === 0) throw new Error('mailbox lease lost');
    return row && !reason ? row.id : null;
  });
  setting.lastUid = uid;
  if (reason) ctx.log.info({ settingId: setting.id, uid, reason }, 'mail not answered');
  return id;
}

/** Stores a mail the mailbox delivered whole (see storeMail), judged and with its question read. */
export async function queueMail(
  ctx: AppContext,
  lease: LeasedSetting,
  uid: number,
  source: Buffer,
): Promise<string | null> {
  const { setting } = lease;
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
  return storeMail(ctx, lease, uid, {
    messageId,
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
  lease: LeasedSetting,
  uid: number,
  envelope: MessageEnvelopeObject | undefined,
): Promise<void> {
  const messageId =
    envelope?.messageId?.trim() || `<uid-${lease.setting.uidValidity}-${uid}@${lease.setting.id}.werkwissen>`;
  await storeMail(ctx, lease, uid, {
    messageId,
    fromAddress: (envelope?.from?.[0]?.address ?? '').trim().toLowerCase(),
    subject: envelope?.subject ?? '',
    question: '',
    references: [messageId],
    reason: 'too-large',
  });
}
