import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { emailInbound } from '../../db/schema/index.ts';
import type { JobRun } from '../../jobs/job-definition.ts';
import { questionLanguage } from '../chat/question-language.ts';
import { dispatch, writeToOutbox } from '../mail/outbox.service.ts';
import { mailboxSender } from './email-inbound.queries.ts';
import { bareSubject } from './mail-classify.ts';
import { replySubject } from './mail-reply.ts';

/**
 * Tells the asker of a mail that failed for good (its reply refused by the company's SMTP server after every retry,
 * or no answer produced) that it was not answered: by the platform's own mail (the outbox, template
 * `mailAnswerFailed`), since the company's server is the one that failed; in the question's language, with a button
 * that writes to the assistant again.
 */
export async function tellAskerNotAnswered(
  ctx: AppContext,
  mail: typeof emailInbound.$inferSelect,
): Promise<void> {
  const setting = await mailboxSender(ctx.db, mail.settingId);
  if (!setting) return;
  const { general } = await ctx.settings.current();
  const language = questionLanguage(mail.question || mail.subject, general.defaultLanguage);
  const again = `mailto:${setting.fromEmail}?subject=${encodeURIComponent(replySubject(mail.subject))}`;
  const emailId = await writeToOutbox(ctx.db, ctx, {
    to: mail.fromAddress,
    template: 'mailAnswerFailed',
    language,
    name: '',
    actionPath: '',
    actionUrl: again,
    values: {
      subject: bareSubject(mail.subject),
      mailbox: setting.fromEmail,
      company: setting.company ?? '',
    },
    companyId: mail.companyId,
  });
  await dispatch(ctx, [emailId]);
  ctx.log.warn({ inboundId: mail.id, reason: mail.reason }, 'mail not answered: the asker was told');
}

/** The text of a job's error as a mail's `error` column keeps it. */
export const errorText = (error: unknown) =>
  error instanceof Error ? error.message.slice(0, 500) : String(error);

/**
 * A mail whose answering or sending gave up (the job's final attempt): failed with its reason and error, let go by
 * the run that held it, and the asker told; nothing when another run holds the mail by now.
 */
export async function failClaimedMail(
  ctx: AppContext,
  inboundId: string,
  run: JobRun,
  reason: 'answer-failed' | 'send-failed',
  error: unknown,
): Promise<void> {
  const [failed] = await ctx.db
    .update(emailInbound)
    .set({ status: 'failed', reason, error: errorText(error), claimedBy: null })
    .where(and(eq(emailInbound.id, inboundId), eq(emailInbound.claimedBy, run.id)))
    .returning();
  if (failed) await tellAskerNotAnswered(ctx, failed);
}
