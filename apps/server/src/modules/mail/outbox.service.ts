import {
  type Language,
  MAIL_TEMPLATE_VARIABLES,
  type MailTemplateKind,
  type TemplateText,
} from '@werkwissen/shared';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import type { DbOrTx } from '../../db/database.ts';
import { emailOutbox, emailTemplates } from '../../db/schema/index.ts';
import { defineSweepJob } from '../../jobs/sweep-job.ts';
import { defaultTemplate } from './default-templates.ts';
import { strandedMailIds } from './email-outbox.queries.ts';
import { MASKED_TOKEN, sealToken } from './hidden-link.ts';
import { takeMailBudget } from './mail-budget.ts';
import { type RenderedMail, renderTemplate } from './mail-layout.ts';
import { mailLogo } from './mail-logo.ts';
import { sendMailJob } from './send-mail.job.ts';

export interface OutgoingMail {
  to: string;
  template: MailTemplateKind;
  language: Language;
  name: string;
  /** Path and query below PUBLIC_URL that the mail's button opens. */
  actionPath: string;
  /** A whole address for the button instead (a `mailto:` link), for a recipient without an account. */
  actionUrl?: string;
  /**
   * The single-use token inside `actionPath` (`singleUseLink`): the outbox keeps the mail with the token masked and
   * sealed beside it, so the e-mail log never shows a live link; the send job puts it back.
   */
  linkToken?: string;
  /** Further variables of the kind (e.g. the division of an upload). */
  values?: Record<string, string>;
  /** The kind's list (each uploaded file's outcome). */
  lines?: string[];
  userId?: string | null;
  companyId?: string | null;
  /** The company (`companyId`) caused the mail: it counts against the company's mail budget (`takeMailBudget`). */
  budgeted?: boolean;
}

/** The template a mail is written from: the operator's edited text of its kind and language, else the default. */
export async function templateFor(
  tx: DbOrTx,
  kind: MailTemplateKind,
  language: Language,
  values: OutgoingMail['values'],
): Promise<TemplateText> {
  const [edited] = await tx
    .select({ subject: emailTemplates.subject, body: emailTemplates.body })
    .from(emailTemplates)
    .where(and(eq(emailTemplates.kind, kind), eq(emailTemplates.language, language)));
  return edited ?? defaultTemplate(kind, language, { companyNamed: Boolean(values?.company) });
}

/**
 * Renders a mail from a template with the settings in force (product name, public address, brand colour) and the
 * company's logo when the mail is a company's and it has one; inside
 * a transaction, `db` is that transaction.
 */
export async function renderOutgoing(
  ctx: AppContext,
  template: TemplateText,
  mail: Omit<OutgoingMail, 'to'>,
  db: DbOrTx = ctx.db,
): Promise<RenderedMail> {
  const settings = await ctx.settings.current(db);
  const logo = await mailLogo(db, mail.companyId);
  return renderTemplate(
    template,
    mail.language,
    MAIL_TEMPLATE_VARIABLES[mail.template],
    {
      ...mail.values,
      name: mail.name,
      appTitle: settings.general.appTitle,
      actionUrl: mail.actionUrl ?? `${settings.general.publicUrl}${mail.actionPath}`,
      files: mail.lines ?? [],
    },
    {
      appTitle: settings.general.appTitle,
      brandColor: settings.branding.primaryColor,
      logo: logo && {
        url: `${settings.general.publicUrl}${logo.path}`,
        alt: logo.name || settings.general.appTitle,
      },
    },
  );
}

/**
 * Writes a localized mail into the outbox (inside the caller's transaction) and returns its id; `dispatch` then
 * enqueues the send job once that transaction has committed. A mail the company caused first takes one of its mail
 * budget (MAIL_BUDGET_EXCEEDED, which rolls the caller's transaction back).
 */
export async function writeToOutbox(tx: DbOrTx, ctx: AppContext, mail: OutgoingMail): Promise<string> {
  const budgetOf = mail.budgeted ? mail.companyId : null;
  if (budgetOf) await takeMailBudget(ctx, tx, budgetOf);
  const template = await templateFor(tx, mail.template, mail.language, mail.values);
  const token = mail.linkToken;
  const shown = token ? { ...mail, actionPath: mail.actionPath.replaceAll(token, MASKED_TOKEN) } : mail;
  const rendered = await renderOutgoing(ctx, template, shown, tx);
  const [row] = await tx
    .insert(emailOutbox)
    .values({
      to: mail.to,
      template: mail.template,
      language: mail.language,
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
      linkSealed: token ? sealToken(ctx, token) : null,
      budgeted: Boolean(budgetOf),
      userId: mail.userId ?? null,
      companyId: mail.companyId ?? null,
    })
    .returning({ id: emailOutbox.id });
  return row!.id;
}

/**
 * Enqueues the send job of each mail, once the transaction that wrote it has committed. It never throws: from the
 * commit on, a mail is the outbox's, and the caller's request or job has done what it was asked; a mail whose send
 * fails waits `queued`, and the outbox's sweep (`requeueMailsJob`) sends it within minutes.
 */
export async function dispatch(ctx: AppContext, emailIds: string[]): Promise<void> {
  for (const emailId of emailIds)
    await ctx.jobs.sendAfterCommit(sendMailJob, { emailId }, { singletonKey: emailId }, { emailId });
}

/**
 * Re-enqueues mails left `queued` with no send job waiting, retrying or running for them (the process stopped
 * between commit and enqueue, or the enqueue failed), written more than a minute ago: a mail being written and
 * queued right now is not taken twice. Returns how many.
 */
export async function requeueStrandedMails(ctx: AppContext): Promise<number> {
  const ids = await strandedMailIds(ctx.db, sendMailJob.name);
  await dispatch(ctx, ids);
  return ids.length;
}

/** The outbox's sweep, so that a mail whose enqueue failed does not wait for a restart. */
export const requeueMailsJob = defineSweepJob(
  'mail.requeue',
  requeueStrandedMails,
  'queued mails again whose send job was missing',
);
