import { describe, expect, it } from 'vitest';
import { toCsv } from './csv.ts';

describe('a CSV file written in the browser', () => {
  it('is separated by semicolons after a BOM, as German Excel opens it in columns', () => {
    expect(
      toCsv(
        ['Vorname', 'Bereiche'],
        [
          ['Jana', 'Büro; Lager'],
          ['=Max', null],
        ],
      ),
    ).toBe('\uFEFFVorname;Bereiche\r\nJana;"Büro; Lager"\r\n\'=Max;\r\n');
  });
});
