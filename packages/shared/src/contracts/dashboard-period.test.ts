import { describe, expect, it } from 'vitest';
import { lastDays, periodDays, resolvePeriod } from './dashboard-period.ts';

const now = Date.parse('2025-03-16T22:30:00Z');

describe('the period of the platform figures', () => {
  it('is the last 30 days up to today (UTC) by default, and 30 days up to a given end', () => {
    expect(resolvePeriod({}, now)).toEqual({ from: '2025-02-15', to: '2025-03-16' });
    expect(resolvePeriod({ to: '2025-01-31' }, now)).toEqual({ from: '2025-01-02', to: '2025-01-31' });
  });

  it('runs from a given start to today, or to the start itself when it lies ahead', () => {
    expect(resolvePeriod({ from: '2025-03-01' }, now)).toEqual({ from: '2025-03-01', to: '2025-03-16' });
    expect(resolvePeriod({ from: '2025-04-01' }, now)).toEqual({ from: '2025-04-01', to: '2025-04-01' });
  });

  it('refuses a start after the end and more than 366 days', () => {
    expect(resolvePeriod({ from: '2025-03-02', to: '2025-03-01' }, now)).toBeNull();
    expect(resolvePeriod({ from: '2024-03-03', to: '2025-03-03' }, now)).not.toBeNull();
    expect(resolvePeriod({ from: '2024-03-02', to: '2025-03-03' }, now)).toBeNull();
  });

  it('counts both ends and gives the presets ending today', () => {
    expect(periodDays('2025-03-03', '2025-03-03')).toBe(1);
    expect(periodDays('2024-02-28', '2024-03-01')).toBe(3);
    expect(lastDays(7, now)).toEqual({ from: '2025-03-10', to: '2025-03-16' });
  });
});
