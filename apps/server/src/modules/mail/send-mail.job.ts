import { buffer } from 'node:stream/consumers';
import { z } from 'zod';
import { defineJob } from '../../jobs/job-definition.ts';
import {
  countSendAttempt,
  markMailSent,
  markSalesDocumentSent,
  outboxMailById,
  setMailStatus,
} from './email-outbox.queries.ts';
import { withRealLink } from './hidden-link.ts';

/** The address of MAIL_FROM ("Name <address>" or a bare address), for a mail sent under another display name. */
export function fromAddress(mailFrom: string): string {
  return /<([^<>]+)>\s*$/.exec(mailFrom)?.[1]?.trim() ?? mailFrom.trim();
}

export const NO_SMTP_REASON = 'not sent: no SMTP configured';

/** Delivers one outbox mail over SMTP; without SMTP_URL it marks the mail as not sent, visibly. */
export const sendMailJob = defineJob({
  name: 'mail.send',
  schema: z.object({ emailId: z.uuid() }),
  retryLimit: 5,
  retryDelaySeconds: 10,
  expireInSeconds: 60,
  async handler({ emailId }, ctx, run) {
    const mail = await outboxMailById(ctx.db, emailId);
    if (!mail || mail.status === 'sent' || mail.status === 'not_sent') return;
    if (!ctx.mailer) {
      await setMailStatus(ctx.db, emailId, 'not_sent', NO_SMTP_REASON);
      ctx.log.warn({ emailId, template: mail.template }, `mail ${NO_SMTP_REASON}`);
      return;
    }
    await countSendAttempt(ctx.db, emailId);
    try {
      const attachments = await Promise.all(
        mail.attachments.map(async (a) => ({
          filename: a.fileName,
          contentType: a.contentType,
          content: await buffer(await ctx.storage.read(a.storageKey)),
        })),
      );
      const content = withRealLink(ctx, mail);
      await ctx.mailer.sendMail({
        from: mail.fromName
          ? { name: mail.fromName, address: fromAddress(ctx.config.MAIL_FROM) }
          : ctx.config.MAIL_FROM,
        replyTo: mail.replyTo ?? undefined,
        attachments,
        to: mail.to,
        subject: content.subject,
        text: content.text,
        html: content.html,
        headers: { 'X-Werkwissen-Email-Id': mail.id },
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message.slice(0, 500) : String(error);
      await setMailStatus(ctx.db, emailId, run.isFinalAttempt ? 'failed' : 'queued', reason);
      throw error;
    }
    const sentAt = new Date();
    await ctx.db.transaction(async (tx) => {
      await markMailSent(tx, emailId, sentAt);
      // The document has now reached its customer: an issued one becomes sent (a paid, accepted or cancelled one
      // keeps its status).
      if (mail.salesDocumentId) await markSalesDocumentSent(tx, mail.salesDocumentId, sentAt);
    });
  },
});
