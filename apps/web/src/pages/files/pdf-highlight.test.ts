import { describe, expect, it } from 'vitest';
import { fileLink } from './file-url.ts';
import { HIGHLIGHT_CLASS, highlightPassage, requestedPassage } from './pdf-highlight.ts';

const layer = (spans: string[]) => {
  const div = document.createElement('div');
  for (const text of spans) {
    const span = document.createElement('span');
    span.textContent = text;
    div.append(span);
  }
  return div;
};

describe('the cited passage on its page', () => {
  it('marks the lines and cells of the passage, not the rest of the page', () => {
    const page = layer([
      '9.2 Störungscodes',
      'E12',
      'Kein Zündfunke',
      'Elektrode prüfen',
      'E13',
      'Wassermangel',
      '9',
    ]);
    const first = highlightPassage(
      page,
      'Code | Bedeutung | Abhilfe\nE12 | Kein Zündfunke | Elektrode prüfen',
    );
    const marked = [...page.querySelectorAll(`.${HIGHLIGHT_CLASS}`)].map((s) => s.textContent);
    expect(marked).toEqual(['Kein Zündfunke', 'Elektrode prüfen']);
    expect(first?.textContent).toBe('Kein Zündfunke');
  });

  it('finds a line whose word the passage joined across a line break', () => {
    const page = layer(['Die Heizungs-', 'anlage wird jährlich geprüft.']);
    highlightPassage(page, 'Die Heizungsanlage wird jährlich geprüft.');
    expect(page.querySelectorAll(`.${HIGHLIGHT_CLASS}`)).toHaveLength(2);
  });

  it('carries the passage in the link to the page, outside what reaches the server', () => {
    const href = fileLink({ fileId: 'f1', pdf: true, page: 3, passage: 'E12 | Kein Zündfunke' }, '/chats');
    expect(href).toBe(`/files/f1/view?page=3#passage=${encodeURIComponent('E12 | Kein Zündfunke')}`);
    expect(requestedPassage(new URL(href, 'http://x').hash)).toBe('E12 | Kein Zündfunke');
    expect(fileLink({ fileId: 'f1', pdf: true, page: 3 }, '/chats')).toBe('/files/f1/view?page=3');
  });
});
