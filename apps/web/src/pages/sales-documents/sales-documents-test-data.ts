import type { Customer, SalesDocument, SalesDocumentSummary } from '@werkwissen/shared';

export const CUSTOMER_ID = '1c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5';

/** A customer as the customers list answers it. */
export function customer(overrides: Partial<Customer> = {}): Customer {
  return {
    id: CUSTOMER_ID,
    name: 'Familie Schneider',
    street: 'Gartenweg 3',
    postalCode: '14467',
    city: 'Potsdam',
    country: 'DE',
    email: 'schneider@example.com',
    phone: '',
    vatId: '',
    buyerReference: '',
    kind: 'private',
    documentCount: 2,
    createdAt: '2026-03-02T08:00:00.000Z',
    ...overrides,
  };
}

/** A whole document as the server answers it, from a list's summary: no lines, no deductions, not issued. */
export function salesDocument(
  summary: SalesDocumentSummary,
  overrides: Partial<SalesDocument> = {},
): SalesDocument {
  return {
    ...summary,
    notes: '',
    serviceDate: null,
    serviceEndDate: null,
    validUntil: null,
    taxTreatment: 'standard',
    propertyService: true,
    cashDiscount: null,
    lines: [],
    taxGroups: [],
    taxCents: summary.grossCents - summary.netCents,
    deductions: [],
    prepaidCents: 0,
    buyer: {
      name: summary.customerName,
      street: 'Gartenweg 3',
      postalCode: '14467',
      city: 'Potsdam',
      country: 'DE',
      email: 'schneider@example.com',
      vatId: '',
      buyerReference: '',
      kind: 'private',
    },
    sourceDocumentId: null,
    sourceType: null,
    sourceNumber: null,
    sourceIssueDate: null,
    finalisedAt: null,
    sentAt: null,
    ...overrides,
  };
}
