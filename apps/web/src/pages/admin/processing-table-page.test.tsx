import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type AdminKnowledgeFile, fileContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { downloadCsv } from '../../components/csv.ts';
import { fakeApi, page } from '../../test/fake-api.ts';
import { knowledgeFile, signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import ProcessingTablePage from './processing-table-page.tsx';

vi.mock('../../components/csv.ts', () => ({ downloadCsv: vi.fn() }));
afterEach(() => vi.unstubAllGlobals());

const failed: AdminKnowledgeFile = {
  ...knowledgeFile({
    name: 'Preisliste-Brennwertkessel-Baureihe-2024-Installationshandbuch.pdf',
    divisionName: 'Kundendienst',
    status: 'failed',
    progress: 10,
    errorCode: 'FILE_PASSWORD_PROTECTED',
    errorMessage: 'The file is password-protected. Remove the password and upload it again.',
  }),
  companyId: 'c0ffee00-0000-4000-8000-000000000001',
  companyName: 'Heiztechnik Müller GmbH',
};

// MUI renders slowly in happy-dom when the whole suite shares the processor.
describe('the processing table', () => {
  it('shows company with division and status with failure in one column each, and exports each on its own', async () => {
    signedInAs('Administrator');
    fakeApi().on(fileContracts.adminList, () => page([failed]));
    renderWithApp(<ProcessingTablePage />, '/admin/vector-database/processing-table');

    const name = await screen.findByText(failed.name);
    expect(name.getAttribute('title')).toBe(failed.name);
    const row = within(name.closest('tr')!);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Company and division',
      'File name',
      'Status',
      'Size',
      'Type',
      'Added',
    ]);
    expect(row.getByText('Heiztechnik Müller GmbH')).toBeTruthy();
    expect(row.getByText('Kundendienst')).toBeTruthy();
    const reason = row.getByText('The file is password-protected. Remove the password and upload it again.');
    expect(reason.getAttribute('title')).toBe('FILE_PASSWORD_PROTECTED');

    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(downloadCsv).toHaveBeenCalled());
    const [, header, rows] = vi.mocked(downloadCsv).mock.calls[0]!;
    expect(header).toEqual([
      'Company',
      'Division',
      'File name',
      'Source',
      'Status',
      'Progress',
      'Size',
      'Type',
      'Added',
      'Error',
    ]);
    expect(rows[0]).toEqual([
      'Heiztechnik Müller GmbH',
      'Kundendienst',
      failed.name,
      '',
      'Failed',
      10,
      '1.5 MB',
      'PDF',
      expect.any(String),
      failed.errorMessage,
    ]);
  });

  it('says where a synced file comes from, on screen and in the export', async () => {
    signedInAs('Administrator');
    const synced: AdminKnowledgeFile = {
      ...failed,
      id: 'f11e0000-0000-4000-8000-000000000002',
      name: 'Preisliste.pdf',
      status: 'ready',
      errorCode: null,
      errorMessage: null,
      source: {
        connectorId: 'c0cc0000-0000-4000-8000-000000000003',
        connectorName: 'Nextcloud',
        url: 'https://cloud.example.de/remote.php/dav/files/anna/',
        path: 'Preise/Preisliste.pdf',
      },
    };
    fakeApi().on(fileContracts.adminList, () => page([synced]));
    vi.mocked(downloadCsv).mockClear();
    renderWithApp(<ProcessingTablePage />, '/admin/vector-database/processing-table');

    const name = await screen.findByText('Preisliste.pdf');
    expect(within(name.closest('tr')!).getByText('From Nextcloud: Preise/Preisliste.pdf')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(downloadCsv).toHaveBeenCalled());
    const [, header, rows] = vi.mocked(downloadCsv).mock.calls[0]!;
    expect(rows[0]![header.indexOf('Source')]).toBe('From Nextcloud: Preise/Preisliste.pdf');
  });
});
