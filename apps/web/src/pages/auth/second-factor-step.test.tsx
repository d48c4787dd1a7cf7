import { fireEvent, screen, waitFor } from '@testing-library/react';
import { authContracts, type MeResponse, oidcContracts, twoFactorContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../test/fake-api.ts';
import { renderWithApp } from '../../test/render.tsx';
import LoginPage from './login-page.tsx';

vi.mock('altcha', () => ({}));
afterEach(() => vi.unstubAllGlobals());

const me: MeResponse = {
  userData: {
    id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a',
    email: 'admin@firma.example',
    firstName: 'Ada',
    lastName: 'Admin',
    fullName: 'Ada Admin',
    phone: null,
    language: 'en',
    country: null,
    kind: 'Administrator',
    companyId: null,
    companyName: null,
    emailVerified: true,
    createdAt: '2025-03-01T10:00:00.000Z',
  },
  userRole: 'Administrator',
  userAbilityRules: [],
  csrfToken: 'csrf',
  impersonation: null,
};

async function passwordStep() {
  fireEvent.input(screen.getByLabelText('Email'), { target: { value: 'admin@firma.example' } });
  fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'richtig-Pass-1' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('the second step of a sign-in', () => {
  it('asks for the app’s code after a right password, shows a wrong one, and sends a recovery code on request', async () => {
    const api = fakeApi()
      .on(oidcContracts.offered, () => ({ items: [] }))
      .on(authContracts.login, () => ({ secondFactor: 'verify' }))
      .on(twoFactorContracts.verifySecondFactor, ({ body }) =>
        'code' in body && body.code === '111111'
          ? apiError(422, 'TWO_FACTOR_CODE_INVALID', '')
          : { ...me, recoveryCodes: null },
      );
    renderWithApp(<LoginPage />, '/admin/auth/login');
    await passwordStep();
    fireEvent.change(await screen.findByLabelText('Authentication code'), { target: { value: '111 111' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() =>
      expect(screen.getByTestId('two-factor-error').textContent).toBe(
        'This code is not valid. Please enter the current code from your authenticator app.',
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Lost your phone? Use a recovery code' }));
    fireEvent.change(screen.getByLabelText('Recovery code'), { target: { value: 'abcde-fghjk' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    const verifications = () => api.calls(twoFactorContracts.verifySecondFactor).map((call) => call.body);
    await waitFor(() => expect(verifications()).toHaveLength(2));
    expect(verifications()).toEqual([{ code: '111111' }, { recoveryCode: 'abcde-fghjk' }]);
  });

  it('sets the app up when the role requires it, then shows the recovery codes once before going on', async () => {
    fakeApi()
      .on(oidcContracts.offered, () => ({ items: [] }))
      .on(authContracts.login, () => ({ secondFactor: 'enrol' }))
      .on(twoFactorContracts.startSignInEnrolment, () => ({
        secret: 'JBSWY3DPEHPK3PXP',
        otpauthUri: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP',
        qrCode: 'data:image/svg+xml;base64,PHN2Zy8+',
      }))
      .on(twoFactorContracts.verifySecondFactor, () => ({
        ...me,
        recoveryCodes: ['aaaaa-bbbbb', 'ccccc-ddddd'],
      }));
    renderWithApp(<LoginPage />, '/admin/auth/login');
    await passwordStep();
    expect((await screen.findByTestId('two-factor-secret')).textContent).toBe('JBSWY3DPEHPK3PXP');
    expect(screen.getByRole('img', { name: 'QR code for the authenticator app' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Authentication code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByTestId('recovery-codes')).textContent).toContain('ccccc-ddddd');
    expect(screen.getByRole('button', { name: 'I have saved them, continue' })).toBeTruthy();
  });
});
