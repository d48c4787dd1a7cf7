import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type Connector, connectorContracts, divisionContracts, fileContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi, page } from '../../test/fake-api.ts';
import { DIVISION_ID, division, signedInAs, storage } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import DivisionFilesPage from './division-files-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const connector: Connector = {
  id: '44444444-4444-4444-8444-444444444444',
  divisionId: DIVISION_ID,
  kind: 'webdav',
  name: 'Nextcloud',
  url: 'https://cloud.example.com/remote.php/dav/files/anna/',
  userName: 'anna',
  folder: 'Preise',
  fileTypes: ['pdf'],
  intervalMinutes: 60,
  status: 'active',
  syncState: 'idle',
  lastSyncAt: '2025-03-01T09:30:00.000Z',
  lastResult: null,
  lastError: null,
  lastErrorCode: null,
  failureCount: 0,
  fileCount: 0,
  createdAt: '2025-03-01T09:00:00.000Z',
};

function server(update: () => Connector | ReturnType<typeof apiError>) {
  return fakeApi()
    .on(divisionContracts.list, () => ({ items: [division()], limit: 3, storage }))
    .on(fileContracts.list, () => page([]))
    .on(connectorContracts.list, () => ({ items: [connector] }))
    .on(connectorContracts.update, update);
}

async function openEdit() {
  signedInAs('DataManager');
  renderWithApp(<DivisionFilesPage />, `/divisions/${DIVISION_ID}`);
  const card = within(await screen.findByTestId('connector'));
  fireEvent.click(card.getByRole('button', { name: 'Edit' }));
  return within(await screen.findByRole('dialog'));
}

describe('changing a connected folder', () => {
  it('sends only what changed of the login, and keeps the saved password when left empty', async () => {
    const api = server(() => ({ ...connector, name: 'NAS Büro' }));
    const dialog = await openEdit();
    expect((dialog.getByLabelText('Name') as HTMLInputElement).value).toBe('Nextcloud');
    expect((dialog.getByLabelText('File types') as HTMLInputElement).value).toBe('pdf');
    expect(dialog.getByText('Leave empty to keep the saved password.')).toBeTruthy();
    fireEvent.input(dialog.getByLabelText('Name'), { target: { value: 'NAS Büro' } });
    fireEvent.input(dialog.getByLabelText('File types'), { target: { value: 'pdf, docx' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.last(connectorContracts.update)).toBeDefined());
    expect(api.last(connectorContracts.update)!.body).toEqual({
      name: 'NAS Büro',
      fileTypes: ['pdf', 'docx'],
      intervalMinutes: 60,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('Changes saved.')).toBeTruthy();
  });

  it('says why the server refused a new password, and stays open', async () => {
    const api = server(() =>
      apiError(422, 'CONNECTOR_UNREACHABLE', 'The folder could not be read.', {
        reason: 'auth',
        reasonText: 'The WebDAV server refused the user name or password.',
      }),
    );
    const dialog = await openEdit();
    fireEvent.input(dialog.getByLabelText('App password'), { target: { value: 'neues-passwort' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.last(connectorContracts.update)).toBeDefined());
    expect(api.last(connectorContracts.update)!.body).toMatchObject({ password: 'neues-passwort' });
    expect(api.last(connectorContracts.update)!.body).not.toHaveProperty('userName');
    expect(await dialog.findByText(/refused the user name or password/)).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
