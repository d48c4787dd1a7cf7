import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/support/api-client.ts';
import { makeDocx, waitForFile } from '../../../test/support/documents.ts';
import { companyWithFile } from '../../../test/support/knowledge.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';

// A company with a washing machine's manual (every section says "Stellen Sie … das Gerät") and a note on holidays.
const MANUAL = [
  'das Gerät auf eine ebene und feste Fläche, bevor Sie den Wasserschlauch anschließen.',
  'am Gerät mit dem Drehknopf die gewünschte Temperatur für die Wäsche ein.',
  'sicher, dass die Tür des Geräts vor dem Start des Programms fest geschlossen ist.',
  'das Gerät nach jedem Waschgang ab und lassen Sie die Tür zum Trocknen offen.',
  'den Wasserhahn zu, wenn Sie das Gerät längere Zeit nicht benutzen.',
  'für Wolle am Gerät das Schonprogramm mit niedriger Schleuderzahl ein.',
  'das Flusensieb des Geräts alle drei Monate unter fließendem Wasser sauber.',
  'das Waschmittel nach der Verschmutzung der Wäsche ein, die das Gerät waschen soll.',
  'bei einer Störung das Gerät aus und ziehen Sie den Netzstecker.',
  'das Gerät nicht in frostgefährdeten Räumen auf, sonst platzen die Schläuche.',
  'die Transportsicherungen am Gerät vor der ersten Wäsche heraus.',
  'die Entkalkung des Geräts zweimal im Jahr mit einem milden Mittel an.',
];

let t: TestServer;
let client: ApiClient;
let manualId: string;
let holidaysId: string;

beforeAll(async () => {
  t = await startTestServer({ smtp: false });
  const dm = await companyWithFile(
    t,
    MANUAL.flatMap((text, i) => [{ heading: `Schritt ${i + 1}` }, { text: `Stellen Sie ${text}` }]),
    'Technik',
    { language: 'de' },
  );
  client = dm.client;
  manualId = dm.file.id;
  const up = await client.upload(`/divisions/${dm.divisionId}/files`, [
    {
      name: 'Urlaub.docx',
      content: await makeDocx([
        { heading: 'Urlaub' },
        { text: 'Der Urlaubsantrag wird zwei Wochen vorher bei der Personalabteilung eingereicht.' },
      ]),
    },
  ]);
  holidaysId = (await waitForFile(client, up.body.results[0].file.id)).id;
}, 120_000);
afterAll(() => t?.close());

const search = async (q: string, mode?: string) => {
  const res = await client.get(`/search?q=${encodeURIComponent(q)}${mode ? `&mode=${mode}` : ''}`);
  expect(res.status).toBe(200);
  return res.body.items as Array<{ fileId: string }>;
};

it('finds nothing for a word that occurs nowhere', async () => {
  for (const q of ['xqzvbt', 'Flurbelwanze', 'Quarkzwiebelmaschine', 'blorptang vexumir']) {
    expect(await search(q), q).toEqual([]);
    expect(await search(q, 'fulltext'), q).toEqual([]);
  }
});

it('finds nothing in an unrelated document whose common words are all a question shares with it', async () => {
  // "stellen" and "Gerät" are in every section of the manual; the parental leave is in no document.
  const q = 'Wann stelle ich den Antrag auf Elternzeit für das Gerät?';
  expect(await search(q)).toEqual([]);
  expect(await search(q, 'fulltext')).toEqual([]);
});

it('keeps the hits of a real question, its document first', async () => {
  const q = 'Wie stelle ich den Urlaubsantrag bei der Personalabteilung?';
  expect((await search(q))[0]?.fileId).toBe(holidaysId);
  // The manual shares only its common words with the question: none of its passages is a full-text hit.
  expect((await search(q, 'fulltext')).map((h) => h.fileId)).toEqual([holidaysId]);
  const temperature = await search('Wie stelle ich die Temperatur am Gerät ein?');
  expect(temperature[0]?.fileId).toBe(manualId);
  // A question of the manual's common words alone is about the manual: it is found.
  expect((await search('Gerät stellen'))[0]?.fileId).toBe(manualId);
});

it("finds a company's only passage by its words, though every word of it is in all its passages", async () => {
  const small = await companyWithFile(
    t,
    'Der Heizkörper wird mit einem Vierkantschlüssel entlüftet.',
    'Heizung',
    {
      language: 'de',
    },
  );
  const res = await small.client.get(
    `/search?q=${encodeURIComponent('Womit wird der Heizkörper entlüftet?')}`,
  );
  expect(res.body.items.map((h: { fileId: string }) => h.fileId)).toEqual([small.file.id]);
});
