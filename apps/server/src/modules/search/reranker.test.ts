import { afterAll, beforeAll, expect, it } from 'vitest';
import { type FakeReranker, startFakeReranker } from '../../../test/support/fake-reranker.ts';
import { companyWithFile } from '../../../test/support/knowledge.ts';
import { stream } from '../../../test/support/sse.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';

let fake: FakeReranker;
let t: TestServer;
beforeAll(async () => {
  fake = await startFakeReranker();
  t = await startTestServer({
    smtp: false,
    env: {
      RERANKER_URL: `${fake.url}/v1/rerank`,
      RERANKER_MODEL: 'test-reranker',
      RERANKER_API_KEY: 'rr-secret',
      CHAT_PASSAGES: '1',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

// The search ranks the first section first (it says "Kessel" and "gewartet" most often); only the second says how
// often, which the (scripted) reranking service knows.
const MANUAL = [
  { heading: 'Wartung' },
  {
    text: 'Der Kessel wird vom Fachbetrieb gewartet. Ein gewarteter Kessel ist sicher, und der Kessel bleibt gewartet.',
  },
  { heading: 'Intervall' },
  { text: 'Einmal im Jahr wird der Kessel gewartet.' },
];

it('orders the passages of an answer by the reranking service, keeping the search order when it fails', async () => {
  const dm = await companyWithFile(t, MANUAL, 'Heizung', { language: 'de' });
  const chatId = (await dm.client.post('/chats', { name: 'Fragen', divisionIds: [dm.divisionId] })).body.id;
  const ask = async () =>
    (
      await stream(dm.client, `/chats/${chatId}/messages`, { content: 'Wie wird der Kessel gewartet?' })
    ).done();

  fake.prefer = 'Einmal im Jahr';
  const reranked = await ask();
  expect(reranked.content).toContain('Einmal im Jahr wird der Kessel gewartet.');
  const request = fake.requests.at(-1)!;
  expect(request).toMatchObject({
    model: 'test-reranker',
    query: 'Wie wird der Kessel gewartet?',
    top_n: 1,
  });
  expect(request.authorization).toBe('Bearer rr-secret');
  expect(request.documents.length).toBe(2);

  // The service is down: the answer comes from the search's best passage, not an error.
  fake.failWith = 503;
  const kept = await ask();
  expect(kept.status).toBe('complete');
  expect(kept.content).toContain('Der Kessel wird vom Fachbetrieb gewartet.');
  expect(t.logs.some((l) => l.includes('reranking service failed'))).toBe(true);
});
