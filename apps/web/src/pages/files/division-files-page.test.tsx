import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { divisionContracts, fileContracts, type KnowledgeFile } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, page } from '../../test/fake-api.ts';
import { DIVISION_ID, division, knowledgeFile, storage } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import DivisionFilesPage from './division-files-page.tsx';

afterEach(() => vi.unstubAllGlobals());

/** A server whose file list answers with the next of `pages` each time (the last one repeats). */
function stubServer(pages: KnowledgeFile[][]) {
  const api = fakeApi()
    .on(divisionContracts.list, () => ({ items: [division()], limit: 3, storage }))
    .on(fileContracts.list, () => page(pages.length > 1 ? pages.shift()! : pages[0]!));
  return () => api.calls(fileContracts.list).map((call) => `${call.url.pathname}${call.url.search}`);
}

const row = (name: string) => screen.getByRole('cell', { name }).closest('tr')!;

describe('the files of a division', () => {
  it('shows the status of each file with the actions it allows', async () => {
    stubServer([
      [
        knowledgeFile({ id: '11111111-1111-4111-8111-111111111111', name: 'ready.pdf', status: 'ready' }),
        knowledgeFile({
          id: '22222222-2222-4222-8222-222222222222',
          name: 'broken.pdf',
          status: 'failed',
          progress: 10,
          errorCode: 'FILE_PASSWORD_PROTECTED',
          errorMessage: 'The file is password-protected.',
        }),
        knowledgeFile({
          id: '33333333-3333-4333-8333-333333333333',
          name: 'busy.docx',
          kind: 'docx',
          mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          status: 'queued',
          progress: 0,
        }),
      ],
    ]);
    renderWithApp(<DivisionFilesPage />, `/divisions/${DIVISION_ID}`);

    await screen.findByRole('heading', { name: 'Files in Heizung' });
    await screen.findByRole('cell', { name: 'ready.pdf' });
    const ready = within(row('ready.pdf'));
    expect(ready.getByText('Ready')).toBeTruthy();
    expect(ready.getByRole('button', { name: 'Process again: ready.pdf' })).toBeTruthy();
    expect(ready.queryByRole('button', { name: 'Stop processing: ready.pdf' })).toBeNull();
    expect(ready.getByRole('cell', { name: '1.5 MB' })).toBeTruthy();
    expect(ready.getByRole('link', { name: 'Open original: ready.pdf' }).getAttribute('href')).toBe(
      '/files/11111111-1111-4111-8111-111111111111/view',
    );

    const broken = within(row('broken.pdf'));
    expect(broken.getByText('Failed')).toBeTruthy();
    expect(
      broken.getByText('The file is password-protected. Remove the password and upload it again.'),
    ).toBeTruthy();
    expect(broken.getByRole('button', { name: 'Process again: broken.pdf' })).toBeTruthy();

    const busy = within(row('busy.docx'));
    expect(busy.getByText('Queued')).toBeTruthy();
    expect(busy.getByRole('button', { name: 'Stop processing: busy.docx' })).toBeTruthy();
    expect(busy.queryByRole('button', { name: 'Process again: busy.docx' })).toBeNull();
    expect(busy.getByRole('link', { name: 'Open original: busy.docx' }).getAttribute('href')).toBe(
      '/api/v1/files/33333333-3333-4333-8333-333333333333/content',
    );
    expect(busy.getByRole('progressbar', { name: 'Progress: busy.docx' })).toBeTruthy();
  });

  it('polls every second while a file is being processed and stops once all are final', async () => {
    const embedding = knowledgeFile({ status: 'embedding', progress: 60, readyAt: null });
    const calls = stubServer([[embedding], [{ ...embedding, progress: 80 }], [knowledgeFile()]]);
    renderWithApp(<DivisionFilesPage />, `/divisions/${DIVISION_ID}`);

    const name = 'Wartungshandbuch.pdf';
    await screen.findByRole('cell', { name });
    const progress = () => within(row(name)).queryByRole('progressbar', { name: `Progress: ${name}` });
    expect(within(row(name)).getByText('Computing vectors')).toBeTruthy();
    expect(progress()?.getAttribute('aria-valuenow')).toBe('60');
    await waitFor(() => expect(progress()?.getAttribute('aria-valuenow')).toBe('80'), { timeout: 2500 });
    await waitFor(() => expect(within(row(name)).getByText('Ready')).toBeTruthy(), { timeout: 2500 });
    expect(progress()).toBeNull();
    const polled = calls().length;
    expect(polled).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(calls().length).toBe(polled);
  }, 10_000);

  it('asks the server for the chosen status only', async () => {
    const calls = stubServer([[knowledgeFile()]]);
    renderWithApp(<DivisionFilesPage />, `/divisions/${DIVISION_ID}`);
    await screen.findByRole('cell', { name: 'Wartungshandbuch.pdf' });
    const filter = screen.getByLabelText('Status') as HTMLSelectElement;
    expect([...filter.options].map((o) => o.text)).toEqual([
      'All statuses',
      'Queued',
      'Reading text',
      'Splitting into passages',
      'Computing vectors',
      'Indexing',
      'Ready',
      'Failed',
      'Cancelled',
    ]);
    fireEvent.change(filter, { target: { value: 'failed' } });
    await waitFor(() => expect(calls().at(-1)).toContain('status=failed'));
    expect(calls()[0]).not.toContain('status=');
  });

  it("names each file's type in words, gives small sizes in KB and keeps long names on one line", async () => {
    const long = 'Wartungsanleitung-Brennwertkessel-Baureihe-2024-Installationshandbuch-Fachhandwerker.docx';
    stubServer([
      [
        knowledgeFile({ id: '11111111-1111-4111-8111-111111111111', name: 'manual.pdf' }),
        knowledgeFile({
          id: '22222222-2222-4222-8222-222222222222',
          name: long,
          kind: 'docx',
          mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          sizeBytes: 512 * 1024,
        }),
        knowledgeFile({
          id: '33333333-3333-4333-8333-333333333333',
          name: 'prices.csv',
          kind: 'csv',
          mimeType: 'text/csv',
          sizeBytes: 2_600,
        }),
      ],
    ]);
    renderWithApp(<DivisionFilesPage />, `/divisions/${DIVISION_ID}`);
    await screen.findByRole('cell', { name: 'manual.pdf' });

    expect(within(row('manual.pdf')).getByRole('cell', { name: 'PDF' })).toBeTruthy();
    expect(within(row('manual.pdf')).getByRole('cell', { name: '1.5 MB' })).toBeTruthy();
    const word = within(row(long));
    expect(word.getByRole('cell', { name: 'Word' })).toBeTruthy();
    expect(word.getByRole('cell', { name: '512 KB' })).toBeTruthy();
    const csv = within(row('prices.csv'));
    expect(csv.getByRole('cell', { name: 'CSV table' })).toBeTruthy();
    expect(csv.getByRole('cell', { name: '2.5 KB' })).toBeTruthy();
    expect(screen.queryByText(/application\//)).toBeNull();

    // One line with an ellipsis, the whole name on hover.
    const name = screen.getByText(long);
    expect(name.getAttribute('title')).toBe(long);
    const style = getComputedStyle(name);
    expect(style.whiteSpace).toBe('nowrap');
    expect(style.textOverflow).toBe('ellipsis');
    expect(style.wordBreak).not.toBe('break-word');
  });
});
