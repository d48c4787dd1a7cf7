import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  type AdminDashboard,
  dashboardContracts,
  lastDays,
  type PlatformFigures,
  type RouteContract,
} from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi, type Handler } from '../../test/fake-api.ts';
import { renderWithApp, useLanguage } from '../../test/render.tsx';
import AdminDashboardPage from './admin-dashboard-page.tsx';
import AnalysisDashboardPage from './analysis-dashboard-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const MB = 1024 * 1024;
const dates = (n: number) =>
  Array.from({ length: n }, (_, i) => new Date(Date.UTC(2025, 2, 3 + i)).toISOString().slice(0, 10));

function figures(busy = true): PlatformFigures {
  const v = (value: number) => (busy ? value : 0);
  return {
    period: { from: '2025-03-03', to: '2025-03-16' },
    totals: {
      companies: v(1240),
      newCompanies: v(3),
      signUps: v(17),
      activeUsers: v(42),
      files: v(310),
      storageBytes: v(1536 * MB),
      filesAdded: v(12),
      bytesAdded: v(24 * MB),
      questions: v(96),
      answers: v(90),
      answered: v(72),
      answeredShare: busy ? 0.8 : null,
      likes: v(6),
      dislikes: v(2),
      satisfaction: busy ? 0.75 : null,
      failedFiles: v(4),
    },
    daily: dates(14).map((date, i) => ({
      date,
      activeUsers: v(i % 5),
      questions: v(i),
      answers: v(i),
      answered: v(Math.floor(i / 2)),
      likes: v(i % 2),
      dislikes: 0,
      failedFiles: v(i === 9 ? 4 : 0),
    })),
    weekly: ['2025-03-03', '2025-03-10'].map((week, i) => ({
      week,
      newCompanies: v(i + 1),
      signUps: v(8 + i),
      activeUsers: v(20 + i),
      filesAdded: v(6),
      bytesAdded: v(12 * MB),
      files: v(304 + 6 * i),
      storageBytes: v((1512 + 12 * i) * MB),
    })),
  };
}

/** Answers the page's figures of any period it asks for; what it gives are the addresses of all its requests. */
function stubServer<C extends RouteContract>(contract: C, answer: Handler<C>) {
  const api = fakeApi().on(contract, answer);
  return () => api.requests.map((request) => new URL(request.url, 'http://localhost'));
}

