import { describe, expect, it } from 'vitest';
import { parsePricedRow, pricedRows } from './price-lines.ts';

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

  it('reads a table row’s item, unit and price from their own cells, without the article number', () => {
    expect(parsePricedRow('L-110 | Monteurstunde Geselle | Std | 74,50')).toEqual({
      item: 'Monteurstunde Geselle',
      unitPriceCents: 7450,
      unit: 'Std',
      row: 'L-110 | Monteurstunde Geselle | Std | 74,50',
    });
    expect(parsePricedRow('H-1020 | Heizkörper Typ 22, 600 x 1000 mm | Stk | 1 | 189,00')).toMatchObject({
      item: 'Heizkörper Typ 22, 600 x 1000 mm',
      unit: 'Stk',
      unitPriceCents: 18900,
    });
    expect(parsePricedRow('Anfahrtspauschale Zone 1 | pauschal | 1.039,00 €')).toMatchObject({
      item: 'Anfahrtspauschale Zone 1',
      unit: 'pauschal',
      unitPriceCents: 103900,
    });
    expect(parsePricedRow('Kupferrohr 15 mm |  | 11,90 €/m')).toMatchObject({
      item: 'Kupferrohr 15 mm',
      unit: 'm',
    });
    expect(parsePricedRow('Art.-Nr. | Bezeichnung | Einheit | Preis netto EUR')).toBeNull();
    expect(parsePricedRow('L-110 | 4711 | Std | 74,50')).toBeNull();
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
});
