import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(async () => t?.close());

async function publicChat() {
  const dm = await signedInDataManager(t);
  const divisionId = (await dm.client.post('/divisions', { name: 'Service' })).body.id as string;
  const chatId = (
    await dm.client.post('/chats', { name: 'Kundenfragen', visibility: 'public', divisionIds: [divisionId] })
  ).body.id as string;
  const token = (await dm.client.post(`/chats/${chatId}/share`)).body.shareToken as string;
  return { dm, chatId, token };
}

describe('the public feedback page', () => {
  it("stores an anonymous visitor's rating of a public chat in the company's public-feedback report", async () => {
    const { dm, chatId, token } = await publicChat();
    const visitor = t.client();
    visitor.language = 'de';
    const res = await visitor.post('/public/feedback', {
      chatToken: token,
      rating: 4,
      comment: '  Sehr hilfreich  ',
    });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Vielen Dank für Ihr Feedback!');
    const report = await dm.client.get('/feedback?origin=public');
    expect(report.body.items).toEqual([
      expect.objectContaining({
        chatId,
        origin: 'public',
        rating: 4,
        comment: 'Sehr hilfreich',
        givenBy: 'Anonym',
      }),
    ]);
    // Another company's data manager sees nothing of it.
    const other = await signedInDataManager(t);
    expect((await other.client.get('/feedback?origin=public')).body.items).toEqual([]);
  });

  it('answers 404 for a chat that is not shared, and refuses ratings outside 1 to 5', async () => {
    const { token } = await publicChat();
    const unknown = await t.client().post('/public/feedback', { chatToken: 'x'.repeat(32), rating: 5 });
    expect(unknown.status).toBe(404);
    const bad = await t.client().post('/public/feedback', { chatToken: token, rating: 6 });
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
  });
});
