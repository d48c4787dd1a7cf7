import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type {
  DocumentMail,
  DocumentMailAttachment,
  DocumentMailBody,
  DocumentMailDraft,
  Language,
} from '@werkwissen/shared';
import { and, desc, eq } from 'drizzle-orm';
import { salesDocumentAccess } from '../../access/sales-document.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { removeStored } from '../../core/remove-stored.ts';
import { emailOutbox, type MailAttachment } from '../../db/schema/index.ts';
import { assertPlanActive } from '../billing/company-plan.ts';
import { companyLogo } from '../company/company-logo.service.ts';
import { assertMailBudget, takeMailBudget } from '../mail/mail-budget.ts';
import { renderMessage } from '../mail/mail-layout.ts';
import { mailLogo } from '../mail/mail-logo.ts';
import { dispatch } from '../mail/outbox.service.ts';
import { assertVerifiedSender } from '../mail/verified-sender.ts';
import { documentFormat } from './document-format.ts';
import { documentTitle } from './document-texts.ts';
import { facturXPdf, xRechnungOf } from './e-invoice.service.ts';
import { salesDocumentPdf } from './sales-document-pdf.ts';
import { loadSalesDocument } from './sales-documents.service.ts';

/** The outbox's `template` of a mail that takes a document to a customer (written by the user, not a template). */
export const DOCUMENT_MAIL_KIND = 'salesDocument';

const E_INVOICE_TYPES = ['invoice', 'creditNote'];

/**
 * An issued document the actor may send (update), with the seller as issued. Access is checked first, so that
 * another company's document is not found whatever the server's mail setup.
 */
async function issuedDocument(ctx: AppContext, actor: Actor, documentId: string) {
  await salesDocumentAccess.authorize(ctx.db, actor, 'update', documentId);
  // Without SMTP a mail to a customer would never leave: say so before anything is written.
  if (!ctx.mailer) throw new AppError('MAIL_NOT_CONFIGURED');
  const { row, document } = await loadSalesDocument(ctx.db, actor, documentId);
  if (!row.number || !row.seller) throw new AppError('DOCUMENT_NOT_FINALISED');
  return {
    row,
    document,
    seller: row.seller,
    companyId: row.companyId,
    fileStem: row.number.replace(/[^\w.-]/g, '_'),
  };
}
type Issued = Awaited<ReturnType<typeof issuedDocument>>;

/** The PDF; for an invoice or cancellation also Factur-X, and XRechnung when the buyer has an electronic address. */
function attachmentChoices(issued: Issued): DocumentMailAttachment[] {
  if (!E_INVOICE_TYPES.includes(issued.row.type)) return ['pdf'];
  return issued.document.buyer.email ? ['pdf', 'facturX', 'xrechnung'] : ['pdf', 'facturX'];
}

/** The files a mail carries, with the names the downloads give them. */
async function attachmentFiles(ctx: AppContext, issued: Issued, attach: DocumentMailAttachment) {
  if (attach !== 'pdf' && !E_INVOICE_TYPES.includes(issued.row.type))
    throw new AppError('EINVOICE_ONLY_FOR_INVOICES');
  const pdf = async () => ({
    fileName: `${issued.fileStem}.pdf`,
    contentType: 'application/pdf',
    content: await salesDocumentPdf({
      document: issued.document,
      seller: issued.seller,
      logo: await companyLogo(ctx, issued.companyId),
    }),
  });
  if (attach === 'pdf') return [await pdf()];
  if (attach === 'facturX')
    return [
      {
        fileName: `${issued.fileStem}-factur-x.pdf`,
        contentType: 'application/pdf',
        content: await facturXPdf(ctx, issued),
      },
    ];
  const xml = await xRechnungOf(issued);
  return [
    {
      fileName: `${issued.fileStem}-xrechnung.xml`,
      contentType: 'application/xml',
      content: Buffer.from(xml, 'utf8'),
    },
    await pdf(),
  ];
}

/**
 * The mail the send dialog starts from: the customer's address as issued, and a subject and text in the document's
 * language naming the document, its amount and (an invoice) its due date.
 */
