import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocx, makePdf, waitForFile } from '../../../test/support/documents.ts';
import { refuseFirstSend } from '../../../test/support/refused-send.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { files } from '../../db/schema/index.ts';
import { extractFileJob, resumeStrandedFiles, SETTLED_SECONDS } from '../processing/process-file.jobs.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

async function divisionOf(
  client: Awaited<ReturnType<typeof signedInDataManager>>['client'],
  name = 'Heizung',
) {
  return (await client.post('/divisions', { name })).body.id as string;
}

describe('uploads and processing', () => {
  it('makes a .docx searchable, replaces it with a new version, and forgets it when deleted', async () => {
    const { client } = await signedInDataManager(t, { language: 'en' });
    const divisionId = await divisionOf(client);
    const v1 = await makeDocx([
      { heading: 'Wartung der Wärmepumpe' },
      { text: 'Der Filter der Wärmepumpe wird alle sechs Monate gereinigt.' },
      {
        table: [
          ['Teil', 'Preis'],
          ['Filter', '19,90 €'],
        ],
      },
    ]);
    const up = await client.upload(`/divisions/${divisionId}/files`, [{ name: 'Wartung.docx', content: v1 }]);
    expect(up.status).toBe(201);
    expect(up.body.message).toBe('File added successfully, an e-mail follows on completion.');
    const file = up.body.results[0].file;
    expect(file.kind).toBe('docx');
    const ready = await waitForFile(client, file.id);
    expect(ready.status).toBe('ready');
    expect(ready.passageCount).toBeGreaterThan(0);
    expect(ready.steps.map((s: { step: string }) => s.step)).toEqual([
      'extracting',
      'chunking',
      'embedding',
      'indexing',
    ]);

    const hits = (await client.get(`/search?q=${encodeURIComponent('Wie oft wird der Filter gereinigt?')}`))
      .body.items;
    expect(hits[0].fileName).toBe('Wartung.docx');
    expect(hits[0].text).toContain('alle sechs Monate');
    expect(hits[0].headingPath).toEqual(['Wartung der Wärmepumpe']);

    const v2 = await makeDocx([
      { heading: 'Wartung' },
      { text: 'Der Filter wird jetzt jährlich getauscht.' },
    ]);
    const up2 = await client.upload(`/divisions/${divisionId}/files`, [
      { name: 'Wartung.docx', content: v2 },
    ]);
    const second = up2.body.results[0].file;
    expect(second.replacesFileId).toBe(file.id);
    await waitForFile(client, second.id);
    expect((await client.get(`/files/${file.id}`)).status).toBe(404);
    const after = (await client.get(`/search?q=Filter`)).body.items;
    expect(after.map((h: { text: string }) => h.text).join(' ')).toContain('jährlich');
    expect(after.map((h: { text: string }) => h.text).join(' ')).not.toContain('sechs Monate');

    expect((await client.delete(`/files/${second.id}`)).status).toBe(204);
    expect((await client.get(`/search?q=Filter`)).body.items).toEqual([]);
    // Neither version nor their work files stay in the store.
    const left = await t.storage.keys();
    for (const id of [file.id, second.id]) expect(left.filter((key) => key.includes(id))).toEqual([]);
  });

  it('reads a PDF with its pages and serves the original', async () => {
    const { client } = await signedInDataManager(t, { language: 'en' });
    const divisionId = await divisionOf(client);
    const pdf = await makePdf([
      { heading: 'Preisliste 2026', text: 'Heizkörper Typ 22 kostet 249 Euro.' },
      { heading: 'Montage', text: 'Die Montage eines Heizkörpers dauert etwa zwei Stunden.' },
    ]);
    const up = await client.upload(`/divisions/${divisionId}/files`, [{ name: 'Preise.pdf', content: pdf }]);
    const ready = await waitForFile(client, up.body.results[0].file.id);
    expect(ready.status).toBe('ready');
    expect(ready.pageCount).toBe(2);
    const hits = (await client.get(`/search?q=${encodeURIComponent('Wie lange dauert die Montage?')}`)).body
      .items;
    expect(hits[0].page).toBe(2);
    expect(hits[0].headingPath).toEqual(['Montage']);
    const content = await fetch(`${t.url}/api/v1/files/${ready.id}/content`, {
      headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(content.headers.get('content-type')).toBe('application/pdf');
    // A company's document stays out of the browser's cache.
    expect(content.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await content.arrayBuffer()).equals(pdf)).toBe(true);
    // Chromium's PDF viewer runs a document's JavaScript under any CSP: a PDF is never shown inline.
    for (const query of ['', '?download=0', '?download=1']) {
      const res = await client.get(`/files/${ready.id}/content${query}`);
      expect(res.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''Preise.pdf");
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    }
  });

  it('is accepted once stored though its first step cannot be queued, and the files sweep queues it, once', async () => {
    const { client } = await signedInDataManager(t, { language: 'en' });
    const divisionId = await divisionOf(client);
    // The job queue refuses the extract job once, as pg-boss does when its connections stay busy past their wait.
    const refusal = refuseFirstSend(t.server.ctx.jobs, extractFileJob);
    const docx = await makeDocx([{ text: `Der Kessel wird jährlich gewartet (${Date.now()}).` }]);
    const up = await client
      .upload(`/divisions/${divisionId}/files`, [{ name: 'Kessel.docx', content: docx }])
      .finally(() => {
        refusal.restore();
      });
    expect(refusal.refused()).toBe(1);
    // Stored and counted: the upload did what it was asked, and says so.
    expect(up.status).toBe(201);
    const file = up.body.results[0].file;
    expect(file.status).toBe('queued');

    // Changed less than a minute ago, its step may still be on its way to the queue: the sweep leaves it.
    expect(await resumeStrandedFiles(t.server.ctx, SETTLED_SECONDS)).toBe(0);
    await t.server.ctx.db
      .update(files)
      .set({ updatedAt: new Date(Date.now() - 2 * SETTLED_SECONDS * 1000) })
      .where(eq(files.id, file.id));
    expect(await resumeStrandedFiles(t.server.ctx, SETTLED_SECONDS)).toBe(1);
    // With its job now waiting, running or done, a second sweep does not queue it again.
    expect(await resumeStrandedFiles(t.server.ctx, SETTLED_SECONDS)).toBe(0);
    const ready = await waitForFile(client, file.id);
    expect(ready.status).toBe('ready');
    expect(ready.passageCount).toBe(1);
  });
});