describe('the analysis dashboard', () => {
  it('asks for the last 30 days and shows the totals, the period and every chart', async () => {
    const asked = stubServer(dashboardContracts.analysis, () => figures());
    renderWithApp(<AnalysisDashboardPage />, '/analysis/dashboard');

    await within(await screen.findByTestId('figure-companies')).findByText('1,240');
    const last30 = lastDays(30);
    expect(asked()[0]!.pathname).toBe('/api/v1/analysis/dashboard');
    expect(Object.fromEntries(asked()[0]!.searchParams)).toEqual(last30);
    expect(screen.getByRole('heading', { level: 1, name: 'Analysis' })).toBeTruthy();
    expect(screen.getByTestId('period-shown').textContent).toBe('Mar 3, 2025 to Mar 16, 2025');
    expect(within(screen.getByTestId('figure-companies')).getByText('New in this period: 3')).toBeTruthy();
    expect(within(screen.getByTestId('figure-active-users')).getByText('42')).toBeTruthy();
    expect(within(screen.getByTestId('figure-files')).getByText('Storage: 1.5 GB')).toBeTruthy();
    expect(within(screen.getByTestId('figure-answered')).getByText('80%')).toBeTruthy();
    expect(within(screen.getByTestId('figure-satisfaction')).getByText('75%')).toBeTruthy();
    expect(within(screen.getByTestId('figure-failed')).getByText('4')).toBeTruthy();

    const charts = [
      ['chart-growth', 'Companies and new users per week', 'New users: 17'],
      ['chart-active-users', 'Active users per day', 'Active users: 42'],
      ['chart-files', 'Files added per week', 'Added: 12 · 24 MB'],
      ['chart-storage', 'Storage per week', 'Stored: 310 · 1.5 GB'],
      ['chart-questions', 'Questions per day', 'Questions: 96'],
      ['chart-quality', 'Answered share and satisfaction per day', 'Answered: 80%'],
      ['chart-failed', 'Failed processing per day', 'Failed: 4'],
    ] as const;
    for (const [id, title, total] of charts) {
      const chart = within(screen.getByTestId(id));
      expect(chart.getByRole('heading', { name: title })).toBeTruthy();
      expect(chart.getByText(total)).toBeTruthy();
      // Drawn: the chart's axes carry their tick labels.
      await waitFor(() =>
        expect(screen.getByTestId(id).querySelector('svg .MuiChartsAxis-tickLabel')).not.toBeNull(),
      );
    }
    // Weeks are bars, days are lines.
    expect(screen.getByTestId('chart-growth').querySelector('[data-chart-kind=bar]')).not.toBeNull();
    expect(screen.getByTestId('chart-questions').querySelector('[data-chart-kind=line]')).not.toBeNull();
  });

  it('switches to a preset and to a custom period, refusing one that ends before it starts', async () => {
    const asked = stubServer(dashboardContracts.analysis, () => figures());
    renderWithApp(<AnalysisDashboardPage />, '/analysis/dashboard');
    await within(await screen.findByTestId('figure-companies')).findByText('1,240');

    fireEvent.click(screen.getByRole('button', { name: 'Last 7 days' }));
    await waitFor(() => expect(Object.fromEntries(asked().at(-1)!.searchParams)).toEqual(lastDays(7)));
    expect(screen.getByRole('button', { name: 'Last 7 days' }).getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'Custom' }));
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    const before = asked().length;
    fireEvent.change(from, { target: { value: '2025-03-20' } });
    fireEvent.change(to, { target: { value: '2025-03-10' } });
    expect(
      await screen.findByText(
        'Choose a period whose start is not after its end and that covers at most 366 days.',
      ),
    ).toBeTruthy();
    expect(asked().length).toBe(before);

    fireEvent.change(from, { target: { value: '2025-03-01' } });
    await waitFor(() =>
      expect(Object.fromEntries(asked().at(-1)!.searchParams)).toEqual({
        from: '2025-03-01',
        to: '2025-03-10',
      }),
    );
    expect(screen.queryByText(/covers at most 366 days/)).toBeNull();
  });

  it('says so in each chart when the period had nothing, instead of plotting zeros', async () => {
    stubServer(dashboardContracts.analysis, () => figures(false));
    renderWithApp(<AnalysisDashboardPage />, '/analysis/dashboard?days=90');
    await within(await screen.findByTestId('figure-questions')).findByText('0');
    expect(within(screen.getByTestId('figure-answered')).getByText('—')).toBeTruthy();
    expect(screen.getAllByText('Nothing in this period.')).toHaveLength(7);
    expect(document.querySelector('[data-chart-kind] svg')).toBeNull();
    expect(screen.getByRole('button', { name: 'Last 90 days' }).getAttribute('aria-pressed')).toBe('true');
  });

  it("shows the server's refusal of a period in the interface language", async () => {
    await useLanguage('de');
    stubServer(dashboardContracts.analysis, () =>
      apiError(422, 'PERIOD_INVALID', 'Wählen Sie einen gültigen Zeitraum.'),
    );
    renderWithApp(<AnalysisDashboardPage />, '/analysis/dashboard?from=2025-03-01&to=2025-03-10');
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Eigener Zeitraum' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
  });
});

describe("the operator's dashboard", () => {
  it("shows today's counters above the figures of the period, with dates and numbers in German", async () => {
    await useLanguage('de');
    const body: AdminDashboard = {
      companies: 1240,
      users: { Administrator: 1, Staff: 2, DataManager: 1240, Employee: 5321 },
      emails: { sent: 10, failed: 1, not_sent: 2 },
      signInsLast7Days: 77,
      failedSignInsLast7Days: 5,
      figures: figures(),
    };
    const asked = stubServer(dashboardContracts.admin, () => body);
    renderWithApp(<AdminDashboardPage />, '/admin/dashboard?days=7');
    await screen.findByText('5.321');
    expect(asked()[0]!.pathname).toBe('/api/v1/admin/dashboard');
    expect(Object.fromEntries(asked()[0]!.searchParams)).toEqual(lastDays(7));
    expect(screen.getByRole('heading', { name: 'Im Zeitverlauf' })).toBeTruthy();
    expect(screen.getByTestId('period-shown').textContent).toBe('03.03.2025 bis 16.03.2025');
    expect(within(screen.getByTestId('figure-files')).getByText('Speicher: 1,5 GB')).toBeTruthy();
    const growth = within(screen.getByTestId('chart-growth'));
    expect(growth.getByText('Neue Nutzer: 17')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByTestId('chart-questions').querySelector('.MuiChartsAxis-tickLabel')).not.toBeNull(),
    );
    const ticks = [...screen.getByTestId('chart-questions').querySelectorAll('.MuiChartsAxis-tickLabel')].map(
      (el) => el.textContent,
    );
    expect(ticks).toContain('3. März');
  });
});
