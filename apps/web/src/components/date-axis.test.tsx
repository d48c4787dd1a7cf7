import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FeedbackChart, type SeriesPoint } from '../pages/reports/feedback-chart.tsx';
import { renderWithApp, useLanguage } from '../test/render.tsx';

const days = (n: number): SeriesPoint[] =>
  Array.from({ length: n }, (_, i) => ({
    date: new Date(Date.UTC(2025, 2, 1 + i)).toISOString().slice(0, 10),
    questions: i,
    likes: 1,
    dislikes: 0,
  }));

const happyDom = (
  window as unknown as { happyDOM: { setViewport(v: { width: number; height: number }): void } }
).happyDOM;
afterEach(() => happyDom.setViewport({ width: 1024, height: 768 }));

/** The date labels under the chart. */
async function dateTicks(): Promise<string[]> {
  const chart = screen.getByTestId('feedback-chart');
  await within(chart).findAllByText(/\S/, {
    selector:
      '.MuiChartsAxis-directionX .MuiChartsAxis-tickLabel, .MuiChartsAxis-directionX .MuiChartsAxis-tickLabel tspan',
  });
  return [...chart.querySelectorAll('.MuiChartsAxis-directionX .MuiChartsAxis-tickLabel')].map(
    (el) => el.textContent ?? '',
  );
}

describe('the date axis of charts', () => {
  it('shows about seven dates with month names on wide screens', async () => {
    await useLanguage('ar');
    renderWithApp(<FeedbackChart title="أسئلة" items={days(30)} />);
    const ticks = await dateTicks();
    expect(ticks.length).toBeGreaterThanOrEqual(5);
    expect(ticks.length).toBeLessThanOrEqual(8);
    expect(ticks[0]).toBe(
      new Intl.DateTimeFormat('ar', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
        Date.UTC(2025, 2, 1),
      ),
    );
    expect(ticks[0]).toContain('مارس');
  });

  it('shows at most four short dates on phones, so that Arabic labels do not overlap', async () => {
    await useLanguage('ar');
    happyDom.setViewport({ width: 390, height: 800 });
    renderWithApp(<FeedbackChart title="أسئلة" items={days(30)} />);
    const ticks = await dateTicks();
    expect(ticks.length).toBeLessThanOrEqual(4);
    expect(ticks[0]).toBe(
      new Intl.DateTimeFormat('ar', { day: 'numeric', month: 'numeric', timeZone: 'UTC' }).format(
        Date.UTC(2025, 2, 1),
      ),
    );
    expect(ticks.every((tick) => !tick.includes('مارس'))).toBe(true);
  });
});
