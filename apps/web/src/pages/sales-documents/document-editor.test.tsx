import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { customerContracts, type SalesDocument, salesDocumentContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, page } from '../../test/fake-api.ts';
import { renderWithApp } from '../../test/render.tsx';
import { DocumentEditor } from './document-editor.tsx';
import { CUSTOMER_ID, customer, salesDocument } from './sales-documents-test-data.ts';

afterEach(() => vi.unstubAllGlobals());

const source = {
  fileId: '2c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
  fileName: 'Preisliste.docx',
  passageId: '3c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
  excerpt: 'Anfahrt je km 0,85 €',
};
const draft: SalesDocument = salesDocument(
  {
    id: '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
    type: 'offer',
    status: 'draft',
    number: null,
    customerId: CUSTOMER_ID,
    customerName: 'Familie Schneider',
    title: 'Heizungswartung',
    language: 'de',
    invoiceKind: 'standard',
    issueDate: '2026-03-02',
    dueDate: null,
    netCents: 2125,
    grossCents: 2529,
    amountDueCents: 2529,
    createdAt: '2026-03-02T08:00:00.000Z',
  },
  {
    lines: [
      {
        description: 'Anfahrt',
        quantity: 25,
        unit: 'km',
        unitPriceCents: 85,
        discountPercent: 0,
        taxRate: 19,
        source,
        netCents: 2125,
      },
    ],
  },
);

const OTHER_CUSTOMER = '4c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5';

/** The server: the draft, the company's two customers, and every call noted. */
function stubServer(document: SalesDocument = draft) {
  return fakeApi()
    .on(customerContracts.list, () =>
      page([customer(), customer({ id: OTHER_CUSTOMER, name: 'Bäckerei Kunz' })], 100),
    )
    .on(salesDocumentContracts.get, () => document)
    .on(salesDocumentContracts.update, () => document);
}

describe('the document editor', () => {
  it('changes the customer, language, title, dates and notes of a draft', async () => {
    const api = stubServer();
    renderWithApp(<DocumentEditor documentId={draft.id} onClose={() => {}} />, '/handwerk');
    const dialog = await screen.findByRole('dialog');
    const customer = await within(dialog).findByRole('combobox', { name: 'Customer' });
    await waitFor(() => expect(customer.textContent).toBe('Familie Schneider'));
    fireEvent.mouseDown(customer);
    fireEvent.click(await screen.findByRole('option', { name: 'Bäckerei Kunz' }));
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Document language' }));
    fireEvent.click(await screen.findByRole('option', { name: 'English' }));
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Title' }), {
      target: { value: 'Bakery oven' },
    });
    fireEvent.change(within(dialog).getByLabelText('Date'), { target: { value: '' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Notes on the document' }), {
      target: { value: 'Payable within 14 days.' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.calls(salesDocumentContracts.update).length).toBeGreaterThan(0));
    expect(api.calls(salesDocumentContracts.update)[0]!.body).toMatchObject({
      customerId: OTHER_CUSTOMER,
      language: 'en',
      title: 'Bakery oven',
      issueDate: null,
      dueDate: null,
      notes: 'Payable within 14 days.',
    });
  });

  it('takes an invoice’s service period, reverse charge, property work and cash discount', async () => {
    const invoice: SalesDocument = { ...draft, type: 'invoice' };
    const api = stubServer(invoice);
    renderWithApp(<DocumentEditor documentId={draft.id} onClose={() => {}} />, '/handwerk');
    const dialog = await screen.findByRole('dialog');
    // An invoice has no offer validity; it has the service date § 14 UStG asks for.
    expect(within(dialog).queryByLabelText('Offer valid until')).toBeNull();
    fireEvent.change(await within(dialog).findByLabelText('Service date / start of the service period'), {
      target: { value: '2026-02-02' },
    });
    fireEvent.change(within(dialog).getByLabelText('End of the service period (optional)'), {
      target: { value: '2026-02-27' },
    });
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'VAT' }));
    fireEvent.click(
      await screen.findByRole('option', {
        name: 'Reverse charge (§ 13b UStG, construction work for a construction business)',
      }),
    );
    fireEvent.click(
      within(dialog).getByLabelText(
        'Work on a property or building (private customers are told to keep the invoice for two years)',
      ),
    );
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Cash discount (%)' }), {
      target: { value: '2,5' },
    });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Cash discount if paid within (days)' }), {
      target: { value: '10' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.calls(salesDocumentContracts.update).length).toBeGreaterThan(0));
    expect(api.calls(salesDocumentContracts.update)[0]!.body).toMatchObject({
      serviceDate: '2026-02-02',
      serviceEndDate: '2026-02-27',
      validUntil: null,
      taxTreatment: 'reverseCharge',
      propertyService: false,
      cashDiscount: { percent: 2.5, days: 10 },
    });
  });

  it('shows each line’s source, recomputes the totals as the user types, and saves the lines', async () => {
    const api = stubServer();
    renderWithApp(<DocumentEditor documentId={draft.id} onClose={() => {}} />, '/handwerk');
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('From Preisliste.docx: “Anfahrt je km 0,85 €”');
    const totals = within(screen.getByTestId('document-totals'));
    expect(totals.getByText('Total: €25.29')).toBeTruthy();

    // 30 km: 25.50 € net, 4.845 € tax rounded once to 4.85 €.
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Qty 1' }), { target: { value: '30' } });
    await totals.findByText('Total: €30.35');
    expect(totals.getByText('VAT 19 % on €25.50: €4.85')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Add line' }));
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Description 2' }), {
      target: { value: 'Fachbuch' },
    });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Unit price 2' }), {
      target: { value: '10,00' },
    });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'VAT % 2' }), { target: { value: '7' } });
    await totals.findByText('Total: €41.05');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.calls(salesDocumentContracts.update).length).toBeGreaterThan(0));
    const body = api.calls(salesDocumentContracts.update)[0]!.body;
    expect(body.lines).toEqual([
      {
        description: 'Anfahrt',
        quantity: 30,
        unit: 'km',
        unitPriceCents: 85,
        discountPercent: 0,
        taxRate: 19,
        source,
      },
      {
        description: 'Fachbuch',
        quantity: 1,
        unit: '',
        unitPriceCents: 1000,
        discountPercent: 0,
        taxRate: 7,
        source: null,
      },
    ]);
  });
});
