import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../test/render.tsx';
import LoginPage from './login-page.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('the login form', () => {
  it('shows the spec texts for empty and invalid fields without calling the server', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    renderWithApp(<LoginPage />, '/login');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findAllByText('This field is required');
    fireEvent.input(screen.getByLabelText('Email'), { target: { value: 'not-an-email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByText('Email must be valid!');
    expect(fetch).not.toHaveBeenCalled();
  });

  it("shows the server's refusal in the interface language and sends the area of the page", async () => {
    const fetch = vi.fn(async () =>
      Response.json(
        { error: { code: 'INVALID_CREDENTIALS', message: 'Falsche E-Mail-Adresse oder falsches Passwort.' } },
        { status: 401 },
      ),
    );
    vi.stubGlobal('fetch', fetch);
    renderWithApp(<LoginPage />, '/employee/login');
    fireEvent.input(screen.getByLabelText('Email'), { target: { value: 'ma@firma.example' } });
    fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'whatever-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() =>
      expect(screen.getByTestId('login-error').textContent).toBe('Incorrect email or password.'),
    );
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/auth/login');
    expect(JSON.parse(String(init.body))).toEqual({
      email: 'ma@firma.example',
      password: 'whatever-1',
      area: 'employee',
    });
  });
});
