import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/support/api-client.ts';
import { companyWithFile } from '../../../test/support/knowledge.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';

// A service price list and staff notes; their compounds split with the system's German word list (wngerman) and
// everyday words find their synonyms in its thesaurus (mythes-de), which npm test needs like the OCR packs.
let t: TestServer;
let client: ApiClient;
let pricesId: string;

beforeAll(async () => {
  t = await startTestServer({ smtp: false });
  const dm = await companyWithFile(
    t,
    [
      { heading: 'Preise' },
      {
        table: [
          ['Leistung', 'Preis'],
          ['Anfahrtspauschale Stadtgebiet', '39,00 EUR'],
          ['Monteurstunde Geselle', '74,50 EUR'],
        ],
      },
      { heading: 'Hinweise' },
      {
        text: 'Alle Preise gelten netto, zuzüglich der gesetzlichen Mehrwertsteuer.',
      },
      { heading: 'Urlaub' },
      {
        text: 'Der Urlaubsantrag wird zwei Wochen vorher im Büro abgegeben.',
      },
      { heading: 'Ausbildung' },
      { text: 'Unsere Auszubildenden lernen drei Jahre lang im Betrieb.' },
      { heading: 'Arbeitszeit' },
      { text: 'Die Ruhepausen können in Abschnitte von jeweils 15 Minuten aufgeteilt werden.' },
    ],
    'Kundendienst',
    { language: 'de' },
  );
  client = dm.client;
  pricesId = dm.file.id;
}, 120_000);
afterAll(() => t?.close());

const texts = async (q: string, mode = 'fulltext') => {
  const res = await client.get(`/search?q=${encodeURIComponent(q)}&mode=${mode}`);
  expect(res.status).toBe(200);
  return (res.body.items as Array<{ text: string; fileId: string }>).map((h) => h.text);
};

it('finds a compound by its parts and the parts by the compound', async () => {
  // "Pauschale für die Anfahrt" names the parts of "Anfahrtspauschale"; "Gesellenstunde" is "Monteurstunde Geselle".
  for (const q of ['Wie hoch ist die Pauschale für die Anfahrt?', 'Was kostet eine Gesellenstunde?']) {
    const found = await texts(q);
    expect(found[0], q).toContain('Anfahrtspauschale Stadtgebiet | 39,00 EUR');
  }
  expect((await texts('Anfahrtspauschale'))[0]).toContain('39,00 EUR');
  // A part finds the compound it is in.
  expect((await texts('Urlaub'))[0]).toContain('Urlaubsantrag');
});

it("finds an everyday word the documents do not use by its synonyms (the system's German thesaurus)", async () => {
  expect((await texts('Wie lange lernen die Azubis?'))[0]).toContain('Auszubildenden lernen drei Jahre');
});

it('finds a separable verb by its other forms: "aufteilen" the participle "aufgeteilt"', async () => {
  expect((await texts('Kann man das aufteilen?'))[0]).toContain('15 Minuten aufgeteilt werden');
});

it('does not let a part alone make a hit: a question about something else finds nothing', async () => {
  // "Antrag" is only a part of "Urlaubsantrag" there, and "Elternzeit" is in no document.
  expect(await texts('Wann stelle ich den Antrag auf Elternzeit?')).toEqual([]);
  expect(await texts('Was kostet eine Photovoltaikanlage?')).toEqual([]);
  expect(pricesId).toBeTruthy();
});
