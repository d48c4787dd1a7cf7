import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  divisionContracts,
  type FeedbackReportItem,
  feedbackContracts,
  tagContracts,
} from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, page } from '../../test/fake-api.ts';
import { renderWithApp } from '../../test/render.tsx';
import FeedbackReportPage from './feedback-report-page.tsx';
import { COMPANY_ID, DIVISION_ID, divisionsResponse, feedbackItem, TAG_ID } from './report-test-data.ts';

afterEach(() => vi.unstubAllGlobals());

function stubServer(items: FeedbackReportItem[]) {
  const api = fakeApi()
    .on(divisionContracts.list, () => divisionsResponse())
    .on(tagContracts.list, () => ({
      items: [
        {
          id: TAG_ID,
          name: 'Preis veraltet',
          color: 'warning',
          feedbackCount: 1,
          createdAt: '2025-02-01T08:00:00.000Z',
        },
      ],
    }))
    .on(feedbackContracts.series, () => ({
      items: [
        { date: '2025-03-03', questions: 5, likes: 2, dislikes: 1, feedback: 3, averageRating: 4 },
        { date: '2025-03-04', questions: 7, likes: 1, dislikes: 2, feedback: 3, averageRating: null },
      ],
    }))
    .on(feedbackContracts.list, () => page(items));
  return {
    list: () => api.calls(feedbackContracts.list).map((call) => call.url.searchParams),
    series: () => api.calls(feedbackContracts.series).map((call) => call.url.searchParams),
  };
}

/** Matches the element whose whole text is `text`, even when parts of it sit in child elements. */
const fullText = (text: string) => (_: string, el: Element | null) =>
  el?.textContent === text && [...el.children].every((child) => child.textContent !== text);

