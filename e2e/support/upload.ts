import type { Page } from 'playwright-core';
import { text } from './server.ts';

/** On a division's file page: uploads a .docx through the dialog and waits until the list shows it ready. */
export async function uploadDocxThroughDialog(page: Page, name: string, buffer: Buffer): Promise<void> {
  await page.getByRole('button', { name: text('en', 'pages.files.upload.button') }).click();
  await page.getByTestId('upload-input').setInputFiles({
    name,
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    buffer,
  });
  await page
    .getByRole('dialog')
    .getByRole('button', { name: text('en', 'pages.files.upload.submit') })
    .click();
  await page.getByTestId('upload-results').getByText(text('en', 'messages.fileAdded')).waitFor();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: text('en', 'common.close') })
    .click();
  await page.getByRole('cell', { name, exact: true }).waitFor();
  await page
    .getByRole('table')
    .getByText(text('en', 'pages.files.statuses.ready'), { exact: true })
    .waitFor();
}
