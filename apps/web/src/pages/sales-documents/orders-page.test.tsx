import { screen, waitFor } from '@testing-library/react';
import { type SalesDocumentSummary, salesDocumentContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, page } from '../../test/fake-api.ts';
import { renderWithApp } from '../../test/render.tsx';
import OrdersPage from './orders-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const order: SalesDocumentSummary = {
  id: '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
  type: 'order',
  status: 'sent',
  number: 'AB-2026-0001',
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

describe('the orders page', () => {
  it('asks the server for order confirmations only and offers to accept and invoice them', async () => {
    const api = fakeApi().on(salesDocumentContracts.list, () => page([order]));
    renderWithApp(<OrdersPage />, '/order');
    expect(await screen.findByRole('heading', { name: 'Order confirmations' })).toBeTruthy();
    await screen.findByText('AB-2026-0001');
    await waitFor(() => expect(api.calls(salesDocumentContracts.list).length).toBeGreaterThan(0));
    const { url } = api.calls(salesDocumentContracts.list)[0]!;
    expect(url.pathname).toBe('/api/v1/handwerk/documents');
    expect(url.searchParams.get('type')).toBe('order');
    expect(screen.getByRole('button', { name: 'Mark accepted' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Turn into invoice' })).toBeTruthy();
  });
});
