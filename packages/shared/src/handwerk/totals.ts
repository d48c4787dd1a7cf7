/**
 * The arithmetic of an offer or invoice, in integer cents, shared by the server (which stores and checks it) and the
 * browser (which shows it while the user types). Pure functions, no floating point in money:
 * - a line's net amount is quantity × unit price less its discount, rounded once, half away from zero;
 * - lines are grouped by tax rate; each group's tax is its net sum × rate, rounded once (EN 16931: BT-117 = BT-116 ×
 *   BT-119, per category, not a sum of rounded line taxes);
 * - the gross total is net plus tax.
 * Quantities carry up to 3 decimals, discounts and tax rates up to 2 (percent).
 */

export interface TotalsLine {
  /** Up to 3 decimals (2.5 hours, 0.125 m³). */
  quantity: number;
  unitPriceCents: number;
  /** Percent off this line, 0-100, up to 2 decimals. */
  discountPercent: number;
  /** Percent, up to 2 decimals (19, 7, 0). */
  taxRate: number;
}

export interface TaxGroup {
  taxRate: number;
  netCents: number;
  taxCents: number;
}

export interface DocumentTotals {
  /** Each line's net amount, in the lines' order. */
  lineNetCents: number[];
  /** One group per tax rate, highest rate first. */
  taxGroups: TaxGroup[];
  netCents: number;
  taxCents: number;
  grossCents: number;
}

/** An exact decimal (as a JavaScript number from a form or JSON) scaled to an integer: 2.5, 1000 -> 2500n. */
function scaled(value: number, scale: number): bigint {
  return BigInt(Math.round(value * scale));
}

/** numerator / denominator rounded half away from zero (commercial rounding), exactly. */
export function divideRounded(numerator: bigint, denominator: bigint): number {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const rounded = (2n * n + d) / (2n * d);
  return Number(negative ? -rounded : rounded);
}

/** A line's net amount in cents: quantity × unit price × (1 − discount), rounded once. */
export function lineNetCents(line: TotalsLine): number {
  const quantity = scaled(line.quantity, 1000);
  const remaining = 10000n - scaled(line.discountPercent, 100);
  return divideRounded(quantity * BigInt(line.unitPriceCents) * remaining, 1000n * 10000n);
}

/** The tax on a net amount at a rate in percent, rounded once. */
export function taxCents(netCents: number, taxRate: number): number {
  return divideRounded(BigInt(netCents) * scaled(taxRate, 100), 10000n);
}

export function documentTotals(lines: readonly TotalsLine[]): DocumentTotals {
  const lineNet = lines.map(lineNetCents);
  const byRate = new Map<number, number>();
  lines.forEach((line, i) => {
    byRate.set(line.taxRate, (byRate.get(line.taxRate) ?? 0) + lineNet[i]!);
  });
  const taxGroups = [...byRate.entries()]
    .sort(([a], [b]) => b - a)
    .map(([taxRate, netCents]) => ({ taxRate, netCents, taxCents: taxCents(netCents, taxRate) }));
  const netCents = lineNet.reduce((sum, cents) => sum + cents, 0);
  const tax = taxGroups.reduce((sum, group) => sum + group.taxCents, 0);
  return { lineNetCents: lineNet, taxGroups, netCents, taxCents: tax, grossCents: netCents + tax };
}

/**
 * Why totals stored with a document do not add up, or null when they do: every line's amount, every tax group, and
 * the sums must equal what the lines give; a document to be issued needs a line and a positive total; every amount
 * must be a safe integer.
 */
export function totalsProblem(lines: readonly TotalsLine[], stored: DocumentTotals): string | null {
  if (lines.length === 0) return 'no lines';
  const fresh = documentTotals(lines);
  const amounts = [
    ...fresh.lineNetCents,
    ...fresh.taxGroups.flatMap((g) => [g.netCents, g.taxCents]),
    fresh.netCents,
    fresh.taxCents,
    fresh.grossCents,
  ];
  if (!amounts.every(Number.isSafeInteger)) return 'amount out of range';
  if (fresh.grossCents <= 0) return 'total not positive';
  if (JSON.stringify(fresh) !== JSON.stringify(stored)) return 'stored totals differ from the lines';
  const groupNet = stored.taxGroups.reduce((sum, g) => sum + g.netCents, 0);
  const groupTax = stored.taxGroups.reduce((sum, g) => sum + g.taxCents, 0);
  if (groupNet !== stored.netCents || groupTax !== stored.taxCents) return 'tax groups differ from the sums';
  if (stored.netCents + stored.taxCents !== stored.grossCents) return 'net and tax differ from the total';
  return null;
}

/** Cents as a decimal amount with two places ("1234.50"), for e-invoices. */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
