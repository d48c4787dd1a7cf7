import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAs } from '../../../test/support/factories.ts';
import { refuseFirstSend } from '../../../test/support/refused-send.ts';
import {
  signedInAdmin,
  signedInDataManager,
  startTestServer,
  type TestServer,
  verifiedDataManager,
} from '../../../test/support/test-server.ts';
import { emailOutbox, subscriptions, users } from '../../db/schema/index.ts';
import { requeueStrandedMails } from '../mail/outbox.service.ts';
import { sendMailJob } from '../mail/send-mail.job.ts';
import { COMPANY, CUSTOMER, customerOf, draftOf, line } from './sales-document-fixtures.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

const year = new Date().getUTCFullYear();

/**
 * A data manager's company (with its details) and an issued document of a type, in German; the data manager's address
 * is confirmed, as it must be before mail with their own text goes out.
 */
async function issued(type: 'offer' | 'invoice' = 'invoice') {
  const dm = await verifiedDataManager(t);
  expect((await dm.client.put('/company/details', COMPANY)).status).toBe(200);
  const customerId = await customerOf(dm.client, {
    email: `schneider-${Date.now()}-${Math.random().toString(36).slice(2)}@kunde.example`,
  });
  const id = await draftOf(dm.client, customerId, type, [line('Wartung Gasbrennwertkessel', 2, 6450)]);
  const finalised = await dm.client.post(`/handwerk/documents/${id}/finalise`);
  expect(finalised.status).toBe(200);
  return { ...dm, id, customerId, document: finalised.body };
}