describe('the feedback report', () => {
  it('sends the chosen filters with the list, the chart and the export', async () => {
    const server = stubServer([feedbackItem()]);
    renderWithApp(<FeedbackReportPage />, '/feedback-report');

    await screen.findByText('Erika Monteur');
    expect(screen.getByRole('heading', { name: 'Feedback report' })).toBeTruthy();
    const chart = screen.getByTestId('feedback-chart');
    expect(within(chart).getByText('Questions: 12')).toBeTruthy();
    expect(within(chart).getByText('Dislikes: 3')).toBeTruthy();
    expect(server.list()[0]!.get('mood')).toBeNull();

    const division = (await screen.findByLabelText('Division')) as HTMLSelectElement;
    await waitFor(() => expect(division.options.length).toBe(2));
    fireEvent.change(division, { target: { value: DIVISION_ID } });
    fireEvent.change(screen.getByLabelText('Mood'), { target: { value: 'negative' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-03-01' } });

    await waitFor(() => expect(server.list().at(-1)?.get('mood')).toBe('negative'));
    const last = server.list().at(-1)!;
    expect(last.get('divisionId')).toBe(DIVISION_ID);
    expect(last.get('from')).toBe('2025-03-01');
    expect(last.get('page')).toBe('1');
    await waitFor(() => expect(server.series().at(-1)?.get('mood')).toBe('negative'));

    // One CSV export: the full report of the server, not a second one of the table's columns.
    expect(screen.queryByRole('button', { name: 'Export CSV' })).toBeNull();
    expect(screen.getAllByText(/CSV/)).toHaveLength(1);
    const exportLink = screen.getByRole('link', { name: 'Export report (CSV)' });
    const href = new URL(exportLink.getAttribute('href')!, 'http://localhost');
    expect(href.pathname).toBe('/api/v1/feedback-export');
    expect(Object.fromEntries(href.searchParams)).toEqual({
      from: '2025-03-01',
      divisionId: DIVISION_ID,
      mood: 'negative',
    });
  });

  it('opens a feedback with its question, answer and cited passages', async () => {
    stubServer([feedbackItem()]);
    renderWithApp(<FeedbackReportPage />, '/feedback-report');
    const cell = await screen.findByText('Erika Monteur');
    const row = within(cell.closest('tr')!);
    expect(row.getByRole('img', { name: 'Disliked' })).toBeTruthy();
    expect(row.getByRole('img', { name: 'Unhappy' })).toBeTruthy();
    expect(row.getByRole('img', { name: '2 of 5' })).toBeTruthy();
    expect(row.getByText('Preis veraltet')).toBeTruthy();

    fireEvent.click(cell);
    const drawer = await screen.findByTestId('feedback-drawer');
    const d = within(drawer);
    expect(d.getByRole('heading', { name: 'Feedback details' })).toBeTruthy();
    expect(d.getByText('Wie oft muss der Brenner der Therme gewartet werden?')).toBeTruthy();
    expect(d.getByText('Einmal im Jahr [1].')).toBeTruthy();
    const citations = within(d.getByTestId('citations'));
    expect(citations.getByText(fullText('Wartungshandbuch.pdf · page 12'))).toBeTruthy();
    expect(citations.getByText('Der Brenner ist jährlich zu warten.')).toBeTruthy();
    expect(citations.getByText(fullText('Alte Preisliste.pdf · page 3'))).toBeTruthy();
    expect(citations.getByText('File removed')).toBeTruthy();
    expect(d.getByText('Die Angabe ist veraltet.')).toBeTruthy();
    expect(d.getByText('Preis veraltet').closest('[data-color]')?.getAttribute('data-color')).toBe('warning');
    expect(d.queryByText(/Heiztechnik Müller GmbH/)).toBeNull();

    fireEvent.click(d.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByTestId('feedback-drawer')).toBeNull());

    // The question is the keyboard's way in.
    fireEvent.click(
      await screen.findByRole('button', {
        name: 'Show details: Wie oft muss der Brenner der Therme gewartet werden?',
      }),
    );
    await screen.findByTestId('feedback-drawer');
  });

  it('fixes the origin on the employees view and leaves the origin filter out', async () => {
    const server = stubServer([feedbackItem()]);
    renderWithApp(<FeedbackReportPage />, '/feedback-report/employee-feedback');
    await screen.findByText('Erika Monteur');
    expect(screen.getByRole('heading', { name: 'Employee feedback' })).toBeTruthy();
    expect(server.list()[0]!.get('origin')).toBe('employee');
    expect(screen.queryByLabelText('Origin')).toBeNull();
    const tabs = screen.getByRole('tablist');
    expect(within(tabs).getByRole('tab', { name: 'Employees' }).getAttribute('aria-selected')).toBe('true');
    expect(within(tabs).getByRole('tab', { name: 'Knowledge gaps' }).getAttribute('href')).toBe(
      '/feedback-report/knowledge-gaps',
    );
  });

  it('shows administrators the data managers’ feedback of every company, with a company column and filter but no tabs', async () => {
    const server = stubServer([feedbackItem()]);
    renderWithApp(<FeedbackReportPage />, '/admin/datamanager-feedback');
    await screen.findByText('Erika Monteur');
    expect(screen.getByRole('heading', { name: "Data managers' feedback" })).toBeTruthy();
    // Only data managers' feedback: employees' and visitors' are their company's report.
    expect(server.list()[0]!.get('origin')).toBe('dataManager');
    expect(screen.queryByLabelText('Origin')).toBeNull();
    expect(screen.queryByRole('tablist')).toBeNull();
    expect(screen.queryByLabelText('Division')).toBeNull();
    expect(screen.getByRole('columnheader', { name: 'Company' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: 'Heiztechnik Müller GmbH' })).toBeTruthy();
    const company = screen.getByLabelText('Company') as HTMLSelectElement;
    await waitFor(() => expect([...company.options].map((o) => o.text)).toContain('Heiztechnik Müller GmbH'));
    fireEvent.change(company, { target: { value: COMPANY_ID } });
    await waitFor(() => expect(server.list().at(-1)?.get('companyId')).toBe(COMPANY_ID));
  });
});
