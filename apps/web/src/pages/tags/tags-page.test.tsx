import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type Tag, tagContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-api.ts';
import { renderWithApp } from '../../test/render.tsx';
import TagsPage from './tags-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const tag: Tag = {
  id: '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
  name: 'Preis veraltet',
  color: 'warning',
  feedbackCount: 2,
  createdAt: '2025-01-10T08:00:00.000Z',
};

// MUI renders slowly in happy-dom when the whole suite shares the processor.
describe('the tags page', () => {
  it('creates a tag with "Create" and edits one with "Save changes"', async () => {
    fakeApi().on(tagContracts.list, () => ({ items: [tag] }));
    renderWithApp(<TagsPage />, '/tags');
    await screen.findByRole('button', { name: 'Edit tag: Preis veraltet' });

    fireEvent.click(screen.getByRole('button', { name: 'Add tag' }));
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'Create' })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Save changes' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Edit tag: Preis veraltet' }));
    dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'Save changes' })).toBeTruthy();
  });
});
