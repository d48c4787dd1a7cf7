import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
    const fetch = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetch);
    renderWithApp(<ForgotPasswordPage />, '/forgot-password');
    fireEvent.change(screen.getByLabelText(/Email/), { target: { value: 'anna@firma.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    await screen.findByText('Please confirm that you are not a bot first.');
    expect(fetch).not.toHaveBeenCalled();
    await solveWidget('proof-1');
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));

    await screen.findByText('Password reset link sent, check your email.');
    // The toast loads lazily: give it the time it would take to appear.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await waitFor(() =>
      expect(screen.getAllByText('Password reset link sent, check your email.')).toHaveLength(1),
    );
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({ email: 'anna@firma.example', botCheck: 'proof-1' });
  });
});
