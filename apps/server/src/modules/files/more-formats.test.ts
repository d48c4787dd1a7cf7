import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForFile } from '../../../test/support/documents.ts';
import { makeEml, makeOdf, makePptx, makeXlsx, odfTable } from '../../../test/support/office-documents.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { ZIP_LIMITS } from '../processing/extract/zip-entries.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

async function setUp() {
  const dm = await signedInDataManager(t, { language: 'de' });
  const divisionId = (await dm.client.post('/divisions', { name: 'Formate' })).body.id as string;
  const upload = (files: Array<{ name: string; content: Buffer | string }>) =>
    dm.client.upload(`/divisions/${divisionId}/files`, files);
  return { ...dm, upload };
}

describe('presentations, spreadsheets, OpenDocument, RTF and mails', () => {
  it('become ready, searchable and citable with their slide or sheet', async () => {
    const { client, upload } = await setUp();
    const files = [
      {
        name: 'Schulung.pptx',
        content: makePptx([
          { title: 'Begrüßung', texts: ['Willkommen zur Schulung.'] },
          {
            title: 'Kältemittel',
            texts: ['Das Kältemittel R290 ist brennbar.'],
            notes: 'Flaschen stehend lagern.',
          },
        ]),
        query: 'Kältemittel brennbar',
        page: 2,
        heading: ['Kältemittel'],
      },
      {
        name: 'Preise.xlsx',
        content: await makeXlsx({
          Übersicht: [['Stand', '2026']],
          Ersatzteile: [
            ['Teil', 'Preis'],
            ['Umwälzpumpe', '289 €'],
          ],
        }),
        query: 'Umwälzpumpe',
        page: 2,
        heading: ['Ersatzteile'],
      },
      {
        name: 'Lager.ods',
        content: makeOdf(
          'ods',
          `<office:spreadsheet>${odfTable(
            [
              ['Artikel', 'Regal'],
              ['Dichtungsring', 'B7'],
            ],
            'Bestand',
          )}</office:spreadsheet>`,
        ),
        query: 'Dichtungsring',
        page: 1,
        heading: ['Bestand'],
      },
      {
        name: 'Anleitung.odt',
        content: makeOdf(
          'odt',
          '<office:text><text:h text:outline-level="1">Entlüften</text:h><text:p>Den Heizkörper mit dem Vierkantschlüssel entlüften.</text:p></office:text>',
        ),
        query: 'Vierkantschlüssel',
        page: null,
        heading: ['Entlüften'],
      },
      {
        name: 'Vortrag.odp',
        content: makeOdf(
          'odp',
          '<office:presentation><draw:page><draw:frame presentation:class="title"><draw:text-box><text:p>Start</text:p></draw:text-box></draw:frame></draw:page><draw:page><draw:frame presentation:class="title"><draw:text-box><text:p>Solar</text:p></draw:text-box></draw:frame><draw:frame><draw:text-box><text:p>Der Wechselrichter schaltet nachts ab.</text:p></draw:text-box></draw:frame></draw:page></office:presentation>',
        ),
        query: 'Wechselrichter nachts',
        page: 2,
        heading: ['Solar'],
      },
      {
        name: 'Hinweis.rtf',
        content: "{\\rtf1\\ansi\\ansicpg1252 Die Gew\\'e4hrleistung betr\\'e4gt zwei Jahre.\\par}",
        query: 'Gewährleistung',
        page: null,
        heading: [],
      },
      {
        name: 'Angebot.eml',
        content: await makeEml({
          subject: 'Angebot Fußbodenheizung',
          text: 'Guten Tag, anbei unser Angebot.',
          attachments: [
            {
              filename: 'Positionen.xlsx',
              content: await makeXlsx({
                Positionen: [
                  ['Position', 'Betrag'],
                  ['Estrichfräsen', '1.200 €'],
                ],
              }),
            },
          ],
        }),
        query: 'Estrichfräsen',
        page: null,
        heading: ['Angebot Fußbodenheizung', 'Positionen.xlsx', 'Positionen'],
      },
    ];
    const res = await upload(files.map(({ name, content }) => ({ name, content })));
    expect(res.status).toBe(201);
    expect(res.body.results.map((r: { file: { kind: string } }) => r.file.kind)).toEqual([
      'pptx',
      'xlsx',
      'ods',
      'odt',
      'odp',
      'rtf',
      'eml',
    ]);
    for (const result of res.body.results) {
      const ready = await waitForFile(client, result.file.id);
      expect([ready.name, ready.status, ready.errorCode]).toEqual([result.name, 'ready', null]);
    }
    for (const file of files) {
      const hits = (await client.get(`/search?q=${encodeURIComponent(file.query)}`)).body.items;
      expect([hits[0]?.fileName, hits[0]?.page, hits[0]?.headingPath]).toEqual([
        file.name,
        file.page,
        file.heading,
      ]);
    }
  }, 120_000);

  it('stops a zip bomb and an oversized sheet with FILE_PARSE_LIMIT, and the next upload still works', async () => {
    const { client, upload } = await setUp();
    // 300 MB of zeros deflate to about 300 KB: over the unpacked-size cap of the archive.
    const zeros = new Uint8Array(ZIP_LIMITS.maxUncompressedBytes + 1024 * 1024);
    const bomb = makePptx([{ title: 'Bombe', texts: ['x'] }], { 'ppt/media/leer.bin': zeros });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const sheet = makeOdf(
      'ods',
      '<office:spreadsheet><table:table table:name="Riesig"><table:table-row table:number-rows-repeated="2000000"><table:table-cell table:number-columns-repeated="3"><text:p>x</text:p></table:table-cell></table:table-row></table:table></office:spreadsheet>',
    );
    const res = await upload([
      { name: 'bombe.pptx', content: bomb },
      { name: 'riesig.ods', content: sheet },
    ]);
    for (const result of res.body.results) {
      const failed = await waitForFile(client, result.file.id);
      expect([failed.status, failed.errorCode]).toEqual(['failed', 'FILE_PARSE_LIMIT']);
      expect(failed.errorMessage).toBeTruthy();
    }
    const next = await upload([
      {
        name: 'danach.odt',
        content: makeOdf('odt', '<office:text><text:p>Es geht weiter.</text:p></office:text>'),
      },
    ]);
    expect((await waitForFile(client, next.body.results[0].file.id)).status).toBe('ready');
    // A zip that is neither OOXML nor OpenDocument stays refused at upload.
    const plainZip = Buffer.from(zipSync({ 'notiz.txt': strToU8('Nur eine Notiz.') }));
    const refused = await upload([{ name: 'notiz.odt', content: plainZip }]);
    expect(refused.body.error.details.results[0].error.code).toBe('FILE_TYPE_UNSUPPORTED');
  }, 120_000);
});
