import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDictd } from '../../../test/support/dictd-files.ts';
import { companyWithFile } from '../../../test/support/knowledge.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { COMPANY, customerOf } from './sales-document-fixtures.ts';

// English to German as FreeDict writes it, for the words of the English job below: the test brings its own entries.
const dictionaries = mkdtempSync(join(tmpdir(), 'ww-offer-dicts-'));
writeDictd(
  dictionaries,
  'freedict-eng-deu',
  [
    ['annual', 'jährlich, Jahres-'],
    ['boiler', 'Heizkessel <masc>, Kessel <masc>, Boiler <masc>'],
    ['call-out', 'Anfahrt <fem>, Einsatz <masc>'],
    ['condensing', 'kondensierend, Brennwert-'],
    ['flat rate', 'Pauschale <fem>, Pauschalpreis <masc>'],
    ['head', 'Kopf <masc>, Haupt <neut>'],
    ['hour', 'Stunde <fem>'],
    ['journeyman', 'Geselle <masc>'],
    ['maintenance', 'Wartung <fem>, Instandhaltung <fem>, Unterhalt <masc>'],
    ['radiator', 'Heizkörper <masc>, Kühler <masc>'],
    ['replace', 'ersetzen, austauschen'],
    ['thermostatic', 'thermostatisch'],
    ['type', 'Typ <masc>, Art <fem>, Sorte <fem>'],
  ].map(([headword, translations]) => ({ headword: headword!, body: `${headword}\n${translations}` })),
);

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false, env: { DICTIONARY_PATH: dictionaries } });
});
afterAll(async () => {
  await t?.close();
  rmSync(dictionaries, { recursive: true, force: true });
});

const PRICE_LIST = [
  { heading: 'Preisliste Heizung 2026' },
  { text: 'Wartung Gasbrennwertkessel ........ 149,00 €' },
  { text: 'Anfahrt je km 0,85 €' },
  { text: 'Fliesen verlegen je m² 45,00 €' },
  { heading: 'Hinweise' },
  { text: 'Alle Preise zuzüglich der gesetzlichen Umsatzsteuer. Telefon 030 1234567.' },
];

