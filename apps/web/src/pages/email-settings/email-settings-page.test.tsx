import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { divisionContracts, type EmailSetting, emailSettingContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-api.ts';
import { DIVISION_ID, division } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import EmailSettingsPage from './email-settings-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const setting: EmailSetting = {
  id: '6b1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
  fromEmail: 'assistent@firma.example',
  allowedEmails: ['chefin@kunde.example'],
  divisionId: DIVISION_ID,
  divisionName: 'Heizung',
  isPrivate: false,
  smtpHost: 'smtp.firma.example',
  smtpPort: 587,
  imapHost: 'imap.firma.example',
  imapPort: 993,
  smtpEmail: 'assistent@firma.example',
  userName: 'assistent',
  security: 'starttls',
  authservId: 'mx.firma.example',
  answerFrom: '2025-03-01T09:00:00.000Z',
  hasPassword: true,
  mailbox: { checkedAt: '2025-03-01T10:00:00.000Z', error: 'The server refused the user name or password.' },
  createdAt: '2025-03-01T09:00:00.000Z',
};

/** The server: the settings list, the divisions, and what the page sends (its requests other than reads). */
function fakeServer() {
  const api = fakeApi()
    .on(emailSettingContracts.test, () => ({
      smtp: { ok: true, message: null },
      imap: { ok: false, message: 'The server refused the user name or password.' },
    }))
    .on(divisionContracts.list, () => ({
      items: [division({ employeeCount: 0, sizeBytes: 1, createdAt: setting.createdAt })],
      limit: 10,
      storage: { usedBytes: 0, limitBytes: 1, maxUploadBytes: 1 },
    }))
    .on(emailSettingContracts.create, () => setting)
    .on(emailSettingContracts.remove, () => null)
    .on(emailSettingContracts.list, () => ({ items: [setting] }));
  return { api, sent: () => api.requests.filter((r) => r.method !== 'GET') };
}

// MUI renders slowly in happy-dom when the whole suite shares the processor.
describe('the e-mail settings page', () => {
  it('lists the settings with the mailbox’s trouble, and deletes one after confirmation', async () => {
    const { sent } = fakeServer();
    renderWithApp(<EmailSettingsPage />, '/email-settings');
    expect(await screen.findByText('The server refused the user name or password.')).toBeTruthy();
    expect(screen.getByText('chefin@kunde.example')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Delete: assistent@firma.example' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/stops answering mails to assistent@firma\.example/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(sent().map((s) => s.method)).toEqual(['DELETE']));
    expect(sent()[0]!.url).toContain(`/email-settings/${setting.id}`);
  });

  it('shows the spec’s messages for a form filled wrongly, and the port range in the help', async () => {
    const { sent } = fakeServer();
    renderWithApp(<EmailSettingsPage />, '/email-settings');
    fireEvent.click(await screen.findByRole('button', { name: 'Add e-mail setting' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getAllByText('A number from 1 to 65535.')).toHaveLength(2);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Add allowed e-mail' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add allowed e-mail' }));
    expect(await within(dialog).findByText('You can add a maximum of 2 emails.')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('SMTP host'), { target: { value: 'mail server' } });
    fireEvent.change(within(dialog).getByLabelText('IMAP port'), { target: { value: '70000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Please fill out the form correctly.')).toBeTruthy();
    expect(within(dialog).getByText('Please enter a valid host name or IP address.')).toBeTruthy();
    expect(within(dialog).getByText('Enter a port from 1 to 65535.')).toBeTruthy();
    expect(within(dialog).getAllByText('This field is required').length).toBeGreaterThan(0);
    expect(sent()).toEqual([]);
  });

  it('adds a setting and tests its connection, saying which sign-in failed', async () => {
    const { api, sent } = fakeServer();
    renderWithApp(<EmailSettingsPage />, '/email-settings');
    fireEvent.click(await screen.findByRole('button', { name: 'Add e-mail setting' }));
    const dialog = await screen.findByRole('dialog');
    const type = (label: string, value: string) =>
      fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });
    type('From e-mail', 'assistent@firma.example');
    type('Allowed e-mail 1', 'chefin@kunde.example');
    await within(dialog).findByRole('option', { name: 'Heizung' });
    type('Division', DIVISION_ID);
    type('SMTP host', 'smtp.firma.example');
    type('IMAP host', 'imap.firma.example');
    type('SMTP e-mail', 'assistent@firma.example');
    type('User name', 'assistent');
    type('Password', 'geheim-1');
    type('Mail server name in Authentication-Results (optional)', 'MX.Firma.example');
    // Mail from the first of March on is answered, not only what arrives after saving.
    type('Answer mails received from', '2025-03-01');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Test connection' }));
    expect(await within(dialog).findByText('SMTP: signed in.')).toBeTruthy();
    expect(within(dialog).getByText('IMAP: The server refused the user name or password.')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Email added successfully!')).toBeTruthy();
    expect(sent().map((s) => `${s.method} ${s.url}`)).toEqual([
      'POST /api/v1/email-settings/test',
      'POST /api/v1/email-settings',
    ]);
    expect(api.last(emailSettingContracts.create)?.body).toMatchObject({
      allowedEmails: ['chefin@kunde.example'],
      divisionId: DIVISION_ID,
      smtpPort: 587,
      imapPort: 993,
      security: 'starttls',
      password: 'geheim-1',
      authservId: 'mx.firma.example',
      answerFrom: new Date('2025-03-01T00:00').toISOString(),
    });
  });
});
