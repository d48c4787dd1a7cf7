import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { authContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-api.ts';
import { renderWithApp } from '../../test/render.tsx';
import ForgotPasswordPage from './forgot-password-page.tsx';

vi.mock('altcha', () => ({}));
afterEach(() => vi.unstubAllGlobals());

/** The ALTCHA widget reports a solved challenge, as it does in the browser. */
async function solveWidget(payload: string) {
  const widget = await waitFor(() => {
    const el = document.querySelector('altcha-widget');
    if (!el) throw new Error('no widget yet');
    return el;
  });
  act(() => {
    widget.dispatchEvent(new CustomEvent('statechange', { detail: { state: 'verified', payload } }));
  });
}

describe('the forgot-password page', () => {
  it('asks for the bot check first, then sends its answer once and says once that the link was sent', async () => {
    const api = fakeApi().on(authContracts.forgotPassword, () => ({
      message: 'If the address is known, a link is on its way.',
    }));
    renderWithApp(<ForgotPasswordPage />, '/forgot-password');
    fireEvent.change(screen.getByLabelText(/Email/), { target: { value: 'anna@firma.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    await screen.findByText('Please confirm that you are not a bot first.');
    expect(api.requests).toEqual([]);
    await solveWidget('proof-1');
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));

    await screen.findByText('Password reset link sent, check your email.');
    // The toast loads lazily: give it the time it would take to appear.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await waitFor(() =>
      expect(screen.getAllByText('Password reset link sent, check your email.')).toHaveLength(1),
    );
    expect(api.calls(authContracts.forgotPassword)[0]?.body).toEqual({
      email: 'anna@firma.example',
      botCheck: 'proof-1',
    });
  });
});
