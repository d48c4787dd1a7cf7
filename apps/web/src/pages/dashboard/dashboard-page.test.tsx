import { screen, within } from '@testing-library/react';
import { type Dashboard, dashboardContracts, divisionContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-api.ts';
import { division, storage } from '../../test/fixtures.ts';
import { renderWithApp, useLanguage } from '../../test/render.tsx';
import DashboardPage from './dashboard-page.tsx';

afterEach(() => vi.unstubAllGlobals());

function dashboard(chat: Partial<Dashboard['chat']> = {}): Dashboard {
  return {
    company: { id: '4c3b2a19-0f8e-4d7c-9b6a-5f4e3d2c1b0a', name: 'Heiztechnik Müller GmbH' },
    plan: null,
    nextSteps: [{ step: 'uploadDocuments', done: true }],
    sales: null,
    chat: {
      filesReady: 12,
      questionsThisWeek: 34,
      questionsLastWeek: 20,
      answeredShare: 0.75,
      satisfaction: null,
      series: [
        { date: '2025-03-03', questions: 4, likes: 1, dislikes: 0 },
        { date: '2025-03-04', questions: 6, likes: 2, dislikes: 1 },
      ],
      gaps: Array.from({ length: 6 }, (_, i) => ({
        question: `Offene Frage ${i + 1}?`,
        variants: [],
        count: 3,
        noAnswerCount: 3,
        negativeCount: 0,
        divisions: ['Heizung'],
        lastAskedAt: '2025-03-05T16:00:00.000Z',
        companyName: null,
      })),
      ...chat,
    },
  };
}

function stubServer(data: Dashboard) {
  fakeApi()
    .on(dashboardContracts.company, () => data)
    .on(divisionContracts.list, () => ({ items: [division()], limit: 3, storage }));
}

describe('the dashboard', () => {
  it("shows the chat's figures, the storage, the chart and the newest knowledge gaps", async () => {
    stubServer(dashboard());
    renderWithApp(<DashboardPage />, '/dashboard');

    const files = await screen.findByTestId('figure-files-ready');
    await within(files).findByText('12');
    expect(within(files).getByRole('heading', { name: 'Files ready' })).toBeTruthy();

    const questions = within(screen.getByTestId('figure-questions'));
    expect(questions.getByText('34')).toBeTruthy();
    expect(questions.getByText('Last week: 20')).toBeTruthy();
    expect(within(screen.getByTestId('figure-answered')).getByText('75%')).toBeTruthy();
    expect(within(screen.getByTestId('figure-satisfaction')).getByText('—')).toBeTruthy();

    const usage = within(screen.getByTestId('figure-storage'));
    await usage.findByText('512 MB of 5 GB');
    expect(usage.getByRole('progressbar', { name: 'Storage' }).getAttribute('aria-valuenow')).toBe('10');

    const chart = within(screen.getByTestId('feedback-chart'));
    expect(chart.getByRole('heading', { name: 'Questions and feedback, last 30 days' })).toBeTruthy();
    expect(chart.getByText('Questions: 10')).toBeTruthy();
    expect(chart.getByText('Likes: 3')).toBeTruthy();

    const gaps = within(screen.getByTestId('dashboard-gaps'));
    expect(gaps.getAllByRole('listitem')).toHaveLength(5);
    expect(gaps.getByText('Offene Frage 1?')).toBeTruthy();
    expect(gaps.queryByText('Offene Frage 6?')).toBeNull();
    expect(gaps.getByRole('link', { name: 'All knowledge gaps' }).getAttribute('href')).toBe(
      '/feedback-report/knowledge-gaps',
    );

    // What the dashboard showed before stays.
    expect(screen.getByText('Heiztechnik Müller GmbH')).toBeTruthy();
    expect(screen.getByText('Upload your first documents')).toBeTruthy();
  });

  it('writes every figure as the interface language does, the storage in GB', async () => {
    await useLanguage('de');
    stubServer(dashboard({ filesReady: 1234, questionsThisWeek: 12345 }));
    renderWithApp(<DashboardPage />, '/dashboard');
    await within(await screen.findByTestId('figure-files-ready')).findByText('1.234');
    expect(within(screen.getByTestId('figure-questions')).getByText('12.345')).toBeTruthy();
    expect(within(screen.getByTestId('figure-answered')).getByText('75 %')).toBeTruthy();
    await within(screen.getByTestId('figure-storage')).findByText('512 MB von 5 GB');
  });

  it('shows the satisfaction as a share and says when there are no gaps', async () => {
    stubServer(dashboard({ satisfaction: 0.8, answeredShare: null, gaps: [] }));
    renderWithApp(<DashboardPage />, '/dashboard');
    const satisfaction = await screen.findByTestId('figure-satisfaction');
    await within(satisfaction).findByText('80%');
    expect(within(screen.getByTestId('figure-answered')).getByText('—')).toBeTruthy();
    expect(
      within(screen.getByTestId('dashboard-gaps')).getByText(
        'No knowledge gaps: your documents answered the questions well.',
      ),
    ).toBeTruthy();
  });

  it('shows open offers, unpaid invoices and the overdue amount to whoever may read them, and nothing otherwise', async () => {
    stubServer({
      ...dashboard(),
      sales: {
        openOffers: 2,
        openOffersCents: 123456,
        unpaidInvoices: 3,
        unpaidCents: 99900,
        overdueInvoices: 1,
        overdueCents: 11900,
      },
    });
    const view = renderWithApp(<DashboardPage />, '/dashboard');
    const offers = within(await screen.findByTestId('figure-open-offers'));
    expect(offers.getByRole('heading', { name: 'Open offers' })).toBeTruthy();
    expect(offers.getByText('€1,234.56')).toBeTruthy();
    expect(offers.getByText('Documents: 2')).toBeTruthy();
    expect(within(screen.getByTestId('figure-unpaid-invoices')).getByText('€999.00')).toBeTruthy();
    expect(within(screen.getByTestId('figure-overdue')).getByText('€119.00')).toBeTruthy();
    view.unmount();

    stubServer(dashboard());
    renderWithApp(<DashboardPage />, '/dashboard');
    await screen.findByTestId('figure-files-ready');
    expect(screen.queryByTestId('figure-open-offers')).toBeNull();
  });

  it('links each next step to the page that does it', async () => {
    stubServer({
      ...dashboard(),
      nextSteps: [
        { step: 'verifyEmail', done: false },
        { step: 'completeProfile', done: false },
        { step: 'uploadDocuments', done: false },
      ],
    });
    renderWithApp(<DashboardPage />, '/dashboard');

    const link = async (name: RegExp) => (await screen.findByRole('link', { name })).getAttribute('href');
    expect(await link(/Confirm your email address/)).toBe('/account-settings/account');
    expect(await link(/Complete your details/)).toBe('/account-settings/account');
    expect(await link(/Upload your first documents/)).toBe('/divisions');
    // Mailing the confirmation link again stays a button beside its step.
    expect(screen.getByRole('button', { name: 'Send a new link' })).toBeTruthy();
  });
});
