import type { Language } from '@werkwissen/shared';
import { and, eq, lt } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import type { DbOrTx } from '../../db/database.ts';
import { emailOutbox } from '../../db/schema/index.ts';
import { type MailTemplate, renderMail } from './mail-templates.ts';
import { sendMailJob } from './send-mail.job.ts';

export interface OutgoingMail {
  to: string;
  template: MailTemplate;
  language: Language;
  name: string;
  /** Path and query below PUBLIC_URL that the mail's button opens. */
  actionPath: string;
  values?: Record<string, string>;
  lines?: string[];
  userId?: string | null;
  companyId?: string | null;
}

/**
 * Writes a localized mail into the outbox (inside the caller's transaction) and returns its id; `dispatch` then
 * enqueues the send job once that transaction has committed.
 */
export async function writeToOutbox(tx: DbOrTx, ctx: AppContext, mail: OutgoingMail): Promise<string> {
  const rendered = renderMail(
    mail.template,
    mail.language,
    {
      name: mail.name,
      appTitle: ctx.config.APP_TITLE,
      actionUrl: `${ctx.config.PUBLIC_URL}${mail.actionPath}`,
      values: mail.values,
      lines: mail.lines,
    },
    ctx.config.PRIMARY_COLOR,
  );
  const [row] = await tx
    .insert(emailOutbox)
    .values({
      to: mail.to,
      template: mail.template,
      language: mail.language,
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
      userId: mail.userId ?? null,
      companyId: mail.companyId ?? null,
    })
    .returning({ id: emailOutbox.id });
  return row!.id;
}

export async function dispatch(ctx: AppContext, emailIds: string[]): Promise<void> {
  for (const emailId of emailIds) {
    await ctx.jobs.send(sendMailJob, { emailId }, { singletonKey: emailId });
  }
}

/** Re-enqueues mails left `queued` (for example when the process stopped between commit and enqueue). */
export async function requeueStrandedMails(ctx: AppContext): Promise<number> {
  const stranded = await ctx.db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.status, 'queued'), lt(emailOutbox.createdAt, new Date(Date.now() - 60_000))));
  await dispatch(
    ctx,
    stranded.map((r) => r.id),
  );
  return stranded.length;
}
