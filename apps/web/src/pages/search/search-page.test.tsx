import { fireEvent, screen } from '@testing-library/react';
import { divisionContracts, searchContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Answer, fakeApi } from '../../test/fake-api.ts';
import { DIVISION_ID, division, storage } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import SearchPage from './search-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const OTHER_ID = '9c8d7e6f-5a4b-4c3d-8e2f-1a0b9c8d7e6f';

function stubServer(items: Answer<typeof searchContracts.search>['items']) {
  const api = fakeApi()
    .on(divisionContracts.list, () => ({
      items: [division(), division({ id: OTHER_ID, name: 'Elektro' })],
      limit: 3,
      storage,
    }))
    .on(searchContracts.search, () => ({ items }));
  return () => api.calls(searchContracts.search).map((call) => call.url.href);
}

// MUI renders slowly in happy-dom when the whole suite shares the processor.
describe('the search page', () => {
  it('searches on Enter within the chosen division and shows the hits', async () => {
    const searches = stubServer([
      {
        passageId: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
        fileId: 'f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9',
        fileName: 'Schaltplan.pdf',
        mimeType: 'application/pdf',
        divisionId: OTHER_ID,
        divisionName: 'Elektro',
        page: 7,
        headingPath: [],
        text: 'Der FI-Schalter trennt den Stromkreis.',
        score: 0.5,
      },
    ]);
    renderWithApp(<SearchPage />, '/employee/search');
    const division = (await screen.findByLabelText('Division')) as HTMLSelectElement;
    expect([...division.options].map((o) => o.text)).toEqual(['All divisions', 'Heizung', 'Elektro']);
    fireEvent.change(division, { target: { value: OTHER_ID } });
    const field = screen.getByLabelText('Search term');
    fireEvent.input(field, { target: { value: '  FI-Schalter Stromkreis ' } });
    fireEvent.submit(field.closest('form')!);

    const link = await screen.findByRole('link', { name: 'Schaltplan.pdf' });
    expect(link.getAttribute('href')).toBe(
      '/employee/files/f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9/view?page=7',
    );
    const url = new URL(searches()[0]!, 'http://localhost');
    expect(url.searchParams.get('q')).toBe('FI-Schalter Stromkreis');
    expect(url.searchParams.get('divisionId')).toBe(OTHER_ID);
    expect([...document.querySelectorAll('mark')].map((m) => m.textContent)).toEqual([
      'FI-Schalter',
      'Stromkreis',
    ]);
  });

  it('says so when nothing was found, and does not search for an empty query', async () => {
    const searches = stubServer([]);
    renderWithApp(<SearchPage />, '/employee/search');
    const field = await screen.findByLabelText('Search term');
    fireEvent.submit(field.closest('form')!);
    fireEvent.input(field, { target: { value: 'Fernwärme' } });
    fireEvent.submit(field.closest('form')!);
    await screen.findByText('No passages found for "Fernwärme".');
    expect(searches()).toHaveLength(1);
    expect(searches()[0]).not.toContain(DIVISION_ID);
  });
});