async function sentMails(client: Awaited<ReturnType<typeof issued>>['client'], id: string) {
  for (let i = 0; i < 100; i++) {
    const { items } = (await client.get(`/handwerk/documents/${id}/mails`)).body;
    if (items.every((m: { status: string }) => m.status !== 'queued')) return items;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the mail stayed queued');
}

describe('sending a document to the customer by e-mail', () => {
  it('starts from the customer’s address and a text in the document’s language, replies going to the company', async () => {
    const dm = await issued('invoice');
    const res = await dm.client.get(`/handwerk/documents/${dm.id}/mail-draft`);
    expect(res.status).toBe(200);
    const dueDate = new Intl.DateTimeFormat('de', { dateStyle: 'medium', timeZone: 'UTC' }).format(
      new Date(`${dm.document.dueDate}T00:00:00Z`),
    );
    expect(res.body).toEqual({
      to: dm.document.buyer.email,
      subject: `Rechnung RE-${year}-0001 von ${COMPANY.name}`,
      // 2 h at 64.50 € plus 19 %; Intl writes a no-break space before the euro sign.
      message: [
        'Guten Tag,',
        '',
        `anbei erhalten Sie unsere Rechnung RE-${year}-0001 über 153,51\u00a0€. Bitte überweisen Sie den Betrag unter Angabe der Rechnungsnummer bis zum ${dueDate}.`,
        '',
        'Mit freundlichen Grüßen',
        COMPANY.name,
      ].join('\n'),
      attachments: ['pdf', 'facturX', 'xrechnung'],
      replyTo: COMPANY.email,
    });
  });

  it('sends an invoice with its Factur-X PDF in the company’s name, and records the delivery', async () => {
    const dm = await issued('invoice');
    const subject = `Ihre Rechnung ${Date.now()}`;
    const res = await dm.client.post(`/handwerk/documents/${dm.id}/mails`, {
      to: dm.document.buyer.email,
      subject,
      message: 'Guten Tag,\n\nanbei die Rechnung <b>mit</b> Anhang.\n\nGrüße',
      attach: 'facturX',
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ to: dm.document.buyer.email, subject, status: 'queued' });
    expect(res.body.attachments).toEqual([`RE-${year}-0001-factur-x.pdf`]);

    const received = await t.smtp!.waitFor((m) => m.subject === subject);
    expect(received.to).toEqual([dm.document.buyer.email]);
    expect(received.from).toBe(`"${COMPANY.name}" <no-reply@werkwissen.example>`);
    expect(received.replyTo).toBe(COMPANY.email);
    expect(received.text).toContain('anbei die Rechnung <b>mit</b> Anhang.');
    // The typed text is the user's, never markup: escaped in the HTML part.
    expect(received.html).toContain('anbei die Rechnung &lt;b&gt;mit&lt;/b&gt; Anhang.');
    expect(received.attachments.map((a) => [a.fileName, a.contentType])).toEqual([
      [`RE-${year}-0001-factur-x.pdf`, 'application/pdf'],
    ]);
    const pdf = received.attachments[0]!.content.toString('latin1');
    expect(pdf.startsWith('%PDF-1.7')).toBe(true);
    expect(pdf).toContain('/AFRelationship /Alternative');

    const [mail] = await sentMails(dm.client, dm.id);
    expect(mail).toMatchObject({ id: res.body.id, status: 'sent' });
    const document = (await dm.client.get(`/handwerk/documents/${dm.id}`)).body;
    expect(document.sentAt).toBe(mail.sentAt);
    // Issued, it was not yet sent; the mail that left made it so.
    expect(dm.document.status).toBe('issued');
    expect(document.status).toBe('sent');
  });

  it('is accepted once written though its enqueue fails, and the outbox sweep sends it then, once', async () => {
    const dm = await issued('offer');
    const subject = `Ihr Angebot ${Date.now()}`;
    // The job queue refuses the send job once, as pg-boss does when its connections stay busy past their wait.
    const refusal = refuseFirstSend(t.server.ctx.jobs, sendMailJob);
    const res = await dm.client
      .post(`/handwerk/documents/${dm.id}/mails`, {
        to: dm.document.buyer.email,
        subject,
        message: 'Guten Tag,\n\nanbei das Angebot.',
        attach: 'pdf',
      })
      .finally(() => {
        refusal.restore();
      });
    expect(refusal.refused()).toBe(1);
    // Written and counted: the request did what it was asked, and says so.
    expect([res.status, res.body.status]).toEqual([202, 'queued']);

    // Less than a minute old, it may still be on its way to the queue: the sweep leaves it.
    expect(await requeueStrandedMails(t.server.ctx)).toBe(0);
    await t.server.ctx.db
      .update(emailOutbox)
      .set({ createdAt: new Date(Date.now() - 2 * 60_000) })
      .where(eq(emailOutbox.id, res.body.id));
    expect(await requeueStrandedMails(t.server.ctx)).toBe(1);
    // With its job now waiting or done, a second sweep does not queue it again.
    expect(await requeueStrandedMails(t.server.ctx)).toBe(0);
    await t.smtp!.waitFor((m) => m.subject === subject);
    const [mail] = await sentMails(dm.client, dm.id);
    expect(mail).toMatchObject({ id: res.body.id, status: 'sent' });
    expect(t.smtp!.mails.filter((m) => m.subject === subject)).toHaveLength(1);
  });

  it('sends the XRechnung XML with the PDF as readable copy', async () => {
    const dm = await issued('invoice');
    const subject = `XRechnung ${Date.now()}`;
    const res = await dm.client.post(`/handwerk/documents/${dm.id}/mails`, {
      to: 'rechnungseingang@behoerde.example',
      subject,
      message: 'Anbei die XRechnung.',
      attach: 'xrechnung',
    });
    expect(res.status).toBe(202);
    const received = await t.smtp!.waitFor((m) => m.subject === subject);
    expect(received.attachments.map((a) => a.fileName)).toEqual([
      `RE-${year}-0001-xrechnung.xml`,
      `RE-${year}-0001.pdf`,
    ]);
    expect(received.attachments[0]!.content.toString('utf8')).toContain(
      `<ram:BuyerReference>${CUSTOMER.buyerReference}</ram:BuyerReference>`,
    );
  });

  it('offers an offer only as PDF and refuses a draft, an e-invoice of an offer and a bad address, queuing nothing', async () => {
    const dm = await issued('offer');
    const draft = (await dm.client.get(`/handwerk/documents/${dm.id}/mail-draft`)).body;
    expect(draft.attachments).toEqual(['pdf']);
    expect(draft.subject).toBe(`Angebot AN-${year}-0001 von ${COMPANY.name}`);
    const body = { to: draft.to, subject: draft.subject, message: draft.message, attach: 'pdf' };

    const eInvoice = await dm.client.post(`/handwerk/documents/${dm.id}/mails`, {
      ...body,
      attach: 'facturX',
    });
    expect(eInvoice.status).toBe(409);
    expect(eInvoice.body.error.code).toBe('EINVOICE_ONLY_FOR_INVOICES');

    const unissued = await draftOf(dm.client, dm.customerId, 'offer');
    const notIssued = await dm.client.post(`/handwerk/documents/${unissued}/mails`, body);
    expect(notIssued.status).toBe(409);
    expect(notIssued.body.error.code).toBe('DOCUMENT_NOT_FINALISED');
    expect((await dm.client.get(`/handwerk/documents/${unissued}/mail-draft`)).status).toBe(409);

    const invalid = await dm.client.post(`/handwerk/documents/${dm.id}/mails`, {
      ...body,
      to: 'kein-name',
      message: '  ',
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.code).toBe('VALIDATION_FAILED');
    expect(invalid.body.error.details.fields.map((f: { field: string }) => f.field).sort()).toEqual([
      'message',
      'to',
    ]);

    const queued = await t.server.ctx.db
      .select({ id: emailOutbox.id })
      .from(emailOutbox)
      .where(eq(emailOutbox.salesDocumentId, dm.id));
    expect(queued).toEqual([]);
    expect((await dm.client.get(`/handwerk/documents/${dm.id}/mails`)).body.items).toEqual([]);

    const sent = await dm.client.post(`/handwerk/documents/${dm.id}/mails`, body);
    expect(sent.status).toBe(202);
    const received = await t.smtp!.waitFor((m) => m.emailId === sent.body.id);
    expect(received.attachments.map((a) => a.fileName)).toEqual([`AN-${year}-0001.pdf`]);
  });

  it('sends nothing once the plan has ended, while the draft and the sent mails still read', async () => {
    const dm = await issued('invoice');
    const [user] = await t.server.ctx.db.select().from(users).where(eq(users.email, dm.email));
    await t.server.ctx.db
      .update(subscriptions)
      .set({ endsAt: new Date(Date.now() - 86_400_000) })
      .where(eq(subscriptions.companyId, user!.companyId!));
    const draft = await dm.client.get(`/handwerk/documents/${dm.id}/mail-draft`);
    expect(draft.status).toBe(200);
    const refused = await dm.client.post(`/handwerk/documents/${dm.id}/mails`, {
      to: draft.body.to,
      subject: draft.body.subject,
      message: draft.body.message,
      attach: 'pdf',
    });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'PLAN_EXPIRED']);
    const queued = await t.server.ctx.db
      .select({ id: emailOutbox.id })
      .from(emailOutbox)
      .where(eq(emailOutbox.salesDocumentId, dm.id));
    expect(queued).toEqual([]);
    expect((await dm.client.get(`/handwerk/documents/${dm.id}/mails`)).status).toBe(200);
  });

  it('is sent again by the operator with the same attachments', async () => {
    const dm = await issued('invoice');
    const subject = `Erneut ${Date.now()}`;
    const res = await dm.client.post(`/handwerk/documents/${dm.id}/mails`, {
      to: dm.document.buyer.email,
      subject,
      message: 'Anbei.',
      attach: 'pdf',
    });
    await t.smtp!.waitFor((m) => m.emailId === res.body.id);
    const admin = await signedInAdmin(t);
    const resent = await admin.post(`/admin/emails/${res.body.id}/resend`);
    expect(resent.status).toBe(202);
    const again = await t.smtp!.waitFor((m) => m.emailId === resent.body.emailId);
    expect(again.from).toBe(`"${COMPANY.name}" <no-reply@werkwissen.example>`);
    expect(again.attachments.map((a) => a.fileName)).toEqual([`RE-${year}-0001.pdf`]);
    expect((await sentMails(dm.client, dm.id)).map((m: { id: string }) => m.id)).toContain(
      resent.body.emailId,
    );
  });

  it('answers 401 without a session, 403 to an employee, 404 for another company’s document', async () => {
    const dm = await issued('invoice');
    const employee = await signedInAs(t, 'Employee');
    const other = await signedInDataManager(t);
    const body = { to: 'a@b.example', subject: 'x', message: 'y', attach: 'pdf' };
    const calls = [
      ['GET', `/handwerk/documents/${dm.id}/mail-draft`],
      ['GET', `/handwerk/documents/${dm.id}/mails`],
      ['POST', `/handwerk/documents/${dm.id}/mails`],
    ] as const;
    for (const [method, path] of calls) {
      const payload = method === 'POST' ? body : undefined;
      expect((await t.client().request(method, path, payload)).status).toBe(401);
      expect((await employee.client.request(method, path, payload)).status).toBe(403);
      const foreign = await other.client.request(method, path, payload);
      expect(foreign.status).toBe(404);
      expect(JSON.stringify(foreign.body)).not.toContain(dm.document.buyer.email);
    }
    expect((await dm.client.get(`/handwerk/documents/${dm.id}/mails`)).body.items).toEqual([]);
  });
});
