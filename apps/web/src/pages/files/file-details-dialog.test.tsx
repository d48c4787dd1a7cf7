import { screen, within } from '@testing-library/react';
import { fileContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-api.ts';
import { knowledgeFile } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import FileDetailsDialog from './file-details-dialog.tsx';

afterEach(() => vi.unstubAllGlobals());

const FILE_ID = '22222222-2222-4222-8222-222222222222';

function showDetails(errorMessage: string | null) {
  fakeApi().on(fileContracts.get, () => ({
    ...knowledgeFile({
      id: FILE_ID,
      name: 'broken.pdf',
      status: 'failed',
      progress: 10,
      errorCode: 'FILE_PASSWORD_PROTECTED',
      errorMessage,
    }),
    steps: [],
  }));
  renderWithApp(<FileDetailsDialog fileId={FILE_ID} onClose={() => {}} />);
}

describe('the details of a failed file', () => {
  it.each([
    ['the server sent the code as its message', 'FILE_PASSWORD_PROTECTED'],
    ['the server sent no message', null],
    ['the server sent a message', 'The file is password-protected.'],
  ])('show the translated reason, never the failure code (%s)', async (_, errorMessage) => {
    showDetails(errorMessage);
    const error = await screen.findByTestId('file-error');
    expect(
      within(error).getByText('The file is password-protected. Remove the password and upload it again.'),
    ).toBeTruthy();
    expect(document.body.textContent).not.toContain('FILE_PASSWORD_PROTECTED');
  });
});

describe('the details of a file read by OCR', () => {
  it('show that its text came from OCR, with the mean confidence and the pages', async () => {
    fakeApi().on(fileContracts.get, () => ({
      ...knowledgeFile({ id: FILE_ID, name: 'scan.pdf', ocr: { pages: [1, 3], meanConfidence: 87.4 } }),
      steps: [],
    }));
    renderWithApp(<FileDetailsDialog fileId={FILE_ID} onClose={() => {}} />);
    expect(await screen.findByText('OCR text')).toBeTruthy();
    expect(screen.getByText('Mean confidence 87% · pages 1, 3')).toBeTruthy();
  });

  it('show a file that needed OCR where none is installed with how to install it', async () => {
    fakeApi().on(fileContracts.get, () => ({
      ...knowledgeFile({
        id: FILE_ID,
        name: 'foto.png',
        kind: 'png',
        status: 'failed',
        errorCode: 'FILE_NO_TEXT',
        errorMessage: 'FILE_NO_TEXT',
        errorMessageKey: 'files.ocr.notInstalled',
      }),
      steps: [],
    }));
    renderWithApp(<FileDetailsDialog fileId={FILE_ID} onClose={() => {}} />);
    const error = await screen.findByTestId('file-error');
    expect(error.textContent).toContain('OCR (text recognition), which is not installed');
    expect(error.textContent).toContain('apt-get install tesseract-ocr');
    expect(screen.queryByText('OCR text')).toBeNull();
  });
});