describe('drafting an offer from the company’s price lists', () => {
  it('makes lines with the list’s prices and the job’s quantities, each citing the passage it came from', async () => {
    const dm = await companyWithFile(t, PRICE_LIST, 'Preise', { language: 'de' });
    await dm.client.put('/company/details', { ...COMPANY, standardTaxRate: 19 });
    const customerId = await customerOf(dm.client);
    const res = await dm.client.post('/handwerk/documents/drafted-offers', {
      customerId,
      language: 'de',
      description: 'Heizungswartung Gasbrennwertkessel, Einfamilienhaus, Anfahrt 25 km',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: 'offer', status: 'draft', language: 'de' });
    const lines = res.body.lines;
    expect(lines.map((l: { description: string }) => l.description)).toEqual([
      'Wartung Gasbrennwertkessel',
      'Anfahrt',
    ]);
    expect(lines[0]).toMatchObject({ quantity: 1, unitPriceCents: 14900, taxRate: 19, netCents: 14900 });
    expect(lines[1]).toMatchObject({ quantity: 25, unit: 'km', unitPriceCents: 85, netCents: 2125 });
    // Each line cites the price list's passage that holds its row.
    const passages = await t.server.ctx.db.execute<{ id: string; text: string }>(
      `select id, text from passages where file_id = '${dm.file.id}'`,
    );
    for (const line of lines) {
      expect(line.source).toMatchObject({ fileId: dm.file.id, fileName: 'Preise.docx' });
      const passage = passages.rows.find((p) => p.id === line.source.passageId);
      expect(passage?.text).toContain(line.source.excerpt);
    }
    expect(res.body.grossCents).toBe(17025 + 3235);

    // Saved back from the editor, the citations stay; one that names no passage of the company's, or quotes what
    // the passage does not say, is dropped rather than stored as if the price list said it.
    type Line = {
      description: string;
      quantity: number;
      unit: string;
      unitPriceCents: number;
      source: unknown;
    };
    const edited = (lines as Line[]).map(({ description, quantity, unit, unitPriceCents, source }) => ({
      description,
      quantity,
      unit,
      unitPriceCents,
      discountPercent: 0,
      taxRate: 19,
      source,
    }));
    const cited = lines[0].source;
    const forged = [
      { ...edited[0]!, source: { ...cited, passageId: '00000000-0000-4000-8000-000000000000' } },
      { ...edited[0]!, source: { ...cited, excerpt: 'Wartung Gasbrennwertkessel 9,00 €' } },
    ];
    const saved = await dm.client.put(`/handwerk/documents/${res.body.id}`, {
      customerId,
      language: 'de',
      issueDate: null,
      dueDate: null,
      title: '',
      notes: '',
      lines: [...edited, ...forged],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.lines.map((l: { source: unknown }) => l.source)).toEqual([
      lines[0].source,
      lines[1].source,
      null,
      null,
    ]);
  });

  it('says so when the files hold no priced item for the job, and drafts nothing', async () => {
    const dm = await companyWithFile(t, PRICE_LIST, 'Preise', { language: 'de' });
    const customerId = await customerOf(dm.client);
    const res = await dm.client.post('/handwerk/documents/drafted-offers', {
      customerId,
      language: 'de',
      description: 'Dachrinne reinigen',
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('NO_PRICED_ITEMS_FOUND');
    expect((await dm.client.get('/handwerk/documents')).body.total).toBe(0);
  });

  // A price list as a table (article number, item, unit, packing unit, price), with neighbours that share words with
  // the job: the oil boiler beside the gas boiler, the master's hour beside the journeyman's, the second zone.
  const TABLE = [
    ['Art.-Nr.', 'Bezeichnung', 'Einheit', 'VPE', 'Preis netto EUR'],
    ['A-10', 'Anfahrtspauschale Zone 1 (bis 15 km)', 'pauschal', '', '42,00'],
    ['A-11', 'Anfahrtspauschale Zone 2 (15 bis 30 km)', 'pauschal', '', '61,00'],
    ['A-20', 'Monteurstunde Geselle', 'Std', '', '72,00'],
    ['A-21', 'Monteurstunde Meister', 'Std', '', '91,00'],
    ['W-31', 'Wartung Gas-Brennwertkessel bodenstehend', 'pauschal', '', '209,00'],
    ['W-32', 'Wartung Öl-Brennwertkessel inkl. Düsenwechsel', 'pauschal', '', '239,00'],
    ['M-40', 'Thermostatkopf Standard, weiß', 'Stk', '1', '19,90'],
    ['M-50', 'Heizkörper Typ 11, 600 x 1000 mm', 'Stk', '1', '115,00'],
    ['M-51', 'Heizkörper Typ 22, 600 x 1000 mm', 'Stk', '1', '185,00'],
  ];
  const ASKED = [
    {
      description: 'Wartung Gas-Brennwertkessel bodenstehend',
      quantity: 1,
      unit: 'pauschal',
      unitPriceCents: 20900,
    },
    { description: 'Heizkörper Typ 22, 600 x 1000 mm', quantity: 2, unit: 'Stk', unitPriceCents: 18500 },
    { description: 'Thermostatkopf Standard, weiß', quantity: 4, unit: 'Stk', unitPriceCents: 1990 },
    { description: 'Monteurstunde Geselle', quantity: 3, unit: 'Std', unitPriceCents: 7200 },
    {
      description: 'Anfahrtspauschale Zone 1 (bis 15 km)',
      quantity: 1,
      unit: 'pauschal',
      unitPriceCents: 4200,
    },
  ];
  const lineFields = (lines: Array<Record<string, unknown>>) =>
    lines.map(({ description, quantity, unit, unitPriceCents }) => ({
      description,
      quantity,
      unit,
      unitPriceCents,
    }));
  /** Drafts an offer for a job text from a new company whose file is the price list. */
  async function draftFromPriceList(language: 'de' | 'en', description: string) {
    const dm = await companyWithFile(t, [{ heading: 'Preisliste 2026' }, { table: TABLE }], 'Preise', {
      language: 'de',
    });
    const customerId = await customerOf(dm.client);
    return dm.client.post('/handwerk/documents/drafted-offers', { customerId, language, description });
  }

  it('takes only the asked items, at the quantities the job states in digits or words, with the list’s units', async () => {
    const res = await draftFromPriceList(
      'de',
      'Jährliche Wartung des Gas-Brennwertkessels, zwei Heizkörper Typ 22 tauschen, vier Thermostatköpfe einbauen, 3 Monteurstunden Geselle und Anfahrtspauschale',
    );
    expect(res.status).toBe(201);
    expect(lineFields(res.body.lines)).toEqual(ASKED);
    for (const line of res.body.lines) expect(line.source.excerpt).toContain(line.description);
  });

  it('drafts the same offer from the job written in English', async () => {
    const res = await draftFromPriceList(
      'en',
      'Annual maintenance of the gas condensing boiler, replace two type 22 radiators, fit four thermostatic heads, three hours journeyman and call-out flat rate',
    );
    expect(res.status).toBe(201);
    expect(lineFields(res.body.lines)).toEqual(ASKED);
  });
});
