import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { authContracts, UPLOAD_MAX_FILES } from '@werkwissen/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, fakeApi } from '../../test/fake-api.ts';
import { FakeXhr } from '../../test/fake-xhr.ts';
import { DIVISION_ID, knowledgeFile, session, storage } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import UploadDialog from './upload-dialog.tsx';

const ADDED = 'File added successfully, an e-mail follows on completion.';

// The upload itself goes by XMLHttpRequest (for its progress events): FakeXhr answers it; the API's other calls
// go to the typed fake.
let api: FakeApi;
beforeEach(() => {
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  api = fakeApi();
  // biome-ignore lint/suspicious/noDocumentCookie: the CSRF cookie the upload must send back as a header
  document.cookie = 'ww_csrf=csrf-token-1';
});
afterEach(() => vi.unstubAllGlobals());

function open() {
  renderWithApp(
    <UploadDialog divisionId={DIVISION_ID} divisionName="Heizung" storage={storage} onClose={() => {}} />,
  );
}

function choose(...files: File[]) {
  fireEvent.change(screen.getByTestId('upload-input'), { target: { files } });
}

const results = () =>
  within(screen.getByTestId('upload-results'))
    .getAllByRole('listitem')
    .map((li) => li.textContent);

describe('the upload dialog', () => {
  it('offers presentations, spreadsheets, OpenDocument, RTF, mails and pictures in the picker and says so', () => {
    open();
    const accept = screen.getByTestId('upload-input').getAttribute('accept')!.split(',');
    for (const ext of [
      '.pptx',
      '.xlsx',
      '.ods',
      '.odt',
      '.odp',
      '.rtf',
      '.eml',
      '.png',
      '.jpg',
      '.tiff',
      '.webp',
    ])
      expect(accept).toContain(ext);
    screen.getByText(
      'PDF, Word (.docx), PowerPoint (.pptx), Excel (.xlsx), OpenDocument (.odt, .ods, .odp), RTF, e-mail (.eml), pictures (.png, .jpg, .tiff, .webp), text, Markdown, HTML or CSV',
    );
  });

  it('refuses more than 20 files before sending, and sends once some are removed', async () => {
    FakeXhr.reset({ status: 201, body: { uploadId: null, message: ADDED, results: [] } });
    open();
    choose(...Array.from({ length: UPLOAD_MAX_FILES + 1 }, (_, n) => new File(['Text'], `notiz-${n}.txt`)));
    const submit = screen.getByRole('button', { name: 'Upload' }) as HTMLButtonElement;
    expect(screen.getByTestId('upload-too-many').textContent).toBe(
      'At most 20 files can be uploaded at once.',
    );
    expect(submit.disabled).toBe(true);
    fireEvent.click(submit);
    expect(FakeXhr.sent).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Remove: notiz-0.txt' }));
    expect(screen.queryByTestId('upload-too-many')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    expect(((FakeXhr.sent[0]!.body as FormData).getAll('files') as File[]).length).toBe(UPLOAD_MAX_FILES);
  });

  it('sends the chosen files as multipart parts named "files" and shows one result line per file', async () => {
    FakeXhr.reset({
      status: 201,
      body: {
        uploadId: '0b6c9d7e-1f2a-4b3c-8d4e-5f6a7b8c9d0e',
        message: ADDED,
        results: [
          { name: 'Wartungshandbuch.pdf', accepted: true, file: knowledgeFile({ status: 'queued' }) },
          {
            name: 'Preisliste.docx',
            accepted: false,
            error: { code: 'FILE_DUPLICATE', message: 'This file is already in this division.' },
          },
        ],
      },
    });
    open();
    expect(screen.getByTestId('upload-limits').textContent).toBe(
      'Maximum file size: 100 MB · Free space: 4.5 GB',
    );
    choose(
      new File(['%PDF-1.7'], 'Wartungshandbuch.pdf', { type: 'application/pdf' }),
      new File(['PK'], 'Preisliste.docx'),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));

    await waitFor(() =>
      expect(results()).toEqual([
        `Wartungshandbuch.pdf${ADDED}`,
        'Preisliste.docxThis file is already in this division.',
      ]),
    );
    const [xhr] = FakeXhr.sent;
    expect(FakeXhr.sent).toHaveLength(1);
    expect(xhr!.method).toBe('POST');
    expect(xhr!.url).toBe(`/api/v1/divisions/${DIVISION_ID}/files`);
    expect(xhr!.headers['x-csrf-token']).toBe('csrf-token-1');
    const parts = (xhr!.body as FormData).getAll('files') as File[];
    expect(parts.map((f) => f.name)).toEqual(['Wartungshandbuch.pdf', 'Preisliste.docx']);
    // The chosen files are sent: the list of selected files is emptied and the button disabled again.
    expect((screen.getByRole('button', { name: 'Upload' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the per-file reasons of an upload refused as a whole, and rejects a too-large file without sending it', async () => {
    FakeXhr.reset({
      status: 415,
      body: {
        error: {
          code: 'FILE_TYPE_UNSUPPORTED',
          message: 'This file type is not supported.',
          details: {
            results: [
              {
                name: 'setup.exe',
                accepted: false,
                error: { code: 'FILE_TYPE_UNSUPPORTED', message: 'This file type is not supported.' },
              },
            ],
          },
        },
      },
    });
    open();
    const huge = new File(['x'], 'huge.pdf');
    Object.defineProperty(huge, 'size', { value: 101 * 1024 * 1024 });
    choose(huge, new File(['MZ'], 'setup.exe'));
    expect(results()).toEqual(['huge.pdfThe file is larger than the limit of 100 MB.']);
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));

    await waitFor(() => expect(results()).toHaveLength(2));
    expect(results()[1]).toBe('setup.exeThis file type is not supported.');
    const parts = (FakeXhr.sent[0]!.body as FormData).getAll('files') as File[];
    expect(parts.map((f) => f.name)).toEqual(['setup.exe']);
  });

  it('renews an expired session once and sends the files again', async () => {
    FakeXhr.reset(
      { status: 401, body: { error: { code: 'SESSION_EXPIRED', message: 'expired' } } },
      { status: 201, body: { uploadId: null, message: ADDED, results: [{ name: 'a.txt', accepted: true }] } },
    );
    api.on(authContracts.refresh, () => session('DataManager'));
    open();
    choose(new File(['hello'], 'a.txt', { type: 'text/plain' }));
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));

    await waitFor(() => expect(results()).toEqual([`a.txt${ADDED}`]));
    expect(FakeXhr.sent).toHaveLength(2);
    expect(api.calls(authContracts.refresh)).toHaveLength(1);
  });
});
