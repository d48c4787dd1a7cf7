import { render, screen, within } from '@testing-library/react';
import type { SearchHit } from '@werkwissen/shared';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import '../../test/render.tsx';
import { highlight, queryWords, SearchResults } from './search-results.tsx';

const hit = (overrides: Partial<SearchHit> = {}): SearchHit => ({
  passageId: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
  fileId: 'f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9',
  fileName: 'Wartungshandbuch.pdf',
  mimeType: 'application/pdf',
  divisionId: '8b7f1a52-3c8e-4a53-9d2e-1f0c6a1b2c3d',
  divisionName: 'Heizung',
  page: 3,
  headingPath: ['Wartung', 'Brenner'],
  text: 'Der Brenner wird jährlich gewartet. Bei der Wartung des BRENNERS ist die Düse zu prüfen.',
  score: 0.82,
  ...overrides,
});

const marks = (container: HTMLElement) => [...container.querySelectorAll('mark')].map((m) => m.textContent);

describe('query words', () => {
  it('splits at spaces, drops punctuation around words and words shorter than 2 characters', () => {
    expect(queryWords('  Wie (oft) wird der Brenner gewartet? a  ')).toEqual([
      'gewartet',
      'brenner',
      'wird',
      'wie',
      'oft',
      'der',
    ]);
  });
});

describe('highlight', () => {
  it('marks every occurrence of the query words in any case, keeping the rest of the text', () => {
    const { container } = render(<p>{highlight(hit().text, 'brenner wartung')}</p>);
    expect(marks(container)).toEqual(['Brenner', 'Wartung', 'BRENNER']);
    expect(container.textContent).toBe(hit().text);
  });

  it('takes regular-expression characters in the query literally', () => {
    const { container } = render(
      <p>{highlight('Rohr 3.5 mm oder 345 mm, Typ A+B statt AAB', '3.5 a+b (mm')}</p>,
    );
    expect(marks(container)).toEqual(['3.5', 'mm', 'mm', 'A+B']);
  });

  it('marks nothing for a query without words of 2 characters or more', () => {
    const { container } = render(<p>{highlight('a b c', 'a b')}</p>);
    expect(marks(container)).toEqual([]);
    expect(container.textContent).toBe('a b c');
  });

  it('marks words in other scripts regardless of case', () => {
    const { container } = render(<p>{highlight('Котёл ОТОПЛЕНИЯ и отопление', 'отопления')}</p>);
    expect(marks(container)).toEqual(['ОТОПЛЕНИЯ']);
  });
});

describe('search results', () => {
  it('links each hit to its file at the page, with division, page and headings', () => {
    render(
      <MemoryRouter initialEntries={['/employee/search']}>
        <SearchResults
          hits={[
            hit(),
            hit({ passageId: 'b1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d', page: null, headingPath: [] }),
            hit({
              passageId: 'c1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
              fileId: 'd1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9',
              fileName: 'Preisliste.docx',
              mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
              page: null,
            }),
          ]}
          query="Brenner"
        />
      </MemoryRouter>,
    );
    const [first, second, third] = screen.getAllByTestId('search-hit');
    // A PDF opens in the app's viewer (scripting off) at the page, in the employee's area.
    const link = within(first!).getByRole('link', { name: 'Wartungshandbuch.pdf' });
    expect(link.getAttribute('href')).toBe(
      '/employee/files/f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9/view?page=3',
    );
    expect(link.getAttribute('target')).toBe('_blank');
    expect(within(first!).getByText('Heizung · Page 3 · Wartung › Brenner')).toBeTruthy();
    expect(marks(first!)).toEqual(['Brenner', 'BRENNER']);

    expect(within(second!).getByRole('link').getAttribute('href')).toBe(
      '/employee/files/f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9/view',
    );
    expect(within(second!).getByText('Heizung')).toBeTruthy();
    // Anything else opens as the original.
    expect(within(third!).getByRole('link').getAttribute('href')).toBe(
      '/api/v1/files/d1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9/content',
    );
  });
});
