import { screen } from '@testing-library/react';
import type { SalesDocumentSummary } from '@werkwissen/shared';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../../test/render.tsx';
import { EInvoiceDownloads } from './e-invoice-downloads.tsx';

const invoice: SalesDocumentSummary = {
  id: '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
  type: 'invoice',
  status: 'sent',
  number: 'RE-2026-0001',
  customerId: '1c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
  customerName: 'Familie Schneider',
  title: 'Heizungswartung',
  language: 'de',
  invoiceKind: 'standard',
  issueDate: '2026-03-02',
  dueDate: '2026-03-16',
  netCents: 17025,
  grossCents: 20260,
  amountDueCents: 20260,
  createdAt: '2026-03-02T08:00:00.000Z',
};

describe('the e-invoice downloads', () => {
  it('link an issued invoice to its XRechnung and Factur-X', async () => {
    renderWithApp(<EInvoiceDownloads document={invoice} />, '/handwerk');
    expect((await screen.findByRole('link', { name: 'Download XRechnung (XML)' })).getAttribute('href')).toBe(
      `/api/v1/handwerk/documents/${invoice.id}/xrechnung.xml`,
    );
    expect(screen.getByRole('link', { name: 'Download ZUGFeRD / Factur-X PDF' }).getAttribute('href')).toBe(
      `/api/v1/handwerk/documents/${invoice.id}/factur-x.pdf`,
    );
  });

  it('are not offered for a draft or an offer', async () => {
    renderWithApp(
      <>
        <EInvoiceDownloads document={{ ...invoice, status: 'draft', number: null }} />
        <EInvoiceDownloads document={{ ...invoice, type: 'offer', number: 'AN-2026-0001' }} />
        <span>rendered</span>
      </>,
      '/handwerk',
    );
    await screen.findByText('rendered');
    expect(screen.queryAllByRole('link')).toEqual([]);
  });
});
