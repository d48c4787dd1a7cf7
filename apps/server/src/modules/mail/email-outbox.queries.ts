import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { emailOutbox, salesDocuments } from '../../db/schema/index.ts';
import { jobWaiting } from '../../db/waiting-job.ts';

/** A mail of the outbox as stored. */
export type OutboxMail = typeof emailOutbox.$inferSelect;
type MailStatus = OutboxMail['status'];
type DocumentStatus = (typeof salesDocuments.$inferSelect)['status'];

const ISSUED: DocumentStatus = 'issued';
const SENT: DocumentStatus = 'sent';

export async function outboxMailById(db: DbOrTx, emailId: string): Promise<OutboxMail | undefined> {
  const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, emailId));
  return mail;
}

/** Counts one more attempt to send the mail. */
export async function countSendAttempt(db: DbOrTx, emailId: string): Promise<void> {
  await db
    .update(emailOutbox)
    .set({ attempts: sql`${emailOutbox.attempts} + 1` })
    .where(eq(emailOutbox.id, emailId));
}

export async function setMailStatus(
  db: DbOrTx,
  emailId: string,
  status: Exclude<MailStatus, 'sent'>,
  reason: string,
): Promise<void> {
  await db.update(emailOutbox).set({ status, statusReason: reason }).where(eq(emailOutbox.id, emailId));
}

export async function markMailSent(db: DbOrTx, emailId: string, sentAt: Date): Promise<void> {
  await db
    .update(emailOutbox)
    .set({ status: 'sent', statusReason: null, sentAt })
    .where(eq(emailOutbox.id, emailId));
}

/** The document a mail carried reached its customer: an issued one becomes sent, any other keeps its status. */
export async function markSalesDocumentSent(db: DbOrTx, documentId: string, sentAt: Date): Promise<void> {
  await db
    .update(salesDocuments)
    .set({
      sentAt,
      status: sql`case when ${salesDocuments.status} = ${ISSUED} then ${SENT} else ${salesDocuments.status} end`,
    })
    .where(eq(salesDocuments.id, documentId));
}

/** The mails of these templates whose link still holds a live token in their stored text (none sealed yet). */
export async function mailsWithUnsealedToken(
  db: DbOrTx,
  templates: string[],
): Promise<Array<Pick<OutboxMail, 'id' | 'subject' | 'text' | 'html'>>> {
  return db
    .select({
      id: emailOutbox.id,
      subject: emailOutbox.subject,
      text: emailOutbox.text,
      html: emailOutbox.html,
    })
    .from(emailOutbox)
    .where(
      and(
        inArray(emailOutbox.template, templates),
        isNull(emailOutbox.linkSealed),
        sql`${emailOutbox.text} ~ '[?&]token=[A-Za-z0-9_-]{43}'`,
      ),
    );
}

/** Stores the masked mail with its sealed token, unless another process sealed it first; whether this call did. */
export async function sealMailLink(
  db: DbOrTx,
  emailId: string,
  masked: { subject: string; text: string; html: string; linkSealed: string },
): Promise<boolean> {
  const updated = await db
    .update(emailOutbox)
    .set(masked)
    .where(and(eq(emailOutbox.id, emailId), isNull(emailOutbox.linkSealed)))
    .returning({ id: emailOutbox.id });
  return updated.length === 1;
}

/**
 * Mails still `queued` a minute after they were written with no job of `sendJob` waiting, retrying or running for
 * them (the send job's singleton key is the mail's id).
 */
export async function strandedMailIds(db: DbOrTx, sendJob: string): Promise<string[]> {
  const { rows } = await db.execute<{ id: string }>(sql`
    select o.id from ${emailOutbox} o
    where o.status = 'queued' and o.created_at < now() - interval '1 minute'
      and not ${jobWaiting([sendJob], sql`j.singleton_key = o.id::text`)}`);
  return rows.map((r) => r.id);
}
