import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/support/api-client.ts';
import {
  type Verdict,
  validateEInvoices,
  validatorMissing,
} from '../../../test/support/einvoice-validator.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { COMPANY, CUSTOMER, customerOf, line } from './sales-document-fixtures.ts';

/**
 * Every kind of e-invoice the product writes, made through the API as a user makes it, checked by the offline
 * EN 16931 / XRechnung validator (the official rule sets, ../shared/vendor/einvoice) with today's and the next rule
 * versions: no document may have a finding of level error. One validator run per rule version checks all of them.
 */

let t: TestServer;
beforeAll(async () => {
  // Fails loudly, here and in CI, with what to install, rather than letting the documents go unchecked.
  const missing = validatorMissing();
  if (missing) throw new Error(missing);
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

/** The bytes of a download (the test client reads bodies as text, which would break a PDF). */
async function bytes(client: ApiClient, path: string): Promise<Buffer> {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(`${t.url}/api/v1${path}`, { headers: { cookie } });
  expect(res.status, path).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

type DocumentBody = Record<string, unknown>;

async function issue(client: ApiClient, body: DocumentBody): Promise<string> {
  const created = await client.post('/handwerk/documents', {
    type: 'invoice',
    language: 'de',
    title: '',
    notes: '',
    serviceDate: '2026-03-02',
    ...body,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return finalise(client, created.body.id);
}

async function finalise(client: ApiClient, id: string): Promise<string> {
  const res = await client.post(`/handwerk/documents/${id}/finalise`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return id;
}

/** Each issued document's XRechnung and Factur-X, by a file name that says what it is. */
async function eInvoicesOf(client: ApiClient, documents: Record<string, string>, withXRechnung = true) {
  const files: Record<string, string | Buffer> = {};
  for (const [name, id] of Object.entries(documents)) {
    if (withXRechnung) {
      const xml = await client.get(`/handwerk/documents/${id}/xrechnung.xml`);
      expect(xml.status, name).toBe(200);
      files[`${name}-xrechnung.xml`] = String(xml.body);
    }
    files[`${name}-factur-x.pdf`] = await bytes(client, `/handwerk/documents/${id}/factur-x.pdf`);
  }
  return files;
}

const errorsOf = (verdicts: Map<string, Verdict>) =>
  Object.fromEntries([...verdicts].map(([name, v]) => [name, v.errors.map((e) => `${e.id}: ${e.text}`)]));

describe('every e-invoice the product writes passes the EN 16931 and XRechnung validator', () => {
  it('invoices, discounts, private customers, cancellations, down payments, § 13b, § 19, Skonto, service periods', async () => {
    const files: Record<string, string | Buffer> = {};

    // A company with complete details (VAT id, register number, e-mail, phone, IBAN).
    const dm = await signedInDataManager(t);
    expect((await dm.client.put('/company/details', COMPANY)).status).toBe(200);
    const business = await customerOf(dm.client, {
      name: 'Bau Schmidt GmbH',
      kind: 'business',
      email: 'rechnung@bau-schmidt.example',
      vatId: 'DE811000004',
      buyerReference: '04011000-1234512345-06',
    });
    const consumer = await customerOf(dm.client, { kind: 'private' });
    const consumerWithoutEmail = await customerOf(dm.client, { kind: 'private', email: '' });

    const normal = await issue(dm.client, {
      customerId: business,
      lines: [line('Wartung Gasbrennwertkessel', 2.5, 6450), line('Fachbuch Heizungstechnik', 1, 2388, 7)],
    });
    const discounted = await issue(dm.client, {
      customerId: consumer,
      lines: [
        { ...line('Thermostatkopf', 4, 3990), unit: 'Stk', discountPercent: 12.5 },
        line('Arbeit', 1.5, 6450),
      ],
    });
    const skonto = await issue(dm.client, {
      customerId: business,
      cashDiscount: { percent: 2, days: 10 },
      lines: [line('Heizkörper Typ 22 tauschen', 2, 28900)],
    });
    const period = await issue(dm.client, {
      customerId: business,
      serviceDate: '2026-02-02',
      serviceEndDate: '2026-02-27',
      lines: [line('Baustellenbetreuung', 40, 6450)],
    });
    const reverseCharge = await issue(dm.client, {
      customerId: business,
      taxTreatment: 'reverseCharge',
      lines: [line('Estrich verlegen', 12, 5200)],
    });
    const privateWithoutEmail = await issue(dm.client, {
      customerId: consumerWithoutEmail,
      lines: [line('Reparatur Mischbatterie', 1, 8900)],
    });
    // The cancellation invoice of the first invoice.
    const cancellation = await dm.client.post(`/handwerk/documents/${normal}/convert`, {
      type: 'creditNote',
    });
    expect(cancellation.status).toBe(201);
    await finalise(dm.client, cancellation.body.id);

    // A job: an offer, a 30 % down payment (paid), and the final invoice that deducts it.
    const offer = await dm.client.post('/handwerk/documents', {
      type: 'offer',
      customerId: consumer,
      language: 'de',
      title: 'Badsanierung',
      notes: 'Dieses Angebot ist 30 Tage gültig.',
      validUntil: '2026-04-01',
      lines: [
        line('Fliesen verlegen', 18, 4500),
        line('Sanitärmontage', 16, 6450),
        line('Fachbuch', 1, 2388, 7),
      ],
    });
    await finalise(dm.client, offer.body.id);
    const downPayment = await dm.client.post(`/handwerk/documents/${offer.body.id}/convert`, {
      type: 'invoice',
      invoiceKind: 'downPayment',
      downPaymentPercent: 30,
    });
    expect(downPayment.body).toMatchObject({ invoiceKind: 'downPayment', title: '', notes: '' });
    await finalise(dm.client, downPayment.body.id);
    expect(
      (await dm.client.post(`/handwerk/documents/${downPayment.body.id}/status`, { status: 'paid' })).status,
    ).toBe(200);
    const finalInvoice = await dm.client.post(`/handwerk/documents/${offer.body.id}/convert`, {
      type: 'invoice',
      invoiceKind: 'final',
    });
    await dm.client.put(`/handwerk/documents/${finalInvoice.body.id}`, {
      customerId: consumer,
      language: 'de',
      title: '',
      notes: '',
      serviceDate: '2026-03-20',
      lines: finalInvoice.body.lines.map(({ netCents: _n, ...l }: { netCents: number }) => l),
    });
    await finalise(dm.client, finalInvoice.body.id);

    Object.assign(
      files,
      await eInvoicesOf(dm.client, {
        normal,
        discounted,
        skonto,
        period,
        reverseCharge,
        cancellation: cancellation.body.id,
        downPayment: downPayment.body.id,
        final: finalInvoice.body.id,
      }),
      // An XRechnung needs the buyer's electronic address; without one the product writes Factur-X only.
      await eInvoicesOf(dm.client, { privateWithoutEmail }, false),
    );
    const refused = await dm.client.get(`/handwerk/documents/${privateWithoutEmail}/xrechnung.xml`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('EINVOICE_BUYER_ADDRESS_MISSING');

    // A small business under § 19 UStG, with a tax number and a register entry but no VAT id.
    const small = await signedInDataManager(t);
    expect(
      (await small.client.put('/company/details', { ...COMPANY, vatId: '', smallBusiness: true })).status,
    ).toBe(200);
    const smallCustomer = await customerOf(small.client, { ...CUSTOMER, kind: 'private' });
    const smallBusiness = await issue(small.client, {
      customerId: smallCustomer,
      lines: [line('Fenster streichen', 6, 4200)],
    });
    Object.assign(files, await eInvoicesOf(small.client, { smallBusiness }));

    // What each kind claims is in its XML, not just something valid.
    const xml = (name: string) => String(files[`${name}-xrechnung.xml`]);
    expect(xml('normal')).toContain('<udt:DateTimeString format="102">20260302</udt:DateTimeString>');
    expect(xml('normal')).toContain('<ram:ActualDeliverySupplyChainEvent>');
    expect(xml('discounted')).toMatch(
      /<ram:CalculationPercent>12\.5<\/ram:CalculationPercent>\s*<ram:BasisAmount>159\.60<\/ram:BasisAmount>/,
    );
    expect(xml('skonto')).toContain('#SKONTO#TAGE=10#PROZENT=2.00#\n');
    expect(xml('period')).toMatch(/<ram:BillingSpecifiedPeriod>\s*<ram:StartDateTime>/);
    expect(xml('reverseCharge')).toContain('<ram:CategoryCode>AE</ram:CategoryCode>');
    expect(xml('reverseCharge')).toContain('<ram:ExemptionReasonCode>VATEX-EU-AE</ram:ExemptionReasonCode>');
    expect(xml('reverseCharge')).toContain('<ram:ID schemeID="VA">DE811000004</ram:ID>');
    expect(xml('cancellation')).toContain('<ram:TypeCode>381</ram:TypeCode>');
    expect(xml('cancellation')).toMatch(/<ram:InvoiceReferencedDocument>\s*<ram:IssuerAssignedID>RE-/);
    expect(xml('downPayment')).toContain('<ram:TypeCode>326</ram:TypeCode>');
    expect(xml('final')).toContain('<ram:TotalPrepaidAmount>');
    expect(xml('smallBusiness')).toContain('<ram:CategoryCode>E</ram:CategoryCode>');
    expect(xml('smallBusiness')).toContain(
      '<ram:ExemptionReason>Kleinunternehmer gemäß § 19 UStG</ram:ExemptionReason>',
    );
    expect(xml('smallBusiness')).toContain('<ram:SpecifiedLegalOrganization>');
    expect(xml('smallBusiness')).not.toContain('schemeID="VA"');

    // The validator does refuse: the first invoice without the seller's electronic address (PEPPOL-EN16931-R020).
    files['control-no-seller-address-xrechnung.xml'] = xml('normal').replace(
      /<ram:URIUniversalCommunication>\s*<ram:URIID schemeID="EM">buero@[^<]*<\/ram:URIID>\s*<\/ram:URIUniversalCommunication>/,
      '',
    );

    for (const next of [false, true]) {
      const verdicts = await validateEInvoices(files, { next });
      expect([...verdicts.keys()].sort()).toEqual(Object.keys(files).sort());
      const control = verdicts.get('control-no-seller-address-xrechnung.xml')!;
      expect(control.errors.map((e) => e.id)).toContain('PEPPOL-EN16931-R020');
      verdicts.delete('control-no-seller-address-xrechnung.xml');
      expect(errorsOf(verdicts), next ? 'next rule versions' : 'rule versions in force').toEqual(
        Object.fromEntries([...verdicts.keys()].map((name) => [name, []])),
      );
    }
  }, 300_000);
});
