import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocx, waitForFile } from '../../../test/support/documents.ts';
import { employeeOf as invited, companyWithFile as withFile } from '../../../test/support/knowledge.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';

// VECTOR_EXACT_SCAN_MAX=0: every vector search walks the HNSW index, as it does for a large company.
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { VECTOR_EXACT_SCAN_MAX: '0' } });
});
afterAll(() => t?.close());

const companyWithFile = (text: string, divisionName?: string) => withFile(t, text, divisionName);
const employeeOf = (dm: Parameters<typeof invited>[1], divisionIds: string[]) => invited(t, dm, divisionIds);

describe('knowledge stays within its company and permitted divisions', () => {
  it("never shows another company's files or passages (404, no leak)", async () => {
    const a = await companyWithFile('Das Passwort des Tresors steht im Handbuch auf Seite drei.');
    const b = await companyWithFile('Unsere Firma verkauft Wärmepumpen.');
    const fileUrl = `/files/${a.file.id}`;
    for (const res of [
      await b.client.get(fileUrl),
      await b.client.get(`${fileUrl}/content`),
      await b.client.post(`${fileUrl}/retry`),
      await b.client.post(`${fileUrl}/cancel`),
      await b.client.delete(fileUrl),
      await b.client.get(`/divisions/${a.divisionId}/files`),
      await b.client.upload(`/divisions/${a.divisionId}/files`, [
        { name: 'x.txt', content: 'Eindringling hier.' },
      ]),
      await b.client.get(`/search?q=Tresor&divisionId=${a.divisionId}`),
    ]) {
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain('Tresor');
    }
    for (const mode of ['hybrid', 'fulltext', 'vector']) {
      const hits = (
        await b.client.get(`/search?q=${encodeURIComponent('Passwort des Tresors')}&mode=${mode}`)
      ).body.items;
      expect(hits.every((h: { fileId: string }) => h.fileId === b.file.id)).toBe(true);
    }
    expect((await a.client.get(fileUrl)).status).toBe(200);
  });

  it('lets an employee see only the divisions assigned to them', async () => {
    const dm = await companyWithFile(
      'Montageanleitung: der Heizkörper wird mit vier Schrauben befestigt.',
      'Montage',
    );
    const other = (await dm.client.post('/divisions', { name: 'Buchhaltung' })).body.id as string;
    const secret = await dm.client.upload(`/divisions/${other}/files`, [
      {
        name: 'Gehälter.docx',
        content: await makeDocx([{ text: 'Die Gehälter der Monteure werden am Monatsende überwiesen.' }]),
      },
    ]);
    const secretFile = await waitForFile(dm.client, secret.body.results[0].file.id);
    const employee = await employeeOf(dm, [dm.divisionId]);

    const own = (await employee.get(`/search?q=${encodeURIComponent('Heizkörper Schrauben')}`)).body.items;
    expect(own[0].fileId).toBe(dm.file.id);
    const leak = (await employee.get(`/search?q=${encodeURIComponent('Gehälter der Monteure')}`)).body.items;
    expect(leak.some((h: { fileId: string }) => h.fileId === secretFile.id)).toBe(false);
    expect((await employee.get(`/files/${dm.file.id}`)).status).toBe(200);
    expect((await employee.get(`/files/${dm.file.id}/content`)).status).toBe(200);
    expect((await employee.get(`/files/${secretFile.id}`)).status).toBe(404);
    expect((await employee.get(`/files/${secretFile.id}/content`)).status).toBe(404);
    expect((await employee.get(`/divisions/${other}/files`)).status).toBe(404);
    expect((await employee.get(`/search?q=Gehälter&divisionId=${other}`)).status).toBe(404);
    // Reading is all an employee may do with files.
    expect(
      (
        await employee.upload(`/divisions/${dm.divisionId}/files`, [
          { name: 'x.txt', content: 'Hallo Welt.' },
        ])
      ).status,
    ).toBe(403);
    expect((await employee.delete(`/files/${dm.file.id}`)).status).toBe(403);
  });

  it('finds a small company’s passage by vector among a large company’s many similar ones', async () => {
    // The large company: many passages closer to the question than the small company's one.
    const large = await signedInDataManager(t, { language: 'en' });
    const division = (await large.client.post('/divisions', { name: 'Wartung' })).body.id as string;
    const paragraphs = Array.from({ length: 400 }, (_, i) => ({
      text: `Wartung der Heizungsanlage Nummer ${i}: Filter der Heizung reinigen und Wartung der Heizung dokumentieren.`,
    }));
    const up = await large.client.upload(`/divisions/${division}/files`, [
      { name: 'Wartung.docx', content: await makeDocx(paragraphs) },
    ]);
    const big = await waitForFile(large.client, up.body.results[0].file.id);
    expect(big.passageCount).toBeGreaterThan(40);
    const small = await companyWithFile(
      'Kundendienst: nach der Wartung der Heizung wird der Filter geprüft.',
      'Kundendienst',
    );
    const hits = (
      await small.client.get(`/search?q=${encodeURIComponent('Wartung der Heizung Filter')}&mode=vector`)
    ).body.items;
    expect(hits.map((h: { fileId: string }) => h.fileId)).toEqual([small.file.id]);
  }, 60_000);
});
