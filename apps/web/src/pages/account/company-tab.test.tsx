import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type CompanyDetails, companyBrandingContracts, companyDetailsContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../test/fake-api.ts';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { CompanyTab } from './company-tab.tsx';

afterEach(() => vi.unstubAllGlobals());

const stored: CompanyDetails = {
  name: 'Müller Haustechnik GmbH',
  website: '',
  street: 'Hauptstraße 12',
  postalCode: '10115',
  city: 'Berlin',
  country: 'DE',
  phone: '',
  email: '',
  vatId: '',
  taxNumber: '',
  standardTaxRate: 19,
  registerNumber: '',
  registryCourt: '',
  managingDirector: '',
  iban: '',
  bic: '',
  smallBusiness: false,
  missing: ['taxId', 'legalId', 'email', 'phone', 'iban'],
  complete: false,
  updatedAt: null,
};

function stubServer() {
  let savedColor: string | null = null;
  const api = fakeApi()
    .on(companyDetailsContracts.save, ({ body }) => ({
      ...stored,
      ...body,
      missing: [],
      complete: true,
      updatedAt: null,
    }))
    .on(companyDetailsContracts.get, () => stored)
    .on(companyBrandingContracts.setBrandColor, ({ body: { brandColor } }) => {
      if (brandColor === '#ffcc00')
        return apiError(
          422,
          'BRAND_COLOR_LOW_CONTRAST',
          'This colour is too light (contrast 1.5:1, at least 4.5:1 needed).',
          {
            contrast: '1.5',
            min: 4.5,
          },
        );
      savedColor = brandColor;
      return { logo: null, brandColor, defaultDocument: null };
    })
    .on(companyBrandingContracts.get, () => ({ logo: null, brandColor: savedColor, defaultDocument: null }));
  return () => api.calls(companyDetailsContracts.save).map((call) => call.body);
}

describe('the company details tab', () => {
  it('shows the stored details, says what an invoice still needs, and checks the IBAN before sending', async () => {
    signedInAs('DataManager');
    const sent = stubServer();
    renderWithApp(<CompanyTab />);
    const form = within(await screen.findByRole('form', { name: 'Company details' }));
    expect((form.getByLabelText('Company name') as HTMLInputElement).value).toBe('Müller Haustechnik GmbH');
    // What invoices and e-invoices still need, each gap named.
    expect(form.getByText('Invoices and e-invoices still need:')).toBeTruthy();
    expect(form.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'VAT ID or tax number (§ 14 UStG)',
      "VAT ID or register number (commercial register, trade register): the seller's identifier in the e-invoice",
      'E-mail address: the electronic address and contact in the e-invoice',
      'Phone number: the contact in the e-invoice',
      'IBAN: where your customers pay',
    ]);

    fireEvent.change(form.getByLabelText('IBAN'), { target: { value: 'DE89 3704 0044 0532 0130 01' } });
    fireEvent.click(form.getByRole('button', { name: 'Save changes' }));
    expect(await form.findByText('Please enter a valid IBAN.')).toBeTruthy();
    expect(sent()).toEqual([]);

    fireEvent.change(form.getByLabelText('IBAN'), { target: { value: 'DE89 3704 0044 0532 0130 00' } });
    fireEvent.change(form.getByLabelText('Standard tax rate of services (%)'), { target: { value: '7' } });
    fireEvent.click(form.getByLabelText('Small business under § 19 UStG (no VAT on offers and invoices)'));
    fireEvent.click(form.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(sent()).toHaveLength(1));
    // Only the editable fields go out: what the server reports (`missing`, `complete`) is not sent back.
    expect(sent()[0]).toMatchObject({
      iban: 'DE89370400440532013000',
      standardTaxRate: 7,
      country: 'DE',
      smallBusiness: true,
    });
    expect(sent()[0]).not.toHaveProperty('missing');
    expect(await screen.findByText('Account details saved successfully!')).toBeTruthy();
  });

  it('uploads a logo as it is chosen, shows it, and shows the server’s refusal of the next one', async () => {
    signedInAs('DataManager');
    const logo = {
      url: '/api/v1/branding/companies/a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d/logo?v=abc',
      width: 200,
      height: 100,
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    const puts: FormData[] = [];
    fakeApi()
      .on(companyDetailsContracts.get, () => stored)
      .on(companyBrandingContracts.get, () => ({
        logo: puts.length ? logo : null,
        brandColor: null,
        defaultDocument: null,
      }))
      .on(companyBrandingContracts.uploadLogo, ({ form }) => {
        puts.push(form!);
        if (puts.length === 1) return { logo, brandColor: null, defaultDocument: null };
        return apiError(422, 'COMPANY_LOGO_UNSAFE', 'This SVG contains scripts.');
      });
    renderWithApp(<CompanyTab />);
    expect(await screen.findByText("No logo yet: the product's logo is shown.")).toBeTruthy();
    const input = screen.getByTestId('company-logo-input');
    fireEvent.change(input, { target: { files: [new File(['png'], 'logo.png', { type: 'image/png' })] } });
    const shown = (await screen.findByAltText("Your company's logo")) as HTMLImageElement;
    expect(shown.getAttribute('src')).toBe(logo.url);
    expect((puts[0]!.get('file') as File).name).toBe('logo.png');

    fireEvent.change(input, {
      target: { files: [new File(['<svg/>'], 'evil.svg', { type: 'image/svg+xml' })] },
    });
    // The message in the interface language, from the error's code.
    expect(
      await screen.findByText(
        'This SVG contains scripts, event handlers or references to other addresses. Please upload a plain SVG, a PNG or a JPEG.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove logo' })).toBeTruthy();
  });

  it('takes the company colour as #rrggbb, shows the server’s contrast refusal, and saves a readable one', async () => {
    signedInAs('DataManager');
    stubServer();
    renderWithApp(<CompanyTab />);
    const card = within(await screen.findByRole('form', { name: 'Colour' }));
    const field = card.getByLabelText('Colour (#rrggbb)');
    const save = card.getByRole('button', { name: 'Save colour' }) as HTMLButtonElement;
    fireEvent.change(field, { target: { value: 'blau' } });
    expect(card.getByText('Enter a colour as # and six hex digits, e.g. #1f5fa8.')).toBeTruthy();
    expect(save.disabled).toBe(true);
    fireEvent.change(field, { target: { value: '#ffcc00' } });
    fireEvent.click(save);
    expect((await card.findByRole('alert')).textContent).toContain('1.5:1');
    fireEvent.change(field, { target: { value: '#1f5fa8' } });
    expect(getComputedStyle(card.getByTestId('company-color-preview')).backgroundColor).toBe('#1f5fa8');
    fireEvent.click(save);
    await card.findByRole('button', { name: "Use the product's colours" });
    expect(card.queryByRole('alert')).toBeNull();
  });
});
