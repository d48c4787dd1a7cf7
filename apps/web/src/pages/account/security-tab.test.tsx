import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { authContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi, type Reply } from '../../test/fake-api.ts';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { SecurityTab } from './security-tab.tsx';

afterEach(() => vi.unstubAllGlobals());

function stubChangePassword() {
  const api = fakeApi().on(authContracts.changePassword, () => ({
    message: 'Password changed successfully.',
  }));
  return () => api.calls(authContracts.changePassword).map((call) => call.body);
}

function fill() {
  const form = within(screen.getByRole('form', { name: 'Change password' }));
  fireEvent.change(form.getByLabelText('Current password'), { target: { value: 'alt-Pass-1' } });
  fireEvent.change(form.getByLabelText('New password'), { target: { value: 'ganz-neu-42' } });
  fireEvent.change(form.getByLabelText('Confirm password'), { target: { value: 'ganz-neu-42' } });
}

describe('the change-password form', () => {
  it('revokes the API keys too when the box is ticked', async () => {
    signedInAs('DataManager');
    const sent = stubChangePassword();
    renderWithApp(<SecurityTab />);
    fill();
    const box = screen.getByRole('checkbox', { name: /Also revoke all my API keys/ });
    expect((box as HTMLInputElement).checked).toBe(false);
    fireEvent.click(box);
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0]).toEqual({
      currentPassword: 'alt-Pass-1',
      password: 'ganz-neu-42',
      confirmPassword: 'ganz-neu-42',
      revokeApiKeys: true,
    });
  });

  it('keeps the keys by default, and does not offer the box to a user without API keys', async () => {
    signedInAs('Employee');
    const sent = stubChangePassword();
    renderWithApp(<SecurityTab />);
    expect(screen.queryByRole('checkbox')).toBeNull();
    fill();
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0]?.revokeApiKeys).toBe(false);
  });
});

describe('the change-email form', () => {
  function stubChangeEmail(answer: { message: string } | Reply) {
    const api = fakeApi().on(authContracts.changeEmail, () => answer);
    return () => api.calls(authContracts.changeEmail).map((call) => call.body);
  }

  function submit(email: string) {
    const form = within(screen.getByRole('form', { name: 'Change email address' }));
    fireEvent.change(form.getByLabelText('New email address'), { target: { value: email } });
    fireEvent.change(form.getByLabelText('Current password'), { target: { value: 'alt-Pass-1' } });
    fireEvent.click(form.getByRole('button', { name: 'Send confirmation link' }));
    return form;
  }

  it('names the current address, sends the new one with the password and shows where the link went', async () => {
    signedInAs('Employee');
    const sent = stubChangeEmail({
      message: 'We sent a confirmation link to neu@firma.example. Your address changes once you open it.',
    });
    renderWithApp(<SecurityTab />);
    expect(screen.getByText(/You sign in with .+@/)).toBeTruthy();
    submit('Neu@Firma.example');
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0]).toEqual({ email: 'neu@firma.example', currentPassword: 'alt-Pass-1' });
    expect(await screen.findByText(/We sent a confirmation link to neu@firma.example/)).toBeTruthy();
  });

  it('puts a taken address on its field', async () => {
    signedInAs('Employee');
    stubChangeEmail(
      apiError(409, 'EMAIL_TAKEN', 'An account with this email already exists.', { field: 'email' }),
    );
    renderWithApp(<SecurityTab />);
    const form = submit('kollege@firma.example');
    expect(await form.findByText('An account with this email already exists.')).toBeTruthy();
  });
});
