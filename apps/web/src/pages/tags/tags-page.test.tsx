import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Tag } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../test/render.tsx';
import TagsPage from './tags-page.tsx';

afterEach(() => vi.unstubAllGlobals());
// MUI renders slowly in happy-dom when the whole suite shares the processor.
configure({ asyncUtilTimeout: 5000 });

const PRICE: Tag = {
  id: '5d1c2b3a-4f5e-4a6b-8c7d-9e0f1a2b3c4d',
  name: 'Preis veraltet',
  color: 'warning',
  feedbackCount: 7,
  createdAt: '2025-02-01T08:00:00.000Z',
};

interface Call {
  url: string;
  method: string;
  body: Record<string, unknown> | undefined;
}

function stubServer(initial: Tag[]) {
  const calls: Call[] = [];
  let tags = [...initial];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined;
      calls.push({ url, method, body });
      if (url === '/api/v1/tags' && method === 'GET') return Response.json({ items: tags });
      if (url === '/api/v1/tags' && method === 'POST') {
        if (tags.some((t) => t.name === body?.name))
          return Response.json(
            {
              error: {
                code: 'TAG_EXISTS',
                message: 'Ein Tag mit diesem Namen gibt es bereits.',
                details: { field: 'name' },
              },
            },
            { status: 409 },
          );
        const tag: Tag = {
          id: '6e2d3c4b-5a6f-4b7c-9d8e-0f1a2b3c4d5e',
          name: String(body?.name),
          color: body?.color as Tag['color'],
          feedbackCount: 0,
          createdAt: '2025-03-01T08:00:00.000Z',
        };
        tags = [...tags, tag];
        return Response.json(tag, { status: 201 });
      }
      if (url.startsWith('/api/v1/tags/') && method === 'DELETE') {
        tags = tags.filter((t) => !url.endsWith(t.id));
        return new Response(null, { status: 204 });
      }
      return Response.json({ error: { code: 'NOT_FOUND', message: 'Not found.' } }, { status: 404 });
    }),
  );
  return calls;
}

const row = (name: string) => screen.getByText(name).closest('tr')!;

describe('the tags page', { timeout: 20_000 }, () => {
  it('lists the tags with their colour and how much feedback carries them', async () => {
    stubServer([PRICE]);
    renderWithApp(<TagsPage />, '/tags');
    await screen.findByText('Preis veraltet');
    const cells = within(row('Preis veraltet'));
    expect(cells.getByText('Orange')).toBeTruthy();
    expect(cells.getByRole('cell', { name: '7' })).toBeTruthy();
    expect(row('Preis veraltet').querySelector('[data-color="warning"]')).toBeTruthy();
  });

  it('adds a tag with the chosen colour', async () => {
    const calls = stubServer([PRICE]);
    renderWithApp(<TagsPage />, '/tags');
    await screen.findByText('Preis veraltet');
    fireEvent.click(screen.getByRole('button', { name: 'Add tag' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.input(within(dialog).getByLabelText('Name'), { target: { value: '  Anleitung fehlt ' } });
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Green' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Tag added.');
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({ name: 'Anleitung fehlt', color: 'success' });
    await screen.findByText('Anleitung fehlt');
  });

  it('shows on the name field that a tag with this name exists', async () => {
    stubServer([PRICE]);
    renderWithApp(<TagsPage />, '/tags');
    await screen.findByText('Preis veraltet');
    fireEvent.click(screen.getByRole('button', { name: 'Add tag' }));
    const dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByLabelText('Name');
    fireEvent.input(name, { target: { value: 'Preis veraltet' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await within(dialog).findByText('A tag with this name already exists.');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('deletes a tag after confirmation', async () => {
    const calls = stubServer([PRICE]);
    renderWithApp(<TagsPage />, '/tags');
    await screen.findByText('Preis veraltet');
    fireEvent.click(screen.getByRole('button', { name: 'Delete: Preis veraltet' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText(
        '"Preis veraltet" will be deleted. Feedback that carries it (7) is kept, without a tag.',
      ),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Tag deleted.');
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe(`/api/v1/tags/${PRICE.id}`);
    await waitFor(() => expect(screen.queryByText('Preis veraltet')).toBeNull());
    expect(screen.getByText('No tags yet. Add one to sort feedback by topic.')).toBeTruthy();
  });
});
