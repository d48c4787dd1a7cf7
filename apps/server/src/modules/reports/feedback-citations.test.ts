import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyWithFile } from '../../../test/support/knowledge.ts';
import { stream } from '../../../test/support/sse.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

describe('feedback details of a real conversation', () => {
  it('shows the text of cited passages whose file still exists, and none once it is deleted', async () => {
    const dm = await companyWithFile(
      t,
      'Der Filter wird alle sechs Monate gereinigt. Der Brenner wird jährlich gewartet.',
    );
    const chatId = (await dm.client.post('/chats', { name: 'Technik', divisionIds: [dm.divisionId] })).body
      .id as string;
    const answer = (
      await stream(dm.client, `/chats/${chatId}/messages`, { content: 'Wie oft wird der Filter gereinigt?' })
    ).done();
    expect(answer.citations.length).toBeGreaterThan(0);
    const given = await dm.client.request('PUT', `/messages/${answer.id}/feedback`, {
      liked: false,
      comment: 'zu lang',
    });
    expect(given.status).toBe(200);
    const feedbackId = given.body.id as string;

    // The report's list feeds its detail drawer: its citations carry the text too.
    const listed = (await dm.client.get('/feedback')).body.items.find(
      (f: { id: string }) => f.id === feedbackId,
    );
    expect(listed.citations.length).toBeGreaterThan(0);
    for (const c of listed.citations) expect(c.text).toContain('Filter');

    const details = await dm.client.get(`/feedback/${feedbackId}`);
    expect(details.status).toBe(200);
    expect(details.body.citations.length).toBeGreaterThan(0);
    for (const c of details.body.citations) {
      expect(c.fileId).toBe(dm.file.id);
      expect(c.text).toContain('Filter');
    }

    expect((await dm.client.delete(`/files/${dm.file.id}`)).status).toBe(204);
    const after = await dm.client.get(`/feedback/${feedbackId}`);
    const listedAfter = (await dm.client.get('/feedback')).body.items[0];
    expect(listedAfter.citations.every((c: { text: string | null }) => c.text === null)).toBe(true);
    expect(after.body.citations.map((c: { text: string | null }) => c.text)).toEqual(
      details.body.citations.map(() => null),
    );
  });
});
