import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../test/render.tsx';
import ForgotPasswordPage from './forgot-password-page.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('the forgot-password page', () => {
  it('says once that the link was sent', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 204 })),
    );
    renderWithApp(<ForgotPasswordPage />, '/forgot-password');
    fireEvent.change(screen.getByLabelText(/Email/), { target: { value: 'anna@firma.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));

    await screen.findByText('Password reset link sent, check your email.');
    // The toast loads lazily: give it the time it would take to appear.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await waitFor(() =>
      expect(screen.getAllByText('Password reset link sent, check your email.')).toHaveLength(1),
    );
  });
});
