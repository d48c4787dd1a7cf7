import { fireEvent, screen } from '@testing-library/react';
import { type PhoneVerification, phoneVerificationContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-api.ts';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { PhoneVerificationCard } from './phone-verification-card.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.removeItem('impersonation');
});

const unverified: PhoneVerification = {
  phone: '+49 151 2345678',
  state: 'unverified',
  whatsappConnected: true,
  whatsappNumber: '+49 30 1234567',
  expiresAt: null,
};

/** The server's answers: the state, a code on POST, and `verified` once the phone has "sent" it. */
function stubServer(states: PhoneVerification[]) {
  return fakeApi()
    .on(phoneVerificationContracts.start, () => ({
      code: '482913',
      expiresAt: '2026-05-01T10:30:00.000Z',
      whatsappNumber: '+49 30 1234567',
      link: 'https://wa.me/49301234567?text=482913',
    }))
    .on(phoneVerificationContracts.status, () => states.shift() ?? unverified);
}

describe('the WhatsApp number card', () => {
  it('shows an unconfirmed number, issues a code with the WhatsApp link, and follows until it is confirmed', async () => {
    signedInAs('Employee');
    const pending = { ...unverified, state: 'pending' as const, expiresAt: '2026-05-01T10:30:00.000Z' };
    stubServer([unverified, pending, { ...unverified, state: 'verified' }]);
    renderWithApp(<PhoneVerificationCard />);
    expect(
      await screen.findByText(/is not confirmed yet\. Until you confirm it, messages from it on WhatsApp/),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm by WhatsApp' }));
    expect(await screen.findByText('482913')).toBeTruthy();
    expect(
      screen.getByText(/Send this code by WhatsApp from .*\+49 151 2345678.* to your company’s number/),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open WhatsApp' }).getAttribute('href')).toBe(
      'https://wa.me/49301234567?text=482913',
    );
    expect(screen.getByRole('status').textContent).toMatch(
      /^Waiting for your message\. The code is valid until/,
    );
    // Asked again every few seconds while pending: the phone's message has confirmed it.
    expect(await screen.findByText(/^Confirmed: messages from/)).toBeTruthy();
    expect(screen.queryByText('482913')).toBeNull();
  });

  it('offers nothing to an operator viewing as the user', async () => {
    signedInAs('DataManager');
    localStorage.setItem(
      'impersonation',
      JSON.stringify({ by: 'admin@werkwissen.example', expiresAt: '2099-01-01T00:00:00.000Z' }),
    );
    const api = stubServer([unverified]);
    renderWithApp(<PhoneVerificationCard />);
    expect(
      await screen.findByText(
        'While you are viewing as this user, their phone number cannot be changed or confirmed.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Confirm by WhatsApp' })).toBeNull();
    expect(api.requests.filter(({ method }) => method === 'POST')).toEqual([]);
  });

  it('says so when the company has no WhatsApp number to confirm with', async () => {
    signedInAs('Employee');
    stubServer([
      { ...unverified, phone: null, state: 'none', whatsappConnected: false, whatsappNumber: null },
    ]);
    renderWithApp(<PhoneVerificationCard />);
    expect(await screen.findByText('Your company has not connected a WhatsApp number yet.')).toBeTruthy();
    expect(screen.queryByText('Save your mobile number above to ask questions on WhatsApp.')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
