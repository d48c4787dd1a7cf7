import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp, useLanguage } from '../../test/render.tsx';
import { FeedbackChart, type SeriesPoint } from './feedback-chart.tsx';

const days = (n: number, point: (i: number) => Omit<SeriesPoint, 'date'>): SeriesPoint[] =>
  Array.from({ length: n }, (_, i) => ({
    date: new Date(Date.UTC(2025, 2, 1 + i)).toISOString().slice(0, 10),
    ...point(i),
  }));

/** The texts of the chart's axes (tick labels). */
async function ticks(): Promise<string[]> {
  const chart = screen.getByTestId('feedback-chart');
  await within(chart).findAllByText(/\d/, { selector: 'text, tspan' });
  return [...chart.querySelectorAll('.MuiChartsAxis-tickLabel')].map((el) => el.textContent ?? '');
}

describe('the feedback chart', () => {
  it('says in one sentence that a period had no questions instead of plotting zeros', async () => {
    renderWithApp(
      <FeedbackChart
        title="Last 30 days"
        items={days(30, () => ({ questions: 0, likes: 0, dislikes: 0 }))}
      />,
    );
    const chart = within(screen.getByTestId('feedback-chart'));
    expect(chart.getByText('No questions in this period.')).toBeTruthy();
    expect(screen.getByTestId('feedback-chart').querySelector('svg.MuiChartsSurface-root')).toBeNull();
    expect(chart.queryByText(/0\.0/)).toBeNull();
  });

  it('labels the dates and counts in the interface language, with whole numbers', async () => {
    await useLanguage('de');
    renderWithApp(
      <FeedbackChart
        title="Fragen"
        items={days(30, (i) => ({ questions: i === 3 ? 2400 : i, likes: 1, dislikes: 0 }))}
      />,
    );
    const labels = await ticks();
    expect(labels).toContain('1. März');
    expect(labels).toContain('2.000');
    expect(labels.some((l) => /^\d{1,3},\d/.test(l))).toBe(false);
  });

  it('has whole-number ticks for small counts', async () => {
    renderWithApp(
      <FeedbackChart
        title="Questions"
        items={days(7, (i) => ({ questions: i % 2, likes: 0, dislikes: 0 }))}
      />,
    );
    const labels = await ticks();
    expect(labels).toContain('Mar 1');
    expect(labels.filter((l) => /\./.test(l))).toEqual([]);
  });
});
