import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { customerContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi, page } from '../../test/fake-api.ts';
import { renderWithApp } from '../../test/render.tsx';
import { CustomersTable } from './customers-table.tsx';
import { customer as customerFixture } from './sales-documents-test-data.ts';

afterEach(() => vi.unstubAllGlobals());

const customer = customerFixture();

function stubServer() {
  return fakeApi()
    .on(customerContracts.list, () => page([customer]))
    .on(customerContracts.update, () => ({ ...customer, city: 'Berlin' }))
    .on(customerContracts.remove, () =>
      apiError(409, 'CUSTOMER_IN_USE', 'This customer has offers or invoices and stays.'),
    );
}

describe('the customers list', () => {
  it('changes a customer in the dialog and sends only the fields of the form', async () => {
    const api = stubServer();
    renderWithApp(<CustomersTable />, '/handwerk');
    await screen.findByText('14467 Potsdam');
    fireEvent.click(screen.getByRole('button', { name: 'Edit customer: Familie Schneider' }));
    const dialog = await screen.findByRole('dialog');
    const city = within(dialog).getByRole('textbox', { name: 'City' }) as HTMLInputElement;
    expect(city.value).toBe('Potsdam');
    fireEvent.change(city, { target: { value: 'Berlin' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Postal code' }), {
      target: { value: '10115' },
    });
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Type of customer' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Business customer' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.calls(customerContracts.update)).toHaveLength(1));
    const put = api.last(customerContracts.update)!;
    expect({ url: put.url.pathname, body: put.body }).toEqual({
      url: `/api/v1/handwerk/customers/${customer.id}`,
      body: {
        name: 'Familie Schneider',
        street: 'Gartenweg 3',
        postalCode: '10115',
        city: 'Berlin',
        country: 'DE',
        email: 'schneider@example.com',
        phone: '',
        vatId: '',
        buyerReference: '',
        kind: 'business',
      },
    });
  });

  it("asks before deleting, and shows the server's refusal of a customer with documents", async () => {
    const api = stubServer();
    renderWithApp(<CustomersTable />, '/handwerk');
    await screen.findByText('14467 Potsdam');
    fireEvent.click(screen.getByRole('button', { name: 'Delete customer: Familie Schneider' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Familie Schneider will be deleted.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete customer' }));
    await waitFor(() => expect(api.calls(customerContracts.remove)).toHaveLength(1));
    expect(
      await screen.findByText('This customer still has offers or invoices and cannot be deleted.'),
    ).toBeTruthy();
  });
});
