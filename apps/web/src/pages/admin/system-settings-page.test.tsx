import { fireEvent, screen, waitFor } from '@testing-library/react';
import {
  googleConnectorContracts,
  microsoftConnectorContracts,
  type SystemSettings,
  systemSettingsContracts,
} from '@werkwissen/shared';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigReloadContext } from '../../app/config-context.tsx';
import { apiError, fakeApi } from '../../test/fake-api.ts';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import SystemSettingsPage from './system-settings-page.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const values: SystemSettings['values'] = {
  general: { appTitle: 'Werkwissen', publicUrl: 'https://wissen.example', defaultLanguage: 'de' },
  signUp: { signupEnabled: true, botProtection: false },
  plans: { divisionsLimit: 10, employeesLimit: 25, storageLimitMb: 5120, trialDays: 14 },
  branding: {
    primaryColor: '#ff7526',
    primaryColorDark: '#b34700',
    surfaceLight: '#f8f7fa',
    surfaceDark: '#2f3349',
  },
  activityLog: { retentionDays: 180 },
  mailBudget: { perHour: 200, perDay: 1000, trialPerHour: 20, trialPerDay: 50 },
};
const settings: SystemSettings = { values, defaults: values, logo: null, updatedAt: null };

function stubServer(refuse?: { field: string; message: string }) {
  let current = settings;
  return (
    fakeApi()
      .on(systemSettingsContracts.get, () => current)
      // The OAuth apps under the general tab have their own test (oauth-app-section.test.tsx): here they stay loading,
      // so that the page has one form with one "Save changes" button, whenever their answer would come.
      .on(microsoftConnectorContracts.getApp, () => new Promise<never>(() => {}))
      .on(googleConnectorContracts.getApp, () => new Promise<never>(() => {}))
      .on(systemSettingsContracts.uploadLogo, () => {
        current = {
          ...settings,
          logo: {
            url: '/api/v1/branding/logo?v=abc',
            contentType: 'image/png',
            sizeBytes: 70,
            updatedAt: '2026-03-05T10:00:00Z',
          },
          updatedAt: '2026-03-05T10:00:00Z',
        };
        return current;
      })
      .on(systemSettingsContracts.updateGeneral, ({ data }) => {
        if (refuse)
          return apiError(422, 'VALIDATION_FAILED', 'Please fill out the form correctly.', {
            fields: [{ field: refuse.field, code: 'validation.url', message: refuse.message }],
          });
        return {
          ...settings,
          values: { ...values, general: data },
          updatedAt: '2026-03-05T10:00:00Z',
        };
      })
  );
}

function renderPage(path: string, reloadConfig = vi.fn(async () => {})) {
  renderWithApp(
    <ConfigReloadContext.Provider value={reloadConfig}>
      <Routes>
        <Route path="*" element={<SystemSettingsPage />} />
      </Routes>
    </ConfigReloadContext.Provider>,
    path,
  );
  return reloadConfig;
}

describe('the system settings', () => {
  it('saves a tab, reloads the public configuration so the change shows at once', async () => {
    signedInAs('Administrator');
    const api = stubServer();
    const reload = renderPage('/admin/system-settings/general');

    const title = (await screen.findByLabelText('App title')) as HTMLInputElement;
    expect(title.value).toBe('Werkwissen');
    fireEvent.change(title, { target: { value: 'Handwerk Wissen' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(reload).toHaveBeenCalled());
    expect(api.requests.filter((r) => r.method === 'PUT').map((r) => r.url)).toEqual([
      '/api/v1/admin/system-settings/general',
    ]);
    expect(api.last(systemSettingsContracts.updateGeneral)?.body).toEqual({
      appTitle: 'Handwerk Wissen',
      publicUrl: 'https://wissen.example',
      defaultLanguage: 'de',
    });
    expect(await screen.findByText('Settings saved. They apply right away.')).toBeTruthy();
  });

  it('checks the shared schema before sending and names the bound', async () => {
    signedInAs('Administrator');
    const api = stubServer();
    renderPage('/admin/system-settings/plans');
    const trial = await screen.findByLabelText('Trial length (days)');
    fireEvent.change(trial, { target: { value: '0' } });
    fireEvent.change(screen.getByLabelText('Divisions per company'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('The value must be at least 1.')).toBeTruthy();
    expect(screen.getByText('Enter a whole number.')).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'PUT')).toBe(false);
  });

  it('shows the server’s refusal at its field', async () => {
    signedInAs('Administrator');
    stubServer({ field: 'publicUrl', message: 'Refused by the server for this address.' });
    renderPage('/admin/system-settings/general');
    await screen.findByLabelText('Public address');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Refused by the server for this address.')).toBeTruthy();
  });

  it('opens the tab of the address, sends an unknown tab to the first one, and lets staff only read', async () => {
    signedInAs('Staff');
    stubServer();
    renderPage('/admin/system-settings/colours');
    expect(await screen.findByRole('tab', { name: 'General', selected: true })).toBeTruthy();
    expect(((await screen.findByLabelText('App title')) as HTMLInputElement).disabled).toBe(true);
    expect(
      screen.getByText('You can view these settings; only an administrator can change them.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Branding' }));
    expect(await screen.findByText('The built-in logo is shown.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Choose image' })).toBeNull();
  });

  it('previews a chosen logo, uploads it as one multipart part and shows it in use', async () => {
    signedInAs('Administrator');
    const api = stubServer();
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: () => 'blob:chosen-logo', revokeObjectURL: () => {} }),
    );
    const reload = renderPage('/admin/system-settings/branding');
    const chooser = (await screen.findByLabelText('Choose image', { selector: 'input' })) as HTMLInputElement;
    const logo = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' });
    fireEvent.change(chooser, { target: { files: [logo] } });
    expect((await screen.findByAltText('Preview of the chosen logo')).getAttribute('src')).toBe(
      'blob:chosen-logo',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Upload logo' }));
    await waitFor(() => expect(reload).toHaveBeenCalled());
    expect(api.requests.find((r) => r.url === '/api/v1/admin/system-settings/logo')?.method).toBe('PUT');
    expect(api.calls(systemSettingsContracts.uploadLogo)[0]!.form?.get('file')).toBeInstanceOf(File);
    await waitFor(() =>
      expect(screen.getByAltText('Current logo').getAttribute('src')).toBe('/api/v1/branding/logo?v=abc'),
    );
    expect(screen.getByRole('button', { name: 'Remove logo' })).toBeTruthy();
  });
});
