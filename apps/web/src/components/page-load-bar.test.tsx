import { act, render, screen } from '@testing-library/react';
import { lazy, Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { nextProgress, PAGE_LOAD } from './page-load-bar.ts';
import { PageLoading, PageLoadProvider } from './page-load-bar.tsx';

describe('nextProgress (spec section 4)', () => {
  it('adds 5 to 15 per tick', () => {
    expect(nextProgress(10, () => 0)).toBe(15);
    expect(nextProgress(10, () => 0.9999)).toBe(25);
  });

  it('never passes the cap while loading', () => {
    let p: number = PAGE_LOAD.start;
    for (let i = 0; i < 50; i++) p = nextProgress(p, () => 0.9999);
    expect(p).toBe(82);
  });
});

describe('PageLoadProvider', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const value = () => Number(screen.getByTestId('page-load-bar').getAttribute('aria-valuenow'));

  it('starts at 10, ticks every 800 ms, completes at 100 and hides 300 ms later', async () => {
    let resolve: (m: { default: () => null }) => void = () => {};
    const Slow = lazy(() => new Promise<{ default: () => null }>((r) => (resolve = r)));
    render(
      <PageLoadProvider>
        <Suspense fallback={<PageLoading />}>
          <Slow />
        </Suspense>
      </PageLoadProvider>,
    );
    expect(value()).toBe(10);
    act(() => vi.advanceTimersByTime(799));
    expect(value()).toBe(10);
    act(() => vi.advanceTimersByTime(1));
    expect(value()).toBeGreaterThanOrEqual(15);
    expect(value()).toBeLessThanOrEqual(25);
    act(() => vi.advanceTimersByTime(800 * 40));
    expect(value()).toBe(82);
    await act(async () => {
      resolve({ default: () => null });
      await vi.runOnlyPendingTimersAsync();
    });
    expect(screen.queryByTestId('page-load-bar')).not.toBeNull();
    expect(value()).toBe(100);
    act(() => vi.advanceTimersByTime(300));
    expect(screen.queryByTestId('page-load-bar')).toBeNull();
  });
});
