import { describe, expect, it } from 'vitest';
import { matchesJob, parsePricedRow, pricedRows, quantityFor } from './price-lines.ts';

describe('price-list rows', () => {
  it('reads item and price as craft businesses write them', () => {
    expect(parsePricedRow('Wartung Gasbrennwertkessel ........ 149,00 €')).toMatchObject({
      item: 'Wartung Gasbrennwertkessel',
      unitPriceCents: 14900,
      unit: '',
    });
    expect(parsePricedRow('Anfahrt je km | 0,85 EUR')).toMatchObject({
      item: 'Anfahrt',
      unitPriceCents: 85,
      unit: 'km',
    });
    expect(parsePricedRow('Monteurstunde 64.50 €/h')).toMatchObject({
      item: 'Monteurstunde',
      unitPriceCents: 6450,
      unit: 'h',
    });
    expect(parsePricedRow('Brennwertkessel komplett: 1.249,00')).toMatchObject({ unitPriceCents: 124900 });
    expect(parsePricedRow('Abgasmessung pro Stück 35 €')).toMatchObject({
      item: 'Abgasmessung',
      unit: 'Stk',
      unitPriceCents: 3500,
    });
  });

  it('reads no price into headings, sentences, years or phone numbers', () => {
    for (const row of [
      'Preisliste 2026',
      'Telefon 030 1234567',
      'Kessel 2',
      'Gültig ab 01.01.2026',
      '€ 12,00',
      '',
    ]) {
      expect(parsePricedRow(row), row).toBeNull();
    }
  });

  it('finds every priced row of a passage and keeps the row as its excerpt', () => {
    const rows = pricedRows(
      'Preisliste Heizung 2026\nWartung Gasbrennwertkessel 149,00 €\nAnfahrt je km 0,85 €',
    );
    expect(rows.map((r) => r.row)).toEqual(['Wartung Gasbrennwertkessel 149,00 €', 'Anfahrt je km 0,85 €']);
  });

  it('keeps rows that share a word with the job and takes the job’s quantities for their unit', () => {
    const job = 'Heizungswartung Gasbrennwertkessel, Einfamilienhaus, Anfahrt 25 km';
    const [wartung, anfahrt, fliesen] = pricedRows(
      'Wartung Gasbrennwertkessel 149,00 €\nAnfahrt je km 0,85 €\nFliesen verlegen je m² 45,00 €',
    );
    expect(matchesJob(wartung!, job)).toBe(true);
    expect(matchesJob(anfahrt!, job)).toBe(true);
    expect(matchesJob(fliesen!, job)).toBe(false);
    expect(quantityFor('km', job)).toBe(25);
    expect(quantityFor('h', job)).toBe(1);
    expect(quantityFor('', job)).toBe(1);
  });
});
