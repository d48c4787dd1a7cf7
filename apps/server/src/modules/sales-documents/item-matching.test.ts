import { describe, expect, it } from 'vitest';
import { askedItems } from './asked-items.ts';
import { alternativesOf, matchItem } from './item-matching.ts';
import { parsePricedRow } from './price-lines.ts';

// A service and material price list as a table, the way a craft business writes one (a made-up firm).
const ROWS = [
  'A-10 | Anfahrtspauschale Zone 1 (bis 15 km) | pauschal | 42,00',
  'A-11 | Anfahrtspauschale Zone 2 (15 bis 30 km) | pauschal | 61,00',
  'A-20 | Monteurstunde Geselle | Std | 72,00',
  'A-21 | Monteurstunde Meister | Std | 91,00',
  'A-23 | Zweiter Monteur (Geselle), wenn erforderlich | Std | 72,00',
  'W-30 | Wartung Gas-Brennwerttherme (Wandgerät) | pauschal | 169,00',
  'W-31 | Wartung Gas-Brennwertkessel bodenstehend | pauschal | 209,00',
  'W-32 | Wartung Öl-Brennwertkessel inkl. Düsenwechsel | pauschal | 239,00',
  'M-40 | Thermostatkopf Standard, weiß | Stk | 1 | 19,90',
  'M-41 | Thermostatventil-Unterteil DN 15 | Stk | 1 | 16,80',
  'M-50 | Heizkörper Typ 11, 600 x 1000 mm | Stk | 1 | 115,00',
  'M-51 | Heizkörper Typ 22, 600 x 1000 mm | Stk | 1 | 185,00',
  'M-52 | Heizkörper Typ 22, 600 x 800 mm | Stk | 1 | 155,00',
  'M-60 | Raumthermostat digital | Stk | 1 | 38,00',
].map((row) => ({ row: parsePricedRow(row)! }));
const known = new Set(ROWS.flatMap((c) => c.row.item.toLowerCase().match(/\p{L}+/gu) ?? []));

const chosen = (job: string, alternatives = new Map<string, string[][]>()) =>
  askedItems(job).map((item) => matchItem(item, ROWS, alternatives, known)?.candidate.row.item ?? null);

describe('choosing the row an asked item means', () => {
  it('takes the row that holds the item’s words, not its neighbours that share one', () => {
    expect(
      chosen(
        'Jährliche Wartung des Gas-Brennwertkessels, zwei Heizkörper Typ 22 tauschen, vier Thermostatköpfe einbauen, 3 Monteurstunden Geselle und Anfahrtspauschale',
      ),
    ).toEqual([
      'Wartung Gas-Brennwertkessel bodenstehend',
      'Heizkörper Typ 22, 600 x 1000 mm',
      'Thermostatkopf Standard, weiß',
      'Monteurstunde Geselle',
      'Anfahrtspauschale Zone 1 (bis 15 km)',
    ]);
    expect(chosen('Wartung des Öl-Brennwertkessels, Meisterstunde')).toEqual([
      'Wartung Öl-Brennwertkessel inkl. Düsenwechsel',
      'Monteurstunde Meister',
    ]);
  });

  it('weighs only the words some row holds: the job’s other words say nothing about which row', () => {
    expect(chosen('Jährliche gründliche Wartung des Gas-Brennwertkessels im Keller des Altbaus')).toEqual([
      'Wartung Gas-Brennwertkessel bodenstehend',
    ]);
  });

  it('takes nothing for an item no row names', () => {
    expect(chosen('Dachrinne reinigen, Einfamilienhaus')).toEqual([null, null]);
  });

  it('finds the rows of a job in another language through its translations', () => {
    const alternatives = alternativesOf([
      {
        source: 'eng',
        target: 'deu',
        via: 'dictionary',
        functionWords: [],
        words: [
          { word: 'radiators', alternatives: [{ text: 'Heizkörper', weight: 1 }] },
          { word: 'type', alternatives: [{ text: 'Typ', weight: 1 }] },
          { word: 'thermostatic', alternatives: [{ text: 'thermostatisch', weight: 1 }] },
          {
            word: 'heads',
            alternatives: [
              { text: 'Kopf', weight: 1 },
              { text: 'Köpfe', weight: 0.5 },
            ],
          },
          { word: 'journeyman', alternatives: [{ text: 'Geselle', weight: 1 }] },
          { word: 'hours', alternatives: [{ text: 'Stunde', weight: 1 }] },
        ],
      },
    ]);
    expect(
      chosen('Replace two type 22 radiators, four thermostatic heads, 3 journeyman hours', alternatives),
    ).toEqual(['Heizkörper Typ 22, 600 x 1000 mm', 'Thermostatkopf Standard, weiß', 'Monteurstunde Geselle']);
  });
});
