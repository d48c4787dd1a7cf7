import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/support/api-client.ts';
import { makeDocx, makeLayoutPdf, type PlacedText, waitForFile } from '../../../test/support/documents.ts';
import { stream } from '../../../test/support/sse.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';

// Issue 29's first report, as a new owner meets it: a price list (.docx, a table) and a boiler manual (.pdf, its title
// naming the device above every page, a fault-code table, the technical data on page 5), asked through the chat with
// the built-in answerer (no model). The documents are written for this test; no benchmark document or question is in
// it. (A manual that names its device only in a sentence of its first page leaves "Wie schwer ist der Kessel?"
// refused: nothing above the weight's row says whose weight it is.)

let t: TestServer;
let client: ApiClient;
let divisionId: string;
let priceListId: string;
let manualId: string;

/**
 * A page's lines, one below the other (the first one a section heading, or the manual's title in a larger font); a
 * row's cells at the given columns.
 */
function page(lines: Array<string | string[]>, titleSize = 14, columns = [60, 130, 330]): PlacedText[] {
  return lines.flatMap((line, i) => {
    const y = 70 + i * 24;
    if (typeof line === 'string') return [{ text: line, x: 60, y, size: i === 0 ? titleSize : 10 }];
    return line.map((text, c) => ({ text, x: columns[c]!, y, size: 10 }));
  });
}

beforeAll(async () => {
  t = await startTestServer({ smtp: false });
  const dm = await signedInDataManager(t, { language: 'de' });
  client = dm.client;
  divisionId = (await client.post('/divisions', { name: 'Kundendienst' })).body.id as string;
  const priceList = await makeDocx([
    { heading: 'Preisliste Kundendienst 2026' },
    { text: 'Alle Preise netto zuzüglich der gesetzlichen Mehrwertsteuer.' },
    {
      table: [
        ['Art.-Nr.', 'Leistung', 'Einheit', 'Preis netto'],
        ['K-10', 'Anfahrtspauschale im Stadtgebiet', 'pauschal', '39,00 €'],
        ['K-11', 'Anfahrt außerhalb des Stadtgebiets, je km', 'km', '1,10 €'],
        ['K-20', 'Monteurstunde', 'Std.', '68,50 €'],
        ['K-30', 'Notdienstzuschlag nachts, an Sonn- und Feiertagen', 'pauschal', '85,00 €'],
        ['K-40', 'Wartung Gas-Brennwertkessel', 'pauschal', '165,00 €'],
      ],
    },
  ]);
  const manual = await makeLayoutPdf([
    page(
      [
        'Gas-Brennwertkessel Therma 24',
        'Installations- und Wartungsanleitung für Heizung und Warmwasser.',
        'Lesen Sie sie vor der Montage vollständig.',
      ],
      20,
    ),
    page([
      'Sicherheit',
      'Bei Gasgeruch keine elektrischen Schalter betätigen, den Gashahn schließen und die Fenster öffnen.',
      'Arbeiten am Gerät dürfen nur von einem zugelassenen Fachbetrieb ausgeführt werden.',
    ]),
    page([
      'Störungsanzeigen',
      ['Code', 'Störung', 'Abhilfe'],
      ['F22', 'Wasserdruck in der Anlage zu niedrig', 'Anlage auf 1,5 bar auffüllen'],
      ['F28', 'Keine Flammenbildung beim Brennerstart', 'Gaszufuhr prüfen, Störung zurücksetzen'],
      ['F37', 'Abgastemperatur zu hoch', 'Wärmetauscher reinigen lassen'],
    ]),
    page([
      'Wartung',
      'Die Wartung ist einmal jährlich durch einen Fachbetrieb durchzuführen.',
      'Dabei werden der Brenner und der Wärmetauscher gereinigt und der Vordruck geprüft.',
    ]),
    page([
      'Technische Daten',
      'Nennwärmeleistung: 24 kW',
      'Gewicht: 38 kg',
      'Abmessungen (H x B x T): 700 x 400 x 300 mm',
    ]),
  ]);
  const up = await client.upload(`/divisions/${divisionId}/files`, [
    { name: 'Preisliste-Kundendienst.docx', content: priceList },
    { name: 'Therma-24-Anleitung.pdf', content: manual },
  ]);
  expect(up.status).toBe(201);
  [priceListId, manualId] = await Promise.all(
    up.body.results.map(async (r: { file: { id: string } }) => {
      const file = await waitForFile(client, r.file.id);
      expect(file.status).toBe('ready');
      return file.id as string;
    }),
  );
}, 120_000);
afterAll(() => t?.close());

/** Asks in a chat of its own, as a new question (not a follow-up of another). */
async function ask(question: string) {
  const chatId = (await client.post('/chats', { name: 'Kundendienst', divisionIds: [divisionId] })).body.id;
  const res = await stream(client, `/chats/${chatId}/messages`, { content: question });
  expect(res.status).toBe(200);
  const done = res.done();
  const cited = res.events.filter((e) => e.event === 'citation').map((e) => e.data);
  return { text: res.text(), noAnswer: done.noAnswer as boolean, cited };
}

it('answers the travel charge with its row of the price list', async () => {
  const answer = await ask('Wie hoch ist die Anfahrtspauschale?');
  expect(answer.noAnswer).toBe(false);
  expect(answer.text).toContain('Anfahrtspauschale im Stadtgebiet');
  expect(answer.text).toContain('39,00');
  expect(answer.text).not.toContain('F37');
  expect(answer.cited[0]).toMatchObject({ fileId: priceListId });
});

it('answers the weight from the technical data on page 5, and a fault code by its row', async () => {
  const weight = await ask('Wie schwer ist der Kessel?');
  expect(weight.noAnswer).toBe(false);
  expect(weight.text).toContain('38 kg');
  expect(weight.text).not.toContain('F28');
  expect(weight.cited[0]).toMatchObject({ fileId: manualId, page: 5 });
  const code = await ask('Was bedeutet F28?');
  expect(code.noAnswer).toBe(false);
  expect(code.text).toContain('Keine Flammenbildung');
  expect(code.cited[0]).toMatchObject({ fileId: manualId, page: 3 });
});

it('says plainly that the documents do not hold the price of something they do not list', async () => {
  const answer = await ask('Wie viel kostet eine Photovoltaikanlage?');
  expect(answer.noAnswer).toBe(true);
  expect(answer.cited).toEqual([]);
  expect(answer.text).not.toMatch(/F22|Notdienst|€/);
});

it('answers a worker who asks about the travel charge in Arabic or English from the German price list', async () => {
  for (const question of ['كم رسوم الانتقال داخل المدينة؟', 'How much is the call-out charge in town?']) {
    const answer = await ask(question);
    expect(answer.noAnswer, question).toBe(false);
    expect(answer.text, question).toContain('39,00');
  }
});
