import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../../test/support/api-client.ts';
import { writeDictd } from '../../../../test/support/dictd-files.ts';
import { type FakeLlm, startFakeLlm } from '../../../../test/support/fake-llm.ts';
import { companyWithFile } from '../../../../test/support/knowledge.ts';
import { stream } from '../../../../test/support/sse.ts';
import { startTestServer, type TestServer } from '../../../../test/support/test-server.ts';

// German documents, questions in English and Russian, and a few dictionary entries the test writes itself.
const MANUAL = [
  { heading: 'Kundendienst' },
  { text: 'Der Heizkessel wird einmal im Jahr vom Kundendienst gewartet und gereinigt.' },
  { text: 'Die Gebühr für die Wartung beträgt pauschal 120 Euro netto.' },
  { heading: 'Personal' },
  { text: 'Der Urlaub wird zwei Wochen vorher schriftlich bei der Geschäftsleitung beantragt.' },
  { heading: 'Lager' },
  { text: 'Rohre aus Kupfer werden nur in ganzen Stangen zu fünf Metern abgegeben.' },
];

const dictionaries = mkdtempSync(join(tmpdir(), 'ww-dicts-'));
const entry = (headword: string, translations: string) => ({
  headword,
  body: `${headword}\n${translations}`,
});
writeDictd(
  dictionaries,
  'freedict-eng-deu',
  [
    entry('boiler', 'Heizkessel <masc>, Kessel <masc>, Boiler <masc>'),
    entry('charge', 'Ladung <fem>, Gebühr <fem>, Anklage <fem>'),
    // A word whose first senses are slang: the one the documents use comes tenth.
    entry(
      'copper',
      'Bulle <masc>, Polyp <masc>, Butz <masc>, Schupo <masc>, Bullen <pl>, Polypen <pl>, Bulli <masc>, ' +
        'Schmier <fem>, Wachtel <fem>, Kupfer <neut>',
    ),
    entry('holiday', 'Urlaub <masc>, Feiertag <masc>'),
    entry('servicing', 'Wartung <fem>, Instandhaltung <fem>'),
  ],
  { chunkLength: 64 },
);
writeDictd(dictionaries, 'freedict-deu-rus', [
  entry('Heizkessel', '1. котёл'),
  entry('Wartung', '1. обслуживание, уход'),
]);

let t: TestServer;
let llm: FakeLlm;
let client: ApiClient;
let divisionId: string;

beforeAll(async () => {
  llm = await startFakeLlm();
  t = await startTestServer({
    smtp: false,
    env: {
      DICTIONARY_PATH: dictionaries,
      // Room for the fake model's translation on a loaded machine (1 s ran out beside a CI run); only the test where
      // it hangs waits the whole time.
      QUESTION_TRANSLATION_TIMEOUT_SECONDS: '5',
      OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
    },
  });
  const company = await companyWithFile(t, MANUAL, 'Technik', { language: 'de' });
  client = company.client;
  divisionId = company.divisionId;
}, 120_000);
afterAll(async () => {
  await t?.close();
  await llm?.close();
  rmSync(dictionaries, { recursive: true, force: true });
});
beforeEach(() => llm.reset());

const search = async (q: string, mode = 'hybrid') => {
  const res = await client.get(`/search?q=${encodeURIComponent(q)}&mode=${mode}`);
  expect(res.status).toBe(200);
  return (res.body.items as Array<{ text: string }>).map((h) => h.text);
};

