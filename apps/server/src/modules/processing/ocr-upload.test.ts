import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForFile } from '../../../test/support/documents.ts';
import { makeTextPdf, renderPicture, TINY_WEBP } from '../../../test/support/scans.ts';
import { stream } from '../../../test/support/sse.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

async function setUp(server: TestServer) {
  const dm = await signedInDataManager(server, { language: 'de' });
  const divisionId = (await dm.client.post('/divisions', { name: 'Baustelle' })).body.id as string;
  const upload = (files: Array<{ name: string; content: Buffer }>) =>
    dm.client.upload(`/divisions/${divisionId}/files`, files);
  return { ...dm, divisionId, upload };
}

/** A PNG whose header declares the given size, with no real pixels behind it. */
function pngDeclaring(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const chunk = (type: string, data: Buffer) =>
    Buffer.concat([Buffer.from([0, 0, 0, data.length]), Buffer.from(type), data, Buffer.alloc(4)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const NOTE = 'Der Brenner wird jährlich im Herbst gewartet. Der Wasserdruck muss danach 1,5 bar betragen.';

describe('photos and scans', () => {
  it('makes a photographed note searchable and cited, marked as OCR text', async () => {
    const { client, divisionId, upload } = await setUp(t);
    const photo = await renderPicture(await makeTextPdf([['Wartungsnotiz', NOTE]]), 'png');
    const up = await upload([{ name: 'notiz-foto', content: photo }]);
    expect(up.body.results[0]).toMatchObject({
      accepted: true,
      file: { kind: 'png', mimeType: 'image/png' },
    });
    const file = await waitForFile(client, up.body.results[0].file.id);
    expect(file).toMatchObject({ status: 'ready', pageCount: 1, ocr: { pages: [1] } });
    expect(file.ocr.meanConfidence).toBeGreaterThan(60);

    const hits = (await client.get(`/search?q=${encodeURIComponent('Wann wird der Brenner gewartet?')}`)).body
      .items;
    expect(hits[0]).toMatchObject({ fileId: file.id, page: null });
    expect(hits[0].text).toContain('Herbst');

    const chat = await client.post('/chats', { name: 'Wartung', divisionIds: [divisionId] });
    const answer = await stream(client, `/chats/${chat.body.id}/messages`, {
      content: 'Wann wird der Brenner gewartet?',
    });
    const citation = answer.events.find((e) => e.event === 'citation')!.data;
    expect(citation).toMatchObject({ fileId: file.id, fileName: 'notiz-foto', page: null });
    // A picture opens as itself (clients take a cited page for a PDF's).
    const content = await client.get(`/files/${file.id}/content`);
    expect(content.headers.get('content-type')).toBe('image/png');
  }, 60_000);

  it('recognises JPEG, TIFF and WebP pictures by their content, whatever their name', async () => {
    const { client, upload } = await setUp(t);
    const pdf = await makeTextPdf([['Lieferschein']]);
    const up = await upload([
      { name: 'a.txt', content: await renderPicture(pdf, 'jpeg', 40) },
      { name: 'b', content: await renderPicture(pdf, 'tiff', 40) },
      { name: 'c.png', content: TINY_WEBP },
    ]);
    expect(up.body.results.map((r: { file: { kind: string; mimeType: string } }) => r.file)).toMatchObject([
      { kind: 'jpg', mimeType: 'image/jpeg' },
      { kind: 'tiff', mimeType: 'image/tiff' },
      { kind: 'webp', mimeType: 'image/webp' },
    ]);
    for (const result of up.body.results) await waitForFile(client, result.file.id);
  }, 60_000);

  it('stops a picture declaring 30,000 x 30,000 pixels with FILE_PARSE_LIMIT, and the next upload still works', async () => {
    const { client, upload } = await setUp(t);
    const bomb = await upload([{ name: 'bombe.png', content: pngDeclaring(30_000, 30_000) }]);
    const failed = await waitForFile(client, bomb.body.results[0].file.id);
    expect(failed).toMatchObject({ status: 'failed', errorCode: 'FILE_PARSE_LIMIT' });
    const next = await upload([
      { name: 'danach.png', content: await renderPicture(await makeTextPdf([[NOTE]]), 'png') },
    ]);
    expect((await waitForFile(client, next.body.results[0].file.id)).status).toBe('ready');
  }, 60_000);

  it('without Tesseract, ends a photo as FILE_NO_TEXT with how to install OCR', async () => {
    const bare = await startTestServer({
      smtp: false,
      env: { OCR_TESSERACT_PATH: '/nonexistent/tesseract' },
    });
    try {
      const { client, upload } = await setUp(bare);
      const photo = await renderPicture(await makeTextPdf([[NOTE]]), 'png', 60);
      const up = await upload([{ name: 'foto.png', content: photo }]);
      const file = await waitForFile(client, up.body.results[0].file.id);
      expect(file).toMatchObject({
        status: 'failed',
        errorCode: 'FILE_NO_TEXT',
        errorMessageKey: 'files.ocr.notInstalled',
      });
      expect(file.errorMessage).toContain('OCR');
      expect(file.errorMessage).toContain('apt-get install tesseract-ocr tesseract-ocr-deu');
    } finally {
      await bare.close();
    }
  }, 60_000);
});
