import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAs } from '../../../test/support/factories.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { COMPANY, customerOf, draftOf, line } from './sales-document-fixtures.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

const year = new Date().getUTCFullYear();

/** A data manager's company with an issued invoice at 19 % and 7 %, to a customer with a Leitweg-ID. */
async function issuedInvoice() {
  const dm = await signedInDataManager(t);
  expect((await dm.client.put('/company/details', COMPANY)).status).toBe(200);
  const customerId = await customerOf(dm.client, { buyerReference: '04011000-1234512345-06' });
  const id = await draftOf(dm.client, customerId, 'invoice', [
    line('Wartung Gasbrennwertkessel', 2.5, 6450),
    line('Fachbuch Heizungstechnik', 1, 2388, 7),
  ]);
  expect((await dm.client.post(`/handwerk/documents/${id}/finalise`)).status).toBe(200);
  return { ...dm, id, customerId };
}

describe('e-invoice downloads', () => {
  it('give an issued invoice as XRechnung with its buyer reference and stored totals', async () => {
    const dm = await issuedInvoice();
    const stored = (await dm.client.get(`/handwerk/documents/${dm.id}`)).body;
    const res = await dm.client.get(`/handwerk/documents/${dm.id}/xrechnung.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="RE-${year}-0001-xrechnung.xml"`,
    );
    const xml = String(res.body);
    expect(xml).toContain('urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0');
    expect(xml).toContain('<ram:BuyerReference>04011000-1234512345-06</ram:BuyerReference>');
    expect(xml).toContain(
      `<ram:GrandTotalAmount>${(stored.grossCents / 100).toFixed(2)}</ram:GrandTotalAmount>`,
    );
    expect(xml).toContain(
      `<ram:TaxTotalAmount currencyID="EUR">${(stored.taxCents / 100).toFixed(2)}</ram:TaxTotalAmount>`,
    );
  });

  it('give an issued invoice as Factur-X PDF', async () => {
    const dm = await issuedInvoice();
    const res = await dm.client.get(`/handwerk/documents/${dm.id}/factur-x.pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="RE-${year}-0001-factur-x.pdf"`,
    );
    const pdf = String(res.body);
    expect(pdf.startsWith('%PDF-1.7')).toBe(true);
    expect(pdf).toContain('/AFRelationship /Alternative');
  });

  it('refuse a draft and an offer with their own codes', async () => {
    const dm = await issuedInvoice();
    const draft = await draftOf(dm.client, dm.customerId, 'invoice');
    const draftRes = await dm.client.get(`/handwerk/documents/${draft}/xrechnung.xml`);
    expect(draftRes.status).toBe(409);
    expect(draftRes.body.error.code).toBe('DOCUMENT_NOT_FINALISED');
    const offer = await draftOf(dm.client, dm.customerId, 'offer');
    await dm.client.post(`/handwerk/documents/${offer}/finalise`);
    const offerRes = await dm.client.get(`/handwerk/documents/${offer}/factur-x.pdf`);
    expect(offerRes.status).toBe(409);
    expect(offerRes.body.error.code).toBe('EINVOICE_ONLY_FOR_INVOICES');
  });

  it('answer 401 without a session, 403 to an employee, 404 for another company’s invoice', async () => {
    const dm = await issuedInvoice();
    const employee = await signedInAs(t, 'Employee');
    const other = await signedInDataManager(t);
    for (const format of ['xrechnung.xml', 'factur-x.pdf']) {
      const path = `/handwerk/documents/${dm.id}/${format}`;
      expect((await t.client().get(path)).status).toBe(401);
      expect((await employee.client.get(path)).status).toBe(403);
      expect((await other.client.get(path)).status).toBe(404);
    }
  });
});

describe('sending a document by e-mail on a server without SMTP', () => {
  it('is refused with MAIL_NOT_CONFIGURED before anything is queued', async () => {
    const dm = await issuedInvoice();
    const draft = await dm.client.get(`/handwerk/documents/${dm.id}/mail-draft`);
    expect(draft.status).toBe(409);
    expect(draft.body.error.code).toBe('MAIL_NOT_CONFIGURED');
    const res = await dm.client.post(`/handwerk/documents/${dm.id}/mails`, {
      to: 'schneider@kunde.example',
      subject: 'Rechnung',
      message: 'Anbei.',
      attach: 'facturX',
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('MAIL_NOT_CONFIGURED');
    expect(res.body.error.message).toBe(
      'Der E-Mail-Versand ist auf diesem Server nicht eingerichtet. Bitten Sie den Betreiber, einen SMTP-Server einzutragen.',
    );
    expect((await dm.client.get(`/handwerk/documents/${dm.id}/mails`)).body.items).toEqual([]);
  });
});
