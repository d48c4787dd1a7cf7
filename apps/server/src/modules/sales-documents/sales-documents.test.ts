import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAs } from '../../../test/support/factories.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { COMPANY, customerOf, draftOf, line } from './sales-document-fixtures.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

async function company() {
  const dm = await signedInDataManager(t);
  expect((await dm.client.put('/company/details', COMPANY)).status).toBe(200);
  return { ...dm, customerId: await customerOf(dm.client) };
}

const year = new Date().getUTCFullYear();

describe('offers and invoices', () => {
  it('store a draft with totals from the shared module; lines stay editable until issued', async () => {
    const dm = await company();
    const created = await dm.client.post('/handwerk/documents', {
      type: 'invoice',
      customerId: dm.customerId,
      language: 'de',
      title: 'Heizungswartung',
      notes: 'Vielen Dank für Ihren Auftrag.',
      lines: [
        { ...line('Arbeitszeit Monteur', 2.5, 6450), discountPercent: 0 },
        { ...line('Dichtungssatz', 1, 28990), unit: 'Stk', discountPercent: 5 },
        line('Fachbuch', 1, 2388, 7),
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'draft',
      number: null,
      netCents: 16125 + 27541 + 2388,
      taxGroups: [
        { taxRate: 19, netCents: 43666, taxCents: 8297 },
        { taxRate: 7, netCents: 2388, taxCents: 167 },
      ],
      taxCents: 8464,
      grossCents: 46054 + 8464,
      buyer: { name: 'Familie Schneider', buyerReference: '991-01234-44' },
    });
    // An invoice is due 14 days after its issue date unless told otherwise.
    const issue = Date.parse(`${created.body.issueDate}T00:00:00Z`);
    expect(Date.parse(`${created.body.dueDate}T00:00:00Z`) - issue).toBe(14 * 86_400_000);

    const id = created.body.id;
    const edited = await dm.client.put(`/handwerk/documents/${id}`, {
      customerId: dm.customerId,
      language: 'en',
      title: 'Boiler service',
      notes: '',
      lines: [line('Labour', 1, 10000)],
    });
    expect(edited.body).toMatchObject({ language: 'en', grossCents: 11900, lines: [{ netCents: 10000 }] });
  });

  it('refuses invalid lines with the field’s message', async () => {
    const dm = await company();
    const bad = async (patch: Record<string, unknown>) =>
      dm.client.post('/handwerk/documents', {
        type: 'offer',
        customerId: dm.customerId,
        language: 'de',
        title: '',
        notes: '',
        lines: [{ ...line('Arbeit', 1, 100), ...patch }],
      });
    for (const patch of [
      { quantity: 0 },
      { quantity: 1.0001 },
      { unitPriceCents: 1.5 },
      { taxRate: 101 },
      { discountPercent: -1 },
      { description: '' },
    ]) {
      const res = await bad(patch);
      expect(res.status, JSON.stringify(patch)).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    const wrongLanguage = await dm.client.post('/handwerk/documents', {
      type: 'offer',
      customerId: dm.customerId,
      language: 'xx',
      title: '',
      notes: '',
      lines: [],
    });
    expect(wrongLanguage.status).toBe(422);
  });

  it('issues a draft with the next number of its series, freezes it, and corrects an invoice by a credit note', async () => {
    const dm = await company();
    const first = await draftOf(dm.client, dm.customerId);
    const second = await draftOf(dm.client, dm.customerId);
    const offer = await draftOf(dm.client, dm.customerId, 'offer');
    const issued = await dm.client.post(`/handwerk/documents/${first}/finalise`);
    expect(issued.status).toBe(200);
    // Issued, not sent: only a mail sends it.
    expect(issued.body).toMatchObject({ status: 'issued', number: `RE-${year}-0001`, sentAt: null });
    expect((await dm.client.post(`/handwerk/documents/${second}/finalise`)).body.number).toBe(
      `RE-${year}-0002`,
    );
    // Each type has its own series.
    expect((await dm.client.post(`/handwerk/documents/${offer}/finalise`)).body.number).toBe(
      `AN-${year}-0001`,
    );

    // Issued: no edits, no deletion, no second number.
    const edit = await dm.client.put(`/handwerk/documents/${first}`, {
      customerId: dm.customerId,
      language: 'de',
      title: '',
      notes: '',
      lines: [line('Anders', 1, 1)],
    });
    expect(edit.status).toBe(409);
    expect(edit.body.error.code).toBe('DOCUMENT_FINALISED');
    expect((await dm.client.delete(`/handwerk/documents/${first}`)).body.error.code).toBe(
      'DOCUMENT_FINALISED',
    );
    expect((await dm.client.post(`/handwerk/documents/${first}/finalise`)).body.error.code).toBe(
      'DOCUMENT_FINALISED',
    );
    // The customer's later changes do not reach the issued invoice.
    await dm.client.put(`/handwerk/customers/${dm.customerId}`, {
      name: 'Neuer Name',
      street: '',
      postalCode: '',
      city: '',
      country: 'DE',
      email: '',
      phone: '',
      vatId: '',
      buyerReference: '',
    });
    expect((await dm.client.get(`/handwerk/documents/${first}`)).body.buyer.name).toBe('Familie Schneider');

    const credit = await dm.client.post(`/handwerk/documents/${first}/convert`, { type: 'creditNote' });
    expect(credit.status).toBe(201);
    expect(credit.body).toMatchObject({
      type: 'creditNote',
      status: 'draft',
      sourceNumber: `RE-${year}-0001`,
    });
    expect((await dm.client.post(`/handwerk/documents/${credit.body.id}/finalise`)).body.number).toBe(
      `GS-${year}-0001`,
    );

    // The cancellation invoice cancels the invoice: it is no longer to be paid.
    expect((await dm.client.get(`/handwerk/documents/${first}`)).body.status).toBe('cancelled');
    const cancelledPaid = await dm.client.post(`/handwerk/documents/${first}/status`, { status: 'paid' });
    expect(cancelledPaid.body.error.code).toBe('DOCUMENT_STEP_INVALID');
    const paid = await dm.client.post(`/handwerk/documents/${second}/status`, { status: 'paid' });
    expect(paid.body.status).toBe('paid');
    const pdf = await dm.client.get(`/handwerk/documents/${first}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="RE-${year}-0001.pdf"`);
    expect(String(pdf.body).startsWith('%PDF-')).toBe(true);

    const wrong = await dm.client.post(`/handwerk/documents/${offer}/status`, { status: 'paid' });
    expect(wrong.body.error.code).toBe('DOCUMENT_STEP_INVALID');
  });

  it('refuses what the invoice law forbids, each with its code, and takes no number for it', async () => {
    const dm = await company();
    const draft = (body: Record<string, unknown>) =>
      dm.client.post('/handwerk/documents', {
        type: 'invoice',
        customerId: dm.customerId,
        language: 'de',
        title: '',
        notes: '',
        lines: [line('Arbeit', 2, 6450)],
        ...body,
      });
    const finalise = (id: string) => dm.client.post(`/handwerk/documents/${id}/finalise`);
    // § 14 (4) no. 6 UStG: no invoice without its service date.
    const undated = await draft({});
    expect((await finalise(undated.body.id)).body.error.code).toBe('SERVICE_DATE_MISSING');
    // § 13b UStG: the reverse charge needs the buyer's VAT id (this private customer has none).
    const reverse = await draft({ serviceDate: '2026-03-02', taxTreatment: 'reverseCharge' });
    expect(reverse.body).toMatchObject({ taxTreatment: 'reverseCharge', taxCents: 0 });
    expect((await finalise(reverse.body.id)).body.error.code).toBe('BUYER_VAT_ID_MISSING');
    // A period ends after it starts.
    const backwards = await draft({ serviceDate: '2026-03-02', serviceEndDate: '2026-03-01' });
    expect(backwards.status).toBe(422);
    expect(JSON.stringify(backwards.body.error.details)).toContain('serviceEndDate');

    // The final invoice waits for its down payments to be paid.
    const offer = await draftOf(dm.client, dm.customerId, 'offer', [line('Fliesen verlegen', 10, 4500)]);
    await finalise(offer);
    const downPayment = await dm.client.post(`/handwerk/documents/${offer}/convert`, {
      type: 'invoice',
      invoiceKind: 'downPayment',
      downPaymentPercent: 30,
    });
    expect(downPayment.body).toMatchObject({ invoiceKind: 'downPayment', netCents: 13500 });
    expect((await finalise(downPayment.body.id)).status).toBe(200);
    const final = await dm.client.post(`/handwerk/documents/${offer}/convert`, { type: 'invoice' });
    expect(final.body.invoiceKind).toBe('final');
    const lines = final.body.lines.map(({ netCents: _n, ...l }: { netCents: number }) => l);
    await dm.client.put(`/handwerk/documents/${final.body.id}`, {
      customerId: dm.customerId,
      language: 'de',
      title: '',
      notes: '',
      serviceDate: '2026-03-20',
      lines,
    });
    const open = await finalise(final.body.id);
    expect(open.body.error.code).toBe('DOWN_PAYMENT_OPEN');
    await dm.client.post(`/handwerk/documents/${downPayment.body.id}/status`, { status: 'paid' });
    const settled = await finalise(final.body.id);
    expect(settled.body).toMatchObject({ status: 'issued', prepaidCents: downPayment.body.grossCents });
    expect(settled.body.amountDueCents).toBe(settled.body.grossCents - downPayment.body.grossCents);

    // A cancellation invoice repeats its invoice: its lines do not change.
    const cancellation = await dm.client.post(`/handwerk/documents/${final.body.id}/convert`, {
      type: 'creditNote',
    });
    const changed = await dm.client.put(`/handwerk/documents/${cancellation.body.id}`, {
      customerId: dm.customerId,
      language: 'de',
      title: '',
      notes: 'Storno',
      serviceDate: '2026-03-20',
      lines: [line('Anders', 1, 100)],
    });
    expect(changed.body.error.code).toBe('CANCELLATION_FIXED');
    // Numbers without gaps: the refused drafts took none.
    expect(settled.body.number).toBe(`RE-${year}-0002`);
  });

  it('takes an offer to an order confirmation and an invoice in another language', async () => {
    const dm = await company();
    const offer = await draftOf(dm.client, dm.customerId, 'offer');
    await dm.client.post(`/handwerk/documents/${offer}/finalise`);
    expect(
      (await dm.client.post(`/handwerk/documents/${offer}/status`, { status: 'accepted' })).body.status,
    ).toBe('accepted');
    const order = await dm.client.post(`/handwerk/documents/${offer}/convert`, { type: 'order' });
    expect(order.body).toMatchObject({ type: 'order', language: 'de', sourceDocumentId: offer });
    const invoice = await dm.client.post(`/handwerk/documents/${order.body.id}/convert`, {
      type: 'invoice',
      language: 'en',
    });
    expect(invoice.body).toMatchObject({
      type: 'invoice',
      language: 'en',
      grossCents: order.body.grossCents,
    });
    const back = await dm.client.post(`/handwerk/documents/${invoice.body.id}/convert`, { type: 'offer' });
    expect(back.status).toBe(422);
    const draftCredit = await dm.client.post(`/handwerk/documents/${invoice.body.id}/convert`, {
      type: 'creditNote',
    });
    expect(draftCredit.body.error.code).toBe('DOCUMENT_NOT_FINALISED');
  });

  it('does not issue a document whose totals do not add up, nor an invoice without complete company details', async () => {
    const dm = await company();
    const empty = await draftOf(dm.client, dm.customerId, 'invoice', []);
    const res = await dm.client.post(`/handwerk/documents/${empty}/finalise`);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('DOCUMENT_TOTALS_INVALID');
    const negative = await draftOf(dm.client, dm.customerId, 'invoice', [line('Nachlass', 1, -500)]);
    expect((await dm.client.post(`/handwerk/documents/${negative}/finalise`)).body.error.code).toBe(
      'DOCUMENT_TOTALS_INVALID',
    );
    // Totals changed behind the lines' back (not through the API) are caught too.
    const tampered = await draftOf(dm.client, dm.customerId);
    await t.server.ctx.db.execute(
      `update sales_documents set gross_cents = gross_cents + 1 where id = '${tampered}'`,
    );
    expect((await dm.client.post(`/handwerk/documents/${tampered}/finalise`)).body.error.code).toBe(
      'DOCUMENT_TOTALS_INVALID',
    );
    // Nothing was numbered: the next invoice is the first.
    const ok = await draftOf(dm.client, dm.customerId);
    expect((await dm.client.post(`/handwerk/documents/${ok}/finalise`)).body.number).toBe(`RE-${year}-0001`);

    const bare = await signedInDataManager(t);
    const customer = await customerOf(bare.client);
    const invoice = await draftOf(bare.client, customer);
    expect((await bare.client.post(`/handwerk/documents/${invoice}/finalise`)).body.error.code).toBe(
      'COMPANY_DETAILS_INCOMPLETE',
    );
  });

  it('numbers without repeats or gaps when many drafts are issued at once', async () => {
    const dm = await company();
    const ids = await Promise.all(Array.from({ length: 8 }, () => draftOf(dm.client, dm.customerId)));
    const other = await t.client();
    await other.post('/auth/login', { email: dm.email, password: dm.password, area: 'user' });
    const results = await Promise.all(
      ids.map((id, i) => (i % 2 ? other : dm.client).post(`/handwerk/documents/${id}/finalise`)),
    );
    expect(results.map((r) => r.status)).toEqual(ids.map(() => 200));
    const numbers = results.map((r) => r.body.number).sort();
    expect(numbers).toEqual(
      Array.from({ length: 8 }, (_, i) => `RE-${year}-${String(i + 1).padStart(4, '0')}`),
    );
  });

  it('lists newest first, filters by type and status, and shows an issued invoice past its due date as overdue', async () => {
    const dm = await company();
    const offer = await draftOf(dm.client, dm.customerId, 'offer');
    const late = await dm.client.post('/handwerk/documents', {
      type: 'invoice',
      customerId: dm.customerId,
      language: 'de',
      title: 'Alt',
      notes: '',
      issueDate: '2025-01-02',
      dueDate: '2025-01-16',
      serviceDate: '2024-12-20',
      lines: [line('Arbeit', 1, 1000)],
    });
    await dm.client.post(`/handwerk/documents/${late.body.id}/finalise`);
    const all = await dm.client.get('/handwerk/documents');
    expect(all.body.items.map((d: { id: string }) => d.id)).toEqual([late.body.id, offer]);
    expect(all.body.items[0]).toMatchObject({ status: 'overdue', number: 'RE-2025-0001' });
    expect((await dm.client.get('/handwerk/documents?status=overdue')).body.total).toBe(1);
    expect((await dm.client.get('/handwerk/documents?status=issued')).body.total).toBe(0);
    expect((await dm.client.get('/handwerk/documents?type=offer')).body.items[0].id).toBe(offer);

    // The dashboard counts issued offers not accepted, and invoices not paid, of which the overdue ones.
    await dm.client.post(`/handwerk/documents/${offer}/finalise`);
    const current = await draftOf(dm.client, dm.customerId);
    await dm.client.post(`/handwerk/documents/${current}/finalise`);
    await draftOf(dm.client, dm.customerId);
    expect((await dm.client.get('/dashboard')).body.sales).toEqual({
      openOffers: 1,
      openOffersCents: 15351,
      unpaidInvoices: 2,
      unpaidCents: 1190 + 15351,
      overdueInvoices: 1,
      overdueCents: 1190,
    });
    // Invoicing the offer accepts it: its amount is counted once, as an unpaid invoice, no longer as an open offer.
    const invoiced = await dm.client.post(`/handwerk/documents/${offer}/convert`, { type: 'invoice' });
    await dm.client.put(`/handwerk/documents/${invoiced.body.id}`, {
      customerId: dm.customerId,
      language: 'de',
      title: 'Heizungswartung',
      notes: '',
      serviceDate: '2026-03-02',
      lines: invoiced.body.lines.map(({ netCents: _n, ...l }: { netCents: number }) => l),
    });
    expect((await dm.client.post(`/handwerk/documents/${invoiced.body.id}/finalise`)).status).toBe(200);
    expect((await dm.client.get(`/handwerk/documents/${offer}`)).body.status).toBe('accepted');
    expect((await dm.client.get('/dashboard')).body.sales).toMatchObject({
      openOffers: 0,
      openOffersCents: 0,
      unpaidInvoices: 3,
      unpaidCents: 1190 + 15351 + 15351,
    });
  });

  it('answers 401 without a session, 403 to an employee, 404 for another company’s document or customer', async () => {
    const dm = await company();
    const id = await draftOf(dm.client, dm.customerId);
    expect((await t.client().get(`/handwerk/documents/${id}`)).status).toBe(401);
    const employee = await signedInAs(t, 'Employee');
    expect((await employee.client.get('/handwerk/documents')).status).toBe(403);
    const other = await company();
    for (const res of [
      await other.client.get(`/handwerk/documents/${id}`),
      await other.client.get(`/handwerk/documents/${id}/pdf`),
      await other.client.post(`/handwerk/documents/${id}/finalise`),
      await other.client.delete(`/handwerk/documents/${id}`),
      await other.client.post(`/handwerk/documents/${id}/convert`, { type: 'order' }),
      // Another company's customer cannot be the buyer.
      await other.client.post('/handwerk/documents', {
        type: 'offer',
        customerId: dm.customerId,
        language: 'de',
        title: '',
        notes: '',
        lines: [],
      }),
    ])
      expect(res.status).toBe(404);
  });
});
