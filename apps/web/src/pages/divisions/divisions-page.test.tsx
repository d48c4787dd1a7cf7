import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DIVISION_ID, division, storage } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import DivisionsPage from './divisions-page.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('the divisions page', () => {
  it('shows the storage used, the files of each division and what deleting one removes', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ items: [division({ fileCount: 4 })], limit: 3, storage })),
    );
    renderWithApp(<DivisionsPage />, '/divisions');

    const usage = await screen.findByTestId('storage-card');
    expect(within(usage).getByText('512 MB of 5 GB used')).toBeTruthy();
    expect(within(usage).getByRole('progressbar', { name: 'Storage' }).getAttribute('aria-valuenow')).toBe(
      '10',
    );

    const card = screen.getByTestId('division-card');
    expect(within(card).getByText('Files: 4 · Size: 3 MB')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Open files: Heizung' }).getAttribute('href')).toBe(
      `/divisions/${DIVISION_ID}`,
    );
    expect(within(card).getByRole('button', { name: 'Add file: Heizung' })).toBeTruthy();

    fireEvent.click(within(card).getByRole('button', { name: 'Delete: Heizung' }));
    await screen.findByText(
      '"Heizung" and everything in it will be deleted, including its files and their passages. Employees keep their other divisions.',
    );
  });

  it('creates a division with "Create" and renames one with "Save changes"', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ items: [division()], limit: 3, storage })),
    );
    renderWithApp(<DivisionsPage />, '/divisions');
    const card = await screen.findByTestId('division-card');

    fireEvent.click(screen.getAllByRole('button', { name: 'Add division' })[0]!);
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'Create' })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Save changes' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(within(card).getByRole('button', { name: 'Rename division: Heizung' }));
    dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'Save changes' })).toBeTruthy();
  });
});
