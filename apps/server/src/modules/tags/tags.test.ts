import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationOf, insertExchange } from '../../../test/support/chat-fixtures.ts';
import { signedInAs } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

describe('/tags', () => {
  it('adds, lists with feedback counts, renames, recolours and deletes the company’s tags', async () => {
    const dm = await signedInAs(t, 'DataManager');
    const created = await dm.client.post('/tags', { name: '  Veraltet ', color: 'warning' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Veraltet', color: 'warning', feedbackCount: 0 });
    const other = (await dm.client.post('/tags', { name: 'anfrage' })).body;
    expect(other.color).toBe('primary');

    const thread = await conversationOf(t, dm.user);
    for (const question of ['Eins?', 'Zwei?']) {
      const { answerId } = await insertExchange(t, thread, { question });
      const res = await dm.client.request('PUT', `/messages/${answerId}/feedback`, {
        liked: false,
        tagId: created.body.id,
      });
      expect(res.status).toBe(200);
    }

    const list = await dm.client.get('/tags');
    expect(list.status).toBe(200);
    expect(
      list.body.items.map((tag: { name: string; feedbackCount: number }) => [tag.name, tag.feedbackCount]),
    ).toEqual([
      ['anfrage', 0],
      ['Veraltet', 2],
    ]);

    const renamed = await dm.client.patch(`/tags/${created.body.id}`, { name: 'Überholt', color: 'error' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      id: created.body.id,
      name: 'Überholt',
      color: 'error',
      feedbackCount: 2,
    });

    expect((await dm.client.delete(`/tags/${created.body.id}`)).status).toBe(204);
    expect((await dm.client.get('/tags')).body.items.map((tag: { name: string }) => tag.name)).toEqual([
      'anfrage',
    ]);
    // The feedback stays, without its tag.
    const reports = (await dm.client.get('/feedback')).body.items;
    expect(reports).toHaveLength(2);
    expect(
      reports.every((f: { tagId: string | null; tagName: string | null }) => !f.tagId && !f.tagName),
    ).toBe(true);
    expect((await dm.client.delete(`/tags/${created.body.id}`)).status).toBe(404);
  });

  it('keeps names unique per company whatever their case (409 TAG_EXISTS), not across companies', async () => {
    const a = await signedInAs(t, 'DataManager');
    const b = await signedInAs(t, 'DataManager');
    expect((await a.client.post('/tags', { name: 'Wichtig' })).status).toBe(201);
    const dup = await a.client.post('/tags', { name: 'WICHTIG' });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: 'TAG_EXISTS', details: { field: 'name' } });
    const second = (await a.client.post('/tags', { name: 'Später' })).body;
    const rename = await a.client.patch(`/tags/${second.id}`, { name: 'wichtig' });
    expect(rename.status).toBe(409);
    expect(rename.body.error.code).toBe('TAG_EXISTS');
    expect((await b.client.post('/tags', { name: 'wichtig' })).status).toBe(201);
  });

  it('validates name and colour', async () => {
    const dm = await signedInAs(t, 'DataManager');
    for (const body of [{ name: '' }, { name: 'x'.repeat(41) }, { name: 'Ok', color: 'pink' }, {}]) {
      const res = await dm.client.post('/tags', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
  });

  it("never shows or changes another company's tags (404)", async () => {
    const a = await signedInAs(t, 'DataManager');
    const b = await signedInAs(t, 'DataManager');
    const tag = (await a.client.post('/tags', { name: 'Geheim' })).body;
    expect((await b.client.get('/tags')).body.items).toEqual([]);
    const patch = await b.client.patch(`/tags/${tag.id}`, { name: 'Gekapert' });
    expect(patch.status).toBe(404);
    expect((await b.client.delete(`/tags/${tag.id}`)).status).toBe(404);
    expect((await a.client.get('/tags')).body.items.map((x: { name: string }) => x.name)).toEqual(['Geheim']);
  });

  it('lets employees list their company’s tags but not change them (403), and needs a session (401)', async () => {
    const dm = await signedInAs(t, 'DataManager');
    const employee = await signedInAs(t, 'Employee', { companyId: dm.companyId });
    const tag = (await dm.client.post('/tags', { name: 'Rückfrage' })).body;
    const list = await employee.client.get('/tags');
    expect(list.status).toBe(200);
    expect(list.body.items.map((x: { id: string }) => x.id)).toEqual([tag.id]);
    for (const res of [
      await employee.client.post('/tags', { name: 'Neu' }),
      await employee.client.patch(`/tags/${tag.id}`, { name: 'Neu' }),
      await employee.client.delete(`/tags/${tag.id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    const anonymous = t.client();
    for (const res of [
      await anonymous.get('/tags'),
      await anonymous.post('/tags', { name: 'Neu' }),
      await anonymous.patch(`/tags/${tag.id}`, { name: 'Neu' }),
      await anonymous.delete(`/tags/${tag.id}`),
    ]) {
      expect(res.status).toBe(401);
    }
  });
});
