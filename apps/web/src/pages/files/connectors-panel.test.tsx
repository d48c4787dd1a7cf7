import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type Connector, connectorContracts, divisionContracts, fileContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, page } from '../../test/fake-api.ts';
import { DIVISION_ID, division, knowledgeFile, signedInAs, storage } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import DivisionFilesPage from './division-files-page.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const CONNECTOR_ID = '44444444-4444-4444-8444-444444444444';
const paused: Connector = {
  id: CONNECTOR_ID,
  divisionId: DIVISION_ID,
  kind: 'webdav',
  name: 'Nextcloud',
  url: 'https://cloud.example.com/remote.php/dav/files/anna/',
  userName: 'anna',
  folder: 'Preise',
  fileTypes: [],
  intervalMinutes: 60,
  status: 'paused',
  syncState: 'idle',
  lastSyncAt: '2025-03-01T09:30:00.000Z',
  lastResult: { added: 2, changed: 1, renamed: 0, removed: 1, unchanged: 5, failures: [] },
  lastError: 'The server refused the user name or password.',
  lastErrorCode: 'auth',
  failureCount: 3,
  fileCount: 1,
  createdAt: '2025-03-01T09:00:00.000Z',
};

describe('connected folders on a division’s page', () => {
  it('shows a paused connector with why, and a synced file that is deleted at its source', async () => {
    fakeApi()
      .on(divisionContracts.list, () => ({ items: [division()], limit: 3, storage }))
      .on(connectorContracts.list, () => ({ items: [paused] }))
      .on(fileContracts.list, () =>
        page([
          knowledgeFile({
            name: 'Liste.txt',
            source: {
              connectorId: CONNECTOR_ID,
              connectorName: 'Nextcloud',
              url: paused.url,
              path: 'Preise/Liste.txt',
            },
          }),
        ]),
      );
    signedInAs('DataManager');
    renderWithApp(<DivisionFilesPage />, `/divisions/${DIVISION_ID}`);

    const card = within(await screen.findByTestId('connector'));
    expect(card.getByText('Paused')).toBeTruthy();
    expect(card.getByText(/The server refused the user name or password\./)).toBeTruthy();
    expect(card.getByText(/2 added · 1 changed · 0 renamed · 1 removed/)).toBeTruthy();
    expect(card.getByRole('button', { name: 'Resume' })).toBeTruthy();
    expect((card.getByRole('button', { name: 'Sync now' }) as HTMLButtonElement).disabled).toBe(true);

    await screen.findByText('From Nextcloud: Preise/Liste.txt');
    const remove = screen.getByRole('button', { name: 'Delete: Liste.txt' }) as HTMLButtonElement;
    expect(remove.disabled).toBe(true);
  });

  it('reloads the files after a sync it never saw running (it began and ended between two reads)', async () => {
    const active: Connector = {
      ...paused,
      status: 'active',
      lastError: null,
      lastErrorCode: null,
      failureCount: 0,
    };
    let synced = false;
    let fileReads = 0;
    fakeApi()
      .on(divisionContracts.list, () => ({ items: [division()], limit: 3, storage }))
      .on(connectorContracts.sync, () => {
        synced = true;
        return { ...active, syncState: 'queued' };
      })
      .on(connectorContracts.list, () => ({
        items: [synced ? { ...active, lastSyncAt: '2025-03-01T10:00:00.000Z' } : active],
      }))
      .on(fileContracts.list, () => {
        fileReads++;
        return page([]);
      });
    signedInAs('DataManager');
    renderWithApp(<DivisionFilesPage />, `/divisions/${DIVISION_ID}`);

    const card = within(await screen.findByTestId('connector'));
    await waitFor(() => expect(fileReads).toBeGreaterThan(0));
    const before = fileReads;
    fireEvent.click(card.getByRole('button', { name: 'Sync now' }));
    await waitFor(() => expect(fileReads).toBeGreaterThan(before));
  });
});
