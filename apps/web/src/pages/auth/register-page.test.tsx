import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-api.ts';
import { renderWithApp, useLanguage } from '../../test/render.tsx';
import RegisterPage, { lookupCountry } from './register-page.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('the registration form', () => {
  it('requires the terms and matching passwords, with the spec texts', async () => {
    const api = fakeApi();
    renderWithApp(<RegisterPage />, '/register');
    fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'sicher-Pass-1' } });
    fireEvent.input(screen.getByLabelText('Confirm password'), { target: { value: 'sicher-Pass-2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    await screen.findByText('You must accept the terms and conditions to proceed.');
    await screen.findByText('New password and confirm password do not match.');
    expect(api.requests).toEqual([]);
  });
});

// Opening the country list renders every country with its flag: 6-13 s in the unit pass beside the others, 23 s once.
describe('the phone field', () => {
  it("shows the chosen country's flag and names it in the interface language", async () => {
    fakeApi();
    await useLanguage('de');
    renderWithApp(<RegisterPage />, '/register');
    const flag = screen.getByRole('button', { name: 'Deutschland, Land auswählen' });
    expect(flag.textContent).toBe('🇩🇪');
    expect(flag.querySelector('svg')).toBeNull();
    expect(screen.queryByRole('button', { name: /Open flags menu/ })).toBeNull();

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Land' }));
    fireEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Österreich' }));
    const austria = await screen.findByRole('button', { name: 'Österreich, Land auswählen' });
    expect(austria.textContent).toBe('🇦🇹');
  });
});

// The lookup asks a third-party service (IP_COUNTRY_LOOKUP_URL), not the API: a hand stub speaks its reply.
describe('country detection (spec section 7)', () => {
  it('reads the two-letter code from a reply that starts with 1', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('1;DE;DEU;Germany')),
    );
    await expect(lookupCountry('https://lookup.example/')).resolves.toBe('DE');
  });

  it('fails with "unable to fetch the country" otherwise', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('0;;;')),
    );
    await expect(lookupCountry('https://lookup.example/')).rejects.toThrow('unable to fetch the country');
  });
});
