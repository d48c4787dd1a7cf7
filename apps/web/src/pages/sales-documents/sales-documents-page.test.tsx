import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { customerContracts, type SalesDocumentSummary, salesDocumentContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, page } from '../../test/fake-api.ts';
import { renderWithApp } from '../../test/render.tsx';
import SalesDocumentsPage from './sales-documents-page.tsx';
import { CUSTOMER_ID, customer, salesDocument } from './sales-documents-test-data.ts';

afterEach(() => vi.unstubAllGlobals());

const offer: SalesDocumentSummary = {
  id: '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
  type: 'offer',
  status: 'sent',
  number: 'AN-2026-0001',
  customerId: CUSTOMER_ID,
  customerName: 'Familie Schneider',
  title: 'Heizungswartung',
  language: 'de',
  invoiceKind: 'standard',
  issueDate: '2026-03-02',
  dueDate: null,
  netCents: 17025,
  grossCents: 20260,
  amountDueCents: 20260,
  createdAt: '2026-03-02T08:00:00.000Z',
};

const invoice: SalesDocumentSummary = {
  ...offer,
  id: '2c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
  type: 'invoice',
  status: 'overdue',
  number: 'RE-2026-0001',
};
const draft: SalesDocumentSummary = {
  ...offer,
  id: '3c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
  status: 'draft',
  number: null,
  customerName: 'Bäckerei Kunz',
};

const line = {
  description: 'Wartung Gasbrennwertkessel',
  quantity: 1,
  unit: 'pauschal',
  unitPriceCents: 14900,
  discountPercent: 0,
  taxRate: 19,
  source: null,
  netCents: 14900,
};

function stubServer(documents: SalesDocumentSummary[] = [offer]) {
  return fakeApi()
    .on(salesDocumentContracts.list, () => page(documents))
    .on(customerContracts.list, () => page([customer()], 100))
    .on(salesDocumentContracts.convert, () =>
      salesDocument({
        ...offer,
        id: '5c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
        type: 'invoice',
        status: 'draft',
        number: null,
      }),
    )
    .on(salesDocumentContracts.setStatus, () => salesDocument({ ...invoice, status: 'paid' }))
    .on(salesDocumentContracts.remove, () => null)
    .on(salesDocumentContracts.draftOffer, () => salesDocument(offer, { lines: [line, line] }));
}

// MUI renders slowly in happy-dom when the whole suite shares the processor.
describe('the offers and invoices page', () => {
  it('lists the documents with their PDF and turns an offer into an invoice in the chosen language', async () => {
    const api = stubServer();
    renderWithApp(<SalesDocumentsPage />, '/handwerk');
    await screen.findByText('AN-2026-0001');
    expect(screen.getByText('Offer')).toBeTruthy();
    expect(screen.getByText('Sent')).toBeTruthy();
    expect(screen.getByText('€202.60')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download PDF' }).getAttribute('href')).toBe(
      `/api/v1/handwerk/documents/${offer.id}/pdf`,
    );
    // An issued offer is not issued again.
    expect(screen.queryByRole('button', { name: 'Issue' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Turn into invoice' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Document language' }));
    fireEvent.click(await screen.findByRole('option', { name: 'English' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Turn into invoice' }));
    await waitFor(() => expect(api.calls(salesDocumentContracts.convert).length).toBeGreaterThan(0));
    const convert = api.calls(salesDocumentContracts.convert)[0]!;
    expect({ url: convert.url.pathname, body: convert.body }).toMatchObject({
      url: `/api/v1/handwerk/documents/${offer.id}/convert`,
      body: { type: 'invoice', language: 'en' },
    });
  });

  it('turns an offer into a down-payment invoice of a share, and offers to mark an issued invoice paid', async () => {
    const issued: SalesDocumentSummary = { ...invoice, status: 'issued', number: 'RE-2026-0002' };
    const cancelled: SalesDocumentSummary = {
      ...invoice,
      id: '4c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
      status: 'cancelled',
      number: 'RE-2026-0003',
    };
    const api = stubServer([offer, issued, cancelled]);
    renderWithApp(<SalesDocumentsPage />, '/handwerk');
    await screen.findByText('RE-2026-0002');
    expect(screen.getByText('Issued')).toBeTruthy();
    // The issued invoice may be paid or cancelled; the cancelled one neither.
    expect(screen.getAllByRole('button', { name: 'Mark paid' })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'Cancel (cancellation invoice)' })).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: 'Turn into invoice' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Kind of invoice' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Down-payment invoice' }));
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Down payment as % of the net amount' }), {
      target: { value: '40' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Turn into invoice' }));
    await waitFor(() => expect(api.calls(salesDocumentContracts.convert).length).toBeGreaterThan(0));
    expect(api.calls(salesDocumentContracts.convert)[0]?.body).toEqual({
      type: 'invoice',
      language: 'de',
      invoiceKind: 'downPayment',
      downPaymentPercent: 40,
    });
  });

  it('marks an overdue invoice paid, starts its credit note, and deletes a draft after confirmation', async () => {
    const api = stubServer([invoice, draft]);
    renderWithApp(<SalesDocumentsPage />, '/handwerk');
    await screen.findByText('RE-2026-0001');
    // An invoice is neither accepted nor turned into an invoice; a draft has no cancellation invoice.
    expect(screen.queryByRole('button', { name: 'Mark accepted' })).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Cancel (cancellation invoice)' })).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: 'Mark paid' }));
    await waitFor(() => expect(api.calls(salesDocumentContracts.setStatus).length).toBeGreaterThan(0));
    const status = api.calls(salesDocumentContracts.setStatus)[0]!;
    expect({ url: status.url.pathname, body: status.body }).toMatchObject({
      url: `/api/v1/handwerk/documents/${invoice.id}/status`,
      body: { status: 'paid' },
    });
    expect(await screen.findByText('RE-2026-0001 is now “Paid”.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Cancel (cancellation invoice)' }));
    await waitFor(() => expect(api.calls(salesDocumentContracts.convert).length).toBeGreaterThan(0));
    expect(api.calls(salesDocumentContracts.convert)[0]?.body).toEqual({ type: 'creditNote' });

    fireEvent.click(screen.getByRole('button', { name: 'Delete draft' }));
    const confirm = await screen.findByRole('dialog');
    expect(confirm.textContent).toContain('The draft for Bäckerei Kunz will be deleted.');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete draft' }));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'DELETE')).toBe(true));
    expect(api.requests.find((r) => r.method === 'DELETE')?.url).toBe(
      `/api/v1/handwerk/documents/${draft.id}`,
    );
  });

  it('drafts an offer from the job’s description for a customer', async () => {
    const api = stubServer();
    renderWithApp(<SalesDocumentsPage />, '/handwerk');
    await screen.findByText('AN-2026-0001');
    fireEvent.click(screen.getByRole('button', { name: 'Draft offer' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Customer' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Familie Schneider' }));
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'The job' }), {
      target: { value: 'Heizungswartung Gasbrennwertkessel, Anfahrt 25 km' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Draft' }));
    await waitFor(() => expect(api.calls(salesDocumentContracts.draftOffer).length).toBeGreaterThan(0));
    expect(api.calls(salesDocumentContracts.draftOffer)[0]?.body).toEqual({
      customerId: offer.customerId,
      language: 'en',
      description: 'Heizungswartung Gasbrennwertkessel, Anfahrt 25 km',
    });
    expect(await screen.findByText('Offer drafted with 2 lines from your price lists.')).toBeTruthy();
  });
});
