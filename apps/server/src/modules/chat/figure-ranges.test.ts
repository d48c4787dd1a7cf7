import { describe, expect, it } from 'vitest';
import { askedQuantities, figureRanges, holdsQuantity } from './figure-ranges.ts';

const holds = (text: string, value: number, unit: string) =>
  figureRanges(text).some((r) => holdsQuantity(r, { value, unit }));

describe('figure ranges', () => {
  it('reads the bounds a law writes, in figures and in words', () => {
    const rule =
      'Ruhepausen von mindestens 30 Minuten bei einer Arbeitszeit von mehr als sechs bis zu neun Stunden und 45 Minuten bei einer Arbeitszeit von mehr als neun Stunden';
    expect(holds(rule, 8, 'h')).toBe(true);
    expect(holds(rule, 6, 'h')).toBe(false);
    expect(holds('Länger als viereinhalb Stunden hintereinander', 5, 'h')).toBe(true);
    expect(holds('Jugendliche dürfen nicht mehr als acht Stunden täglich beschäftigt werden.', 8, 'h')).toBe(
      true,
    );
    // "noch nicht 17 Jahre" is no rule for a 17-year-old; "noch nicht 18 Jahre" is.
    expect(holds('27 Werktage, wenn der Jugendliche noch nicht 17 Jahre alt ist', 17, 'y')).toBe(false);
    expect(holds('25 Werktage, wenn der Jugendliche noch nicht 18 Jahre alt ist', 17, 'y')).toBe(true);
    expect(holds('between 6 and 9 hours', 7, 'h')).toBe(true);
  });

  it('leaves words that are no figure or no unit of time alone', () => {
    expect(figureRanges('über die zulässige Schichtzeit hinaus')).toEqual([]);
    expect(figureRanges('mindestens 0,4 mm Schichtdicke')).toEqual([]);
  });

  it('reads the quantities a question states with their unit, in its language', () => {
    expect([...askedQuantities('Jugendlicher arbeitet 7 Stunden, wie lang muss die Pause sein?')]).toEqual([
      ['7', { value: 7, unit: 'h' }],
    ]);
    expect(askedQuantities('How long a break do I get for an 8-hour workday?').get('8')).toEqual({
      value: 8,
      unit: 'h',
    });
    expect(askedQuantities('Wie lange darf unser 16-jähriger Azubi arbeiten?').get('16')?.unit).toBe('y');
    expect(askedQuantities('Какой перерыв положен при 8 часах работы?').get('8')?.unit).toBe('h');
    // A figure without its unit is no quantity: "Typ 22", "mit 17".
    expect(askedQuantities('Was kostet ein Heizkörper Typ 22? Urlaub mit 17?').size).toBe(0);
  });
});