describe('a question in another language than the documents, with no model', () => {
  it('finds the German passage through the dictionaries', async () => {
    for (const mode of ['hybrid', 'fulltext']) {
      const hits = await search('How much is the charge for servicing the boiler?', mode);
      expect(hits[0], mode).toContain('Gebühr für die Wartung');
    }
    expect((await search('Как часто обслуживание котла?'))[0]).toContain('Heizkessel');
  });

  it('keeps a sense the documents use when the dictionaries list it after the ones kept', async () => {
    expect((await search('Where is the copper?', 'fulltext'))[0]).toContain('Rohre aus Kupfer');
  });

  it('still finds nothing when no word of the question translates into the documents', async () => {
    expect(await search('What is the salary of a plumber?')).toEqual([]);
    expect(await search('What is the salary of a plumber?', 'fulltext')).toEqual([]);
  });

  it('is answered by the built-in answerer with the German sentence', async () => {
    const chat = await client.post('/chats', { name: 'Fragen', divisionIds: [divisionId] });
    const res = await stream(client, `/chats/${chat.body.id}/messages`, {
      content: 'How much is the charge for servicing the boiler?',
    });
    expect(res.status).toBe(200);
    const done = res.done() as { content: string; noAnswer: boolean };
    expect(done.noAnswer).toBe(false);
    expect(done.content).toContain('120 Euro');
  });

  it('translates a short follow-up in another language than the question before it', async () => {
    const chat = await client.post('/chats', { name: 'Nachfragen', divisionIds: [divisionId] });
    const ask = (content: string) => stream(client, `/chats/${chat.body.id}/messages`, { content });
    expect((await ask('Wie oft wird der Heizkessel gewartet?')).done()).toMatchObject({ noAnswer: false });
    // Read with the German question before it, the English word is still English: "charge" is "Gebühr".
    const done = (await ask('And the charge?')).done() as { content: string; noAnswer: boolean };
    expect(done.noAnswer).toBe(false);
    expect(done.content).toContain('120 Euro');
  });
});

describe('a question in another language, with the company’s model', () => {
  let chatId: string;
  beforeAll(async () => {
    const saved = await client.request('PUT', '/ai-providers/openai', {
      baseUrl: llm.url,
      apiKey: 'sk-test-0123456789abcdef',
      model: 'gpt-4o-mini',
    });
    expect(saved.status).toBe(200);
    chatId = (await client.post('/chats', { name: 'KI', provider: 'openai', divisionIds: [divisionId] })).body
      .id;
  });

  const translating = (call: { promptText: string }) => call.promptText.includes('Translate the user');
  const prompts = () =>
    llm.requests.filter((r) => r.route === 'chat').map((r) => JSON.stringify(r.body.messages) as string);

  it('has the model translate it in one short call before searching', async () => {
    // The dictionaries know no word of this question: only the model's translation finds the passage.
    llm.setScript({
      text: (call) => (translating(call) ? 'Was kostet die Wartung?' : 'Die Wartung kostet 120 Euro [1].'),
    });
    const res = await stream(client, `/chats/${chatId}/messages`, { content: 'What is the fee for upkeep?' });
    expect(res.done()).toMatchObject({ status: 'complete', noAnswer: false });
    const [translation, answer, ...rest] = prompts();
    expect(rest).toEqual([]);
    expect(translation).toContain('into German');
    expect(translation).toContain('What is the fee for upkeep?');
    expect(answer).toContain('Gebühr für die Wartung');
  });

  it.each([
    ['fails', { status: 500 }],
    ['does not answer in time', { hang: true }],
  ])('falls back to the dictionaries when the translation %s', async (_, failure) => {
    llm.enqueue(failure);
    llm.setScript({ text: 'Die Wartung kostet 120 Euro [1].' });
    const res = await stream(client, `/chats/${chatId}/messages`, {
      content: 'How much is the charge for servicing the boiler?',
    });
    expect(res.done()).toMatchObject({ status: 'complete', noAnswer: false });
    const all = prompts();
    expect(all).toHaveLength(2);
    expect(all[1]).toContain('Gebühr für die Wartung');
  });

  it('translates nothing when the question is in the documents’ language', async () => {
    llm.setScript({ text: 'Die Wartung kostet 120 Euro [1].' });
    // A chat of its own: a short question is read with the one before it, and that one was English.
    const own = await client.post('/chats', { name: 'KI', provider: 'openai', divisionIds: [divisionId] });
    await stream(client, `/chats/${own.body.id}/messages`, {
      content: 'Was kostet die Wartung des Heizkessels?',
    });
    expect(prompts()).toHaveLength(1);
    expect(prompts()[0]).toContain('Gebühr für die Wartung');
  });
});
