import type { Language } from '@werkwissen/shared';
import { and, count, desc, eq, ilike, or } from 'drizzle-orm';
import { emailAccess } from '../../access/email.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { notFound } from '../../core/app-error.ts';
import { containsPattern } from '../../db/like.ts';
import { emailOutbox } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';
import { dispatch } from '../mail/outbox.service.ts';
import { NO_SMTP_REASON } from '../mail/send-mail.job.ts';

type OutboxRow = typeof emailOutbox.$inferSelect;

/**
 * Why a mail is not (yet) sent, in the reader's language: the outbox keeps the installation's "no SMTP" marker or the
 * mail server's own error (its words, which only the mail server knows), and both are told as such.
 */
const reasonText = (lang: Language, reason: string | null) =>
  reason === null
    ? null
    : reason === NO_SMTP_REASON
      ? translate(lang, 'admin.emails.reasons.noSmtp')
      : translate(lang, 'admin.emails.reasons.failed', { message: reason });

const present = (r: OutboxRow, lang: Language) => ({
  id: r.id,
  to: r.to,
  template: r.template,
  language: r.language,
  subject: r.subject,
  status: r.status,
  statusReason: reasonText(lang, r.statusReason),
  attempts: r.attempts,
  createdAt: r.createdAt.toISOString(),
  sentAt: r.sentAt?.toISOString() ?? null,
});

/** The e-mail log: the mails of the outbox the actor's Email rules let them read (all, for the operator), newest first. */
export async function listEmails(
  ctx: AppContext,
  actor: Actor,
  query: { page: number; pageSize: number; q?: string; status?: OutboxRow['status'] },
) {
  const like = query.q ? containsPattern(query.q) : undefined;
  const where = and(
    emailAccess.where(actor, 'read'),
    like ? or(ilike(emailOutbox.to, like), ilike(emailOutbox.subject, like)) : undefined,
    query.status ? eq(emailOutbox.status, query.status) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(emailOutbox)
      .where(where)
      .orderBy(desc(emailOutbox.createdAt))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    ctx.db.select({ n: count() }).from(emailOutbox).where(where),
  ]);
  return {
    items: rows.map((row) => present(row, actor.language)),
    total: total?.n ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/**
 * One mail with its text as stored: a single-use link masked (the recipient got the real one). Reading it is noted
 * in the activity log (the change names the mail), since the text of a company's mail is its business.
 */
export async function getEmail(ctx: AppContext, actor: Actor, emailId: string) {
  const [row] = await ctx.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.id, emailId), emailAccess.where(actor, 'read')));
  if (!row) throw notFound();
  return {
    email: {
      ...present(row, actor.language),
      text: row.text,
      html: row.html,
      hiddenLink: row.linkSealed !== null,
    },
    change: { before: null, after: { read: row.id, to: row.to, template: row.template } },
  };
}

/**
 * Sends a mail again: a new outbox row with the recipient, kind and content of the one the actor may read, queued
 * through the send job like any mail (the original keeps its own status and reason). Returns the new row's id.
 */
export async function resendEmail(ctx: AppContext, actor: Actor, emailId: string) {
  const [source] = await ctx.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.id, emailId), emailAccess.where(actor, 'read')));
  if (!source) throw notFound();
  const [copy] = await ctx.db
    .insert(emailOutbox)
    .values({
      to: source.to,
      template: source.template,
      language: source.language,
      subject: source.subject,
      text: source.text,
      html: source.html,
      fromName: source.fromName,
      replyTo: source.replyTo,
      attachments: source.attachments,
      salesDocumentId: source.salesDocumentId,
      linkSealed: source.linkSealed,
      userId: source.userId,
      companyId: source.companyId,
    })
    .returning({ id: emailOutbox.id });
  await dispatch(ctx, [copy!.id]);
  return {
    emailId: copy!.id,
    message: translate(actor.language, 'admin.emails.resent', { email: source.to }),
    change: { before: null, after: { resentFrom: source.id, emailId: copy!.id, to: source.to } },
  };
}
