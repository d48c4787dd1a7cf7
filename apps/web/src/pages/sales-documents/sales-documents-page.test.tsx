import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { SalesDocumentSummary } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../test/render.tsx';
import SalesDocumentsPage from './sales-documents-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const offer: SalesDocumentSummary = {
  id: '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
  type: 'offer',
  status: 'sent',
  number: 'AN-2026-0001',
  customerId: '1c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
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

function stubServer(documents: SalesDocumentSummary[] = [offer]) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : null });
      if (url.startsWith('/api/v1/handwerk/documents?'))
        return Response.json({ items: documents, total: documents.length, page: 1, pageSize: 10 });
      if (url.startsWith('/api/v1/handwerk/customers'))
        return Response.json({
          items: [{ id: offer.customerId, name: 'Familie Schneider' }],
          total: 1,
          page: 1,
          pageSize: 100,
        });
      if (url.endsWith('/convert'))
        return Response.json(
          { ...offer, id: 'new', type: 'invoice', status: 'draft', number: null },
          { status: 201 },
        );
      if (url.endsWith('/status')) return Response.json({ ...invoice, status: 'paid', lines: [] });
      if (method === 'DELETE') return new Response(null, { status: 204 });
      if (url.endsWith('/drafted-offers'))
        return Response.json({ ...offer, lines: [{}, {}] }, { status: 201 });
      return Response.json({ error: { code: 'NOT_FOUND', message: 'Not found.' } }, { status: 404 });
    }),
  );
  return calls;
}

// MUI renders slowly in happy-dom when the whole suite shares the processor.
describe('the offers and invoices page', { timeout: 20_000 }, () => {
  it('lists the documents with their PDF and turns an offer into an invoice in the chosen language', async () => {
    const calls = stubServer();
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
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/convert'))).toBe(true));
    expect(calls.find((c) => c.url.endsWith('/convert'))).toMatchObject({
      method: 'POST',
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
    const calls = stubServer([offer, issued, cancelled]);
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
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/convert'))).toBe(true));
    expect(calls.find((c) => c.url.endsWith('/convert'))?.body).toEqual({
      type: 'invoice',
      language: 'de',
      invoiceKind: 'downPayment',
      downPaymentPercent: 40,
    });
  });

  it('marks an overdue invoice paid, starts its credit note, and deletes a draft after confirmation', async () => {
    const calls = stubServer([invoice, draft]);
    renderWithApp(<SalesDocumentsPage />, '/handwerk');
    await screen.findByText('RE-2026-0001');
    // An invoice is neither accepted nor turned into an invoice; a draft has no cancellation invoice.
    expect(screen.queryByRole('button', { name: 'Mark accepted' })).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Cancel (cancellation invoice)' })).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: 'Mark paid' }));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/status'))).toBe(true));
    expect(calls.find((c) => c.url.endsWith('/status'))).toMatchObject({
      method: 'POST',
      url: `/api/v1/handwerk/documents/${invoice.id}/status`,
      body: { status: 'paid' },
    });
    expect(await screen.findByText('RE-2026-0001 is now “Paid”.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Cancel (cancellation invoice)' }));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/convert'))).toBe(true));
    expect(calls.find((c) => c.url.endsWith('/convert'))?.body).toEqual({ type: 'creditNote' });

    fireEvent.click(screen.getByRole('button', { name: 'Delete draft' }));
    const confirm = await screen.findByRole('dialog');
    expect(confirm.textContent).toContain('The draft for Bäckerei Kunz will be deleted.');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete draft' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe(`/api/v1/handwerk/documents/${draft.id}`);
  });

  it('drafts an offer from the job’s description for a customer', async () => {
    const calls = stubServer();
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
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/drafted-offers'))).toBe(true));
    expect(calls.find((c) => c.url.endsWith('/drafted-offers'))?.body).toEqual({
      customerId: offer.customerId,
      language: 'en',
      description: 'Heizungswartung Gasbrennwertkessel, Anfahrt 25 km',
    });
    expect(await screen.findByText('Offer drafted with 2 lines from your price lists.')).toBeTruthy();
  });
});
