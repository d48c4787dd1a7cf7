import { describe, expect, it } from 'vitest';
import {
  centsToDecimal,
  divideRounded,
  documentTotals,
  lineNetCents,
  taxCents,
  totalsProblem,
} from './totals.ts';

const line = (quantity: number, unitPriceCents: number, taxRate = 19, discountPercent = 0) => ({
  quantity,
  unitPriceCents,
  taxRate,
  discountPercent,
});

describe('document totals', () => {
  it('rounds halves away from zero, exactly', () => {
    expect(divideRounded(5n, 10n)).toBe(1);
    expect(divideRounded(4n, 10n)).toBe(0);
    expect(divideRounded(-5n, 10n)).toBe(-1);
    expect(divideRounded(15n, 10n)).toBe(2);
    expect(divideRounded(25n, 10n)).toBe(3);
  });

  it('rounds a line once: 0.005-cent cases go up, not to even', () => {
    // 1.5 × 0.01 € = 1.5 cents -> 2; 0.5 × 1 cent -> 1; 2.5 × 1 cent -> 3 (banker's rounding would give 2).
    expect(lineNetCents(line(1.5, 1))).toBe(2);
    expect(lineNetCents(line(0.5, 1))).toBe(1);
    expect(lineNetCents(line(2.5, 1))).toBe(3);
    // 3 × 33.33 € less 10 % = 89.991 € -> 89.99 €
    expect(lineNetCents(line(3, 3333, 19, 10))).toBe(8999);
    // 0.125 m³ × 12.34 € = 1.5425 € -> 1.54 €
    expect(lineNetCents(line(0.125, 1234))).toBe(154);
    // 1.005 (floating point is 1.00499…) × 1 € is exactly 1.005 € -> 1.01 €
    expect(lineNetCents(line(1.005, 100))).toBe(101);
  });

  it('rounds tax per rate on the group’s net sum, not per line', () => {
    // Three lines of 0.10 € at 19 %: per line 1.9 cents each would round to 2+2+2 = 6; on the sum 30 × 0.19 = 5.7 -> 6.
    // Three lines of 0.05 € at 7 %: per line 0.35 -> 0 each; on the sum 15 × 0.07 = 1.05 -> 1.
    const totals = documentTotals([
      line(1, 10),
      line(1, 10),
      line(1, 10),
      line(1, 5, 7),
      line(1, 5, 7),
      line(1, 5, 7),
    ]);
    expect(totals.taxGroups).toEqual([
      { taxRate: 19, netCents: 30, taxCents: 6 },
      { taxRate: 7, netCents: 15, taxCents: 1 },
    ]);
    expect(totals).toMatchObject({ netCents: 45, taxCents: 7, grossCents: 52 });
  });

  it('adds a craft invoice the way a tax advisor checks it: several rates, discounts, a tax-free line', () => {
    const totals = documentTotals([
      line(2.5, 6450, 19), // labour 2.5 h × 64.50 € = 161.25 €
      line(1, 28990, 19, 5), // boiler part 289.90 € less 5 % = 275.405 € -> 275.41 €
      line(12, 199, 7), // 12 × 1.99 € at 7 % = 23.88 €
      line(1, 2500, 0), // fee without tax
    ]);
    expect(totals.lineNetCents).toEqual([16125, 27541, 2388, 2500]);
    expect(totals.taxGroups).toEqual([
      { taxRate: 19, netCents: 43666, taxCents: 8297 }, // 436.66 × 0.19 = 82.9654
      { taxRate: 7, netCents: 2388, taxCents: 167 }, // 23.88 × 0.07 = 1.6716
      { taxRate: 0, netCents: 2500, taxCents: 0 },
    ]);
    expect(totals).toMatchObject({ netCents: 48554, taxCents: 8464, grossCents: 57018 });
  });

  it('takes half-cent taxes up: 0.5 cent of tax is a cent', () => {
    // 2.50 € at 19 % = 47.5 cents -> 48; 50 cents at 7 % = 3.5 -> 4; 2.50 € at 5.5 % = 13.75 -> 14
    expect(taxCents(250, 19)).toBe(48);
    expect(taxCents(50, 7)).toBe(4);
    expect(taxCents(250, 5.5)).toBe(14);
  });

  it('has no totals problem when the stored totals are the lines’ own, and names the one it has', () => {
    const lines = [line(2, 1000), line(1, 500, 7)];
    const totals = documentTotals(lines);
    expect(totalsProblem(lines, totals)).toBeNull();
    expect(totalsProblem([], documentTotals([]))).toBe('no lines');
    expect(totalsProblem(lines, { ...totals, grossCents: totals.grossCents + 1 })).toBe(
      'stored totals differ from the lines',
    );
    expect(totalsProblem([line(1, -100)], documentTotals([line(1, -100)]))).toBe('total not positive');
    expect(totalsProblem([line(1, 100, 19, 100)], documentTotals([line(1, 100, 19, 100)]))).toBe(
      'total not positive',
    );
    const huge = [line(999999, Number.MAX_SAFE_INTEGER)];
    expect(totalsProblem(huge, documentTotals(huge))).toBe('amount out of range');
  });

  it('writes cents as decimals for e-invoices', () => {
    expect(centsToDecimal(57018)).toBe('570.18');
    expect(centsToDecimal(5)).toBe('0.05');
    expect(centsToDecimal(-1234)).toBe('-12.34');
  });
});
