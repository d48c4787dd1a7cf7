import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { divisionContracts, feedbackContracts, type KnowledgeGap } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-api.ts';
import { renderWithApp } from '../../test/render.tsx';
import KnowledgeGapsPage from './knowledge-gaps-page.tsx';
import { DIVISION_ID, divisionsResponse, gap } from './report-test-data.ts';

afterEach(() => vi.unstubAllGlobals());

function stubServer(items: KnowledgeGap[]) {
  const api = fakeApi()
    .on(divisionContracts.list, () => divisionsResponse())
    .on(feedbackContracts.gaps, () => ({ items }));
  return () => api.calls(feedbackContracts.gaps).map((call) => call.url.searchParams);
}

describe('the knowledge gaps', () => {
  it('shows each group with its counts, divisions and other wordings', async () => {
    const requests = stubServer([
      gap(),
      gap({ question: 'Gibt es eine Anleitung für die XR-200?', variants: [] }),
    ]);
    renderWithApp(<KnowledgeGapsPage />, '/feedback-report/knowledge-gaps');

    expect(
      screen.getByText(/These are the questions your documents did not answer well/, { exact: false }),
    ).toBeTruthy();
    const cards = await screen.findAllByTestId('gap-card');
    expect(cards).toHaveLength(2);
    const first = within(cards[0]!);
    expect(first.getByRole('heading', { name: 'Was kostet der Notdienst am Wochenende?' })).toBeTruthy();
    expect(first.getByText('Asked: 6')).toBeTruthy();
    expect(first.getByText('No passage found: 4')).toBeTruthy();
    expect(first.getByText('Negative feedback: 2')).toBeTruthy();
    expect(first.getByText(/Divisions: Heizung, Büro/)).toBeTruthy();
    expect(first.getByText(/Last asked: /)).toBeTruthy();

    const toggle = first.getByRole('button', { name: 'Other wordings (2)' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(first.getByText('Wie teuer ist der Wochenend-Notdienst?')).toBeTruthy();
    expect(within(cards[1]!).queryByRole('button', { name: /Other wordings/ })).toBeNull();

    const tab = screen.getByRole('tab', { name: 'Knowledge gaps' });
    expect(tab.getAttribute('aria-selected')).toBe('true');

    const division = screen.getByLabelText('Division') as HTMLSelectElement;
    await waitFor(() => expect(division.options.length).toBe(2));
    fireEvent.change(division, { target: { value: DIVISION_ID } });
    fireEvent.change(screen.getByLabelText('Origin'), { target: { value: 'public' } });
    await waitFor(() => expect(requests().at(-1)?.get('origin')).toBe('public'));
    expect(requests().at(-1)?.get('divisionId')).toBe(DIVISION_ID);
    expect(screen.queryByLabelText('Mood')).toBeNull();
  });

  it('says so when the period has no gaps', async () => {
    stubServer([]);
    renderWithApp(<KnowledgeGapsPage />, '/feedback-report/knowledge-gaps?from=2025-03-01');
    await screen.findByText('No knowledge gaps were found in this period.');
    expect(screen.queryAllByTestId('gap-card')).toHaveLength(0);
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('2025-03-01');
  });
});