export async function draftDocumentMail(
  ctx: AppContext,
  actor: Actor,
  documentId: string,
): Promise<DocumentMailDraft> {
  const issued = await issuedDocument(ctx, actor, documentId);
  const { row, document } = issued;
  const format = documentFormat(row.language as Language);
  const { t, money, date } = format;
  const values = {
    type: documentTitle(document, format),
    number: row.number,
    company: String(issued.seller.name),
    amount: money(document.amountDueCents),
    dueDate: row.dueDate ? date(row.dueDate) : '',
  };
  return {
    to: document.buyer.email,
    subject: t('mail.subject', values),
    message: t(`mail.message.${row.type}`, values),
    attachments: attachmentChoices(issued),
    replyTo: String(issued.seller.email ?? ''),
  };
}

const presentMail = (r: typeof emailOutbox.$inferSelect): DocumentMail => ({
  id: r.id,
  to: r.to,
  subject: r.subject,
  status: r.status,
  attachments: r.attachments.map((a) => a.fileName),
  createdAt: r.createdAt.toISOString(),
  sentAt: r.sentAt?.toISOString() ?? null,
});

/** The mails that took a document the actor may read to a customer, newest first. */
export async function listDocumentMails(
  ctx: AppContext,
  actor: Actor,
  documentId: string,
): Promise<{ items: DocumentMail[] }> {
  const { row } = await loadSalesDocument(ctx.db, actor, documentId);
  const rows = await ctx.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.salesDocumentId, row.id), eq(emailOutbox.companyId, row.companyId)))
    .orderBy(desc(emailOutbox.createdAt));
  return { items: rows.map(presentMail) };
}

/**
 * Sends an issued document to a customer (not on an ended plan: PLAN_EXPIRED): the attachments are rendered now and
 * kept in file storage as sent, the mail is written to the outbox in the company's name (replies to the company's
 * address), and the send job delivers it; the document's `sentAt` follows once the mail has left. The user's own
 * text to an address they chose: only from a confirmed address (EMAIL_NOT_VERIFIED), and counted against the
 * company's mail budget (checked before the attachments are rendered, taken when the mail is written).
 */
export async function sendDocumentMail(
  ctx: AppContext,
  actor: Actor,
  documentId: string,
  body: DocumentMailBody,
): Promise<DocumentMail> {
  const issued = await issuedDocument(ctx, actor, documentId);
  // An ended plan reads and pays, but sends nothing in the company's name.
  await assertPlanActive(ctx, issued.companyId);
  await assertVerifiedSender(ctx.db, actor);
  await assertMailBudget(ctx, issued.companyId);
  const files = await attachmentFiles(ctx, issued, body.attach);
  const company = String(issued.seller.name);
  const settings = await ctx.settings.current();
  const logo = await mailLogo(ctx.db, issued.companyId);
  const rendered = renderMessage(
    issued.row.language as Language,
    { subject: body.subject, text: body.message },
    {
      appTitle: company,
      logo: logo && { url: `${settings.general.publicUrl}${logo.path}`, alt: logo.name || company },
    },
  );
  const emailId = randomUUID();
  const stored: MailAttachment[] = [];
  let row: typeof emailOutbox.$inferSelect | undefined;
  try {
    for (const [i, file] of files.entries()) {
      const staged = await ctx.storage.stage(Readable.from(file.content));
      const storageKey = `${issued.companyId}/outbox/${emailId}/${i}`;
      await ctx.storage.commit(staged.key, storageKey);
      stored.push({ fileName: file.fileName, contentType: file.contentType, storageKey });
    }
    [row] = await ctx.db.transaction(async (tx) => {
      await takeMailBudget(ctx, tx, issued.companyId);
      return tx
        .insert(emailOutbox)
        .values({
          id: emailId,
          to: body.to,
          template: DOCUMENT_MAIL_KIND,
          language: issued.row.language,
          subject: rendered.subject,
          text: rendered.text,
          html: rendered.html,
          fromName: company,
          replyTo: String(issued.seller.email ?? '') || null,
          attachments: stored,
          salesDocumentId: issued.row.id,
          userId: actor.userId,
          companyId: issued.companyId,
          budgeted: true,
        })
        .returning();
    });
  } catch (error) {
    await removeStored(
      ctx,
      stored.map((a) => a.storageKey),
      'attachment of an unsent document mail',
    );
    throw error;
  }
  // Written: from here the mail is the outbox's, and a missed enqueue is picked up by `requeueStrandedMails`.
  await dispatch(ctx, [emailId]);
  return presentMail(row!);
}
