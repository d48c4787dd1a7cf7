import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyWithFile } from '../../../test/support/knowledge.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { ApertiumLemmas } from '../search/query-translation/apertium-lemmas.ts';
import { installedDictionaries } from '../search/query-translation/dictionaries.ts';
import { translateByDictionaries } from '../search/query-translation/dictionary-translation.ts';
import { wordsOf } from '../search/query-translation/question-words.ts';
import { sourceLanguage } from '../search/query-translation/source-language.ts';
import { askedItems } from './asked-items.ts';
import { alternativesOf, matchItem } from './item-matching.ts';
import { parsePricedRow } from './price-lines.ts';
import { customerOf } from './sales-document-fixtures.ts';

// The installed dictionaries (Debian's FreeDict packages of scripts/freedict-pairs.txt and Apertium's Russian-Ukrainian
// data, as .ci/run and the README's apt line install them) and no model: the job is read in its own language and
// translated word by word into the price list's.
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(async () => {
  await t?.close();
});

// The price list of draft-offer.test.ts with the neighbours that share words with the job first (the oil boiler, the
// master's hour), so that a row is chosen for the words it holds, not for standing first.
const TABLE = [
  ['Art.-Nr.', 'Bezeichnung', 'Einheit', 'VPE', 'Preis netto EUR'],
  ['A-10', 'Anfahrtspauschale Zone 1 (bis 15 km)', 'pauschal', '', '42,00'],
  ['A-11', 'Anfahrtspauschale Zone 2 (15 bis 30 km)', 'pauschal', '', '61,00'],
  ['A-21', 'Monteurstunde Meister', 'Std', '', '91,00'],
  ['A-20', 'Monteurstunde Geselle', 'Std', '', '72,00'],
  ['W-32', 'Wartung Öl-Brennwertkessel inkl. Düsenwechsel', 'pauschal', '', '239,00'],
  ['W-31', 'Wartung Gas-Brennwertkessel bodenstehend', 'pauschal', '', '209,00'],
  ['M-40', 'Thermostatkopf Standard, weiß', 'Stk', '1', '19,90'],
  ['M-50', 'Heizkörper Typ 11, 600 x 1000 mm', 'Stk', '1', '115,00'],
  ['M-51', 'Heizkörper Typ 22, 600 x 1000 mm', 'Stk', '1', '185,00'],
];
const ASKED = [
  ['Wartung Gas-Brennwertkessel bodenstehend', 1, 'pauschal', 20900],
  ['Heizkörper Typ 22, 600 x 1000 mm', 2, 'Stk', 18500],
  ['Thermostatkopf Standard, weiß', 4, 'Stk', 1990],
  ['Monteurstunde Geselle', 3, 'Std', 7200],
  ['Anfahrtspauschale Zone 1 (bis 15 km)', 1, 'pauschal', 4200],
].map(([description, quantity, unit, unitPriceCents]) => ({ description, quantity, unit, unitPriceCents }));

// The job as a heating engineer writes it in each language.
const JOBS = {
  de: 'Jährliche Wartung des Gas-Brennwertkessels, zwei Heizkörper Typ 22 tauschen, vier Thermostatköpfe einbauen, 3 Monteurstunden Geselle und Anfahrtspauschale',
  en: 'Annual maintenance of the gas condensing boiler, replace two type 22 radiators, fit four thermostatic heads, three hours journeyman and call-out flat rate',
  fr: 'Entretien annuel de la chaudière gaz à condensation, remplacement de deux radiateurs type 22, pose de quatre têtes thermostatiques, 3 heures de compagnon et forfait déplacement',
  pl: 'Coroczny przegląd gazowego kotła kondensacyjnego, wymiana dwóch grzejników typu 22, montaż czterech głowic termostatycznych, 3 roboczogodziny czeladnika i ryczałt za dojazd',
} as const;

describe('drafting the same offer from the job in each language, without a model', () => {
  it.each(Object.entries(JOBS))('%s', async (language, description) => {
    const dm = await companyWithFile(t, [{ heading: 'Preisliste 2026' }, { table: TABLE }], 'Preise', {
      language: 'de',
    });
    const customerId = await customerOf(dm.client);
    const res = await dm.client.post('/handwerk/documents/drafted-offers', {
      customerId,
      language,
      description,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(
      res.body.lines.map(({ description, quantity, unit, unitPriceCents }: Record<string, unknown>) => ({
        description,
        quantity,
        unit,
        unitPriceCents,
      })),
    ).toEqual(ASKED);
  });
});

// In these languages FreeDict (with Apertium for Russian and Ukrainian) carries the boiler, the radiators and the
// thermostatic heads into German, with their quantities; the journeyman's hour and the call-out come through the trade
// glossary (FreeDict has no path from подмастерье, operaio qualificato, oficial or عامل ماهر to "Geselle", nor from
// выезд, trasferta or deslocação to "Anfahrt"). Read without a server: the same functions the route calls.
const MORE_JOBS = {
  it: 'Manutenzione annuale della caldaia a condensazione a gas, sostituzione di due radiatori tipo 22, montaggio di quattro testine termostatiche, 3 ore di operaio qualificato e forfait di trasferta',
  pt: 'Manutenção anual da caldeira de condensação a gás, substituição de dois radiadores tipo 22, montagem de quatro cabeças termostáticas, 3 horas de oficial e taxa de deslocação',
  ru: 'Ежегодное техобслуживание газового конденсационного котла, замена двух радиаторов типа 22, установка четырёх термостатических головок, 3 часа работы подмастерья и выезд',
  uk: 'Щорічне технічне обслуговування газового конденсаційного котла, заміна двох радіаторів типу 22, встановлення чотирьох термостатичних головок, 3 години роботи підмайстра та виїзд',
  ar: 'الصيانة السنوية لغلاية الغاز المكثفة، وتبديل مشعين من النوع 22، وتركيب أربعة رؤوس ثرموستات، و3 ساعات عمل لعامل ماهر، ورسوم الانتقال',
} as const;

describe('reading the job in the languages the dictionaries know less of', () => {
  const log = pino({ level: 'silent' });
  const rows = TABLE.slice(1).map((cells) => ({ row: parsePricedRow(cells.join(' | '))! }));
  const known = new Set(rows.flatMap((c) => c.row.item.toLowerCase().match(/\p{L}+/gu) ?? []));

  it.each(Object.entries(MORE_JOBS))('%s', async (_, job) => {
    const dictionaries = installedDictionaries('/usr/share/dictd', log);
    expect(
      dictionaries,
      'apt-get install the dict-freedict-* packages of scripts/freedict-pairs.txt',
    ).not.toBeNull();
    const source = sourceLanguage(job, new Set(['deu', ...dictionaries!.sourcesFor('deu')]))!;
    await dictionaries!.prepare(source, 'deu');
    const hints = await new ApertiumLemmas('/usr/share/apertium', log).hints(wordsOf(job), source);
    const translation = translateByDictionaries(dictionaries!, job, source, 'deu', hints);
    const alternatives = alternativesOf(translation ? [translation] : []);
    const chosen = askedItems(job).map((item) => {
      const match = matchItem(item, rows, alternatives, known);
      return {
        description: match?.candidate.row.item,
        quantity: item.quantity ?? 1,
        unit: match?.candidate.row.unit,
      };
    });
    expect(chosen).toEqual(ASKED.map(({ description, quantity, unit }) => ({ description, quantity, unit })));
  });
});
