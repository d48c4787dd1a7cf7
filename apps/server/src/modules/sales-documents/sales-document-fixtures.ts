import { documentTotals, type SalesDocument } from '@werkwissen/shared';
import type { ApiClient } from '../../../test/support/api-client.ts';

/** Test data of the /handwerk tests: complete company details, a customer, lines. */
export const COMPANY = {
  name: 'Müller Haustechnik GmbH',
  website: '',
  street: 'Hauptstraße 12',
  postalCode: '10115',
  city: 'Berlin',
  country: 'DE',
  phone: '+49 30 1234567',
  email: 'buero@mueller-haustechnik.example',
  vatId: 'DE136695976',
  taxNumber: '27/123/45678',
  standardTaxRate: 19,
  registerNumber: 'HRB 12345 B',
  registryCourt: 'Amtsgericht Charlottenburg',
  managingDirector: 'Jörg Müller',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
  smallBusiness: false,
};

export const CUSTOMER = {
  name: 'Familie Schneider',
  street: 'Lindenweg 4',
  postalCode: '14467',
  city: 'Potsdam',
  country: 'DE',
  email: 'schneider@kunde.example',
  phone: '',
  vatId: '',
  buyerReference: '991-01234-44',
};

export const line = (description: string, quantity: number, unitPriceCents: number, taxRate = 19) => ({
  description,
  quantity,
  unit: 'h',
  unitPriceCents,
  discountPercent: 0,
  taxRate,
});

export async function customerOf(
  client: ApiClient,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const res = await client.post('/handwerk/customers', { ...CUSTOMER, ...overrides });
  if (res.status !== 201) throw new Error(`customer: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

export async function draftOf(
  client: ApiClient,
  customerId: string,
  type: 'offer' | 'order' | 'invoice' = 'invoice',
  lines = [line('Wartung Gasbrennwertkessel', 2, 6450)],
): Promise<string> {
  const res = await client.post('/handwerk/documents', {
    type,
    customerId,
    language: 'de',
    title: 'Heizungswartung',
    notes: '',
    // § 14 (4) no. 6 UStG: an invoice names when the work was done.
    ...(type === 'invoice' ? { serviceDate: '2026-03-02' } : {}),
    lines,
  });
  if (res.status !== 201) throw new Error(`document: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** An issued invoice as the API presents it: lines at 19 % and 7 %, the first with a discount. */
export function issuedInvoice(language: string, lineCount: number): SalesDocument {
  const lines = Array.from({ length: lineCount }, (_, i) => ({
    description: `Position ${i + 1}`,
    quantity: 1.5,
    unit: 'h',
    unitPriceCents: 6450,
    discountPercent: i === 0 ? 10 : 0,
    taxRate: i % 2 ? 7 : 19,
    source: null,
  }));
  const totals = documentTotals(lines);
  return {
    id: '00000000-0000-4000-8000-000000000001',
    type: 'invoice',
    status: 'issued',
    number: 'RE-2026-0042',
    customerId: '00000000-0000-4000-8000-000000000002',
    customerName: 'Familie Schneider',
    title: 'Heizungswartung',
    language: language as SalesDocument['language'],
    invoiceKind: 'standard',
    issueDate: '2026-03-02',
    dueDate: '2026-03-16',
    netCents: totals.netCents,
    grossCents: totals.grossCents,
    amountDueCents: totals.grossCents,
    createdAt: '2026-03-02T08:00:00.000Z',
    notes: '',
    serviceDate: '2026-02-27',
    serviceEndDate: null,
    validUntil: null,
    taxTreatment: 'standard',
    propertyService: true,
    cashDiscount: null,
    deductions: [],
    prepaidCents: 0,
    lines: lines.map((l, i) => ({ ...l, netCents: totals.lineNetCents[i]! })),
    taxGroups: totals.taxGroups,
    taxCents: totals.taxCents,
    buyer: {
      name: 'Familie Schneider',
      street: 'Lindenweg 4',
      postalCode: '14467',
      city: 'Potsdam',
      country: 'DE',
      email: '',
      vatId: '',
      buyerReference: '991-01234-44',
      kind: 'private',
    },
    sourceDocumentId: null,
    sourceType: null,
    sourceNumber: null,
    sourceIssueDate: null,
    finalisedAt: '2026-03-02T08:00:00.000Z',
    sentAt: null,
  };
}
