import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeLlm, startFakeLlm } from '../../../test/support/fake-llm.ts';
import { companyWithFile } from '../../../test/support/knowledge.ts';
import { stream } from '../../../test/support/sse.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';

// How long building the provider's client takes (a first import of its SDK on a busy machine): 0 but in one test.
const clientSetup = vi.hoisted(() => ({ delayMs: 0 }));
vi.mock('../ai-providers/model-client.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../ai-providers/model-client.ts')>();
  return {
    ...original,
    languageModelOf: async (...args: Parameters<typeof original.languageModelOf>) => {
      await new Promise((r) => setTimeout(r, clientSetup.delayMs));
      return original.languageModelOf(...args);
    },
  };
});

// A provider that stays silent for PROVIDER_SILENCE_S counts as timed out, so the hang and stall cases end quickly.
// 1 s was too short on CI's two cores with four passes at their start: the first answer of run 60's PostgreSQL pass
// streamed no token. The fake providers listen on 127.0.0.1, which the outbound policy refuses unless allowed (see
// outbound-policy.test.ts).
const PROVIDER_SILENCE_S = 3;
let t: TestServer;
let llm: FakeLlm;
let other: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
  other = await startFakeLlm();
  t = await startTestServer({
    env: { CHAT_PROVIDER_TIMEOUT_SECONDS: String(PROVIDER_SILENCE_S), OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' },
  });
});
afterAll(async () => {
  await t?.close();
  await llm?.close();
  await other?.close();
});
beforeEach(() => {
  clientSetup.delayMs = 0;
  llm.reset();
  other.reset();
});

const MANUAL =
  'Der Heizkörper wird mit einem Vierkantschlüssel entlüftet. Danach muss der Wasserdruck auf 1,5 bar geprüft werden.';
const KEY = 'sk-test-0123456789abcdef';

async function companyWithProvider(provider: 'openai' | 'mistral' | 'qwen', baseUrl = llm.url) {
  const a = await companyWithFile(t, MANUAL);
  const saved = await a.client.request('PUT', `/ai-providers/${provider}`, {
    baseUrl,
    apiKey: KEY,
    model: provider === 'mistral' ? 'mistral-small-latest' : 'gpt-4o-mini',
  });
  expect(saved.status).toBe(200);
  const chat = await a.client.post('/chats', { name: 'KI', provider, divisionIds: [a.divisionId] });
  expect(chat.status).toBe(201);
  return { ...a, chatId: chat.body.id as string };
}

const ask = (
  client: TestServer['client'] extends () => infer C ? C : never,
  chatId: string,
  content: string,
) => stream(client, `/chats/${chatId}/messages`, { content });

describe('answers from a language model', () => {
  it.each([
    ['openai', () => llm.url],
    ['mistral', () => llm.mistralUrl],
    ['qwen', () => llm.url],
  ] as const)(
    'streams %s’s answer with numbered passages in the prompt and citations',
    async (provider, url) => {
      const a = await companyWithProvider(provider, url());
      llm.setScript({ text: 'Mit einem Vierkantschlüssel [1].', tokensPerChunk: 1 });
      const res = await ask(a.client, a.chatId, 'Womit wird der Heizkörper entlüftet?');
      expect(res.status).toBe(200);
      expect(res.events.filter((e) => e.event === 'token').length).toBeGreaterThan(2);
      expect(res.text()).toBe('Mit einem Vierkantschlüssel [1].');
      expect(res.events.find((e) => e.event === 'citation')!.data).toMatchObject({
        n: 1,
        fileName: 'Heizung.docx',
      });
      expect(res.done()).toMatchObject({ status: 'complete', provider, noAnswer: false });
      expect(res.done().citations).toHaveLength(1);

      const call = llm.requests.find((r) => r.route === 'chat')!;
      expect(call.authorization).toBe(`Bearer ${KEY}`);
      const system = JSON.stringify(call.body.messages);
      expect(system).toContain('[1] (Heizung.docx');
      expect(system).toContain('Vierkantschlüssel');
      expect(system).toContain('Answer in German');
    },
  );

  it("counts the provider's silence from its request, not from loading its client", async () => {
    const a = await companyWithProvider('mistral', llm.mistralUrl);
    llm.setScript({ text: 'Mit einem Vierkantschlüssel [1].', tokensPerChunk: 1 });
    // Longer than the provider's allowed silence: counted from the start, the answer would time out.
    clientSetup.delayMs = PROVIDER_SILENCE_S * 1000 + 1500;
    const res = await ask(a.client, a.chatId, 'Womit wird der Heizkörper entlüftet?');
    expect(res.done()).toMatchObject({ status: 'complete', noAnswer: false });
    expect(res.text()).toBe('Mit einem Vierkantschlüssel [1].');
  });

  it('sends the conversation so far with a follow-up question', async () => {
    const a = await companyWithProvider('openai');
    llm.setScript({ text: 'Mit einem Vierkantschlüssel [1].' });
    await ask(a.client, a.chatId, 'Womit wird der Heizkörper entlüftet?');
    llm.setScript({ text: 'Auf 1,5 bar [1].' });
    await ask(a.client, a.chatId, 'Und welcher Wasserdruck danach?');
    const calls = llm.requests.filter((r) => r.route === 'chat');
    const messages = calls[1]!.body.messages as Array<{ role: string; content: string }>;
    expect(messages.filter((m) => m.role !== 'system').map((m) => m.content)).toEqual([
      'Womit wird der Heizkörper entlüftet?',
      'Mit einem Vierkantschlüssel [1].',
      'Und welcher Wasserdruck danach?',
    ]);
  });

  it('grounds the model in the passages and gives the plain "not found" when it says they do not answer', async () => {
    const a = await companyWithProvider('openai');
    llm.setScript({ text: 'NOT_IN_DOCUMENTS', tokensPerChunk: 1 });
    const res = await ask(a.client, a.chatId, 'Womit wird der Heizkörper im Keller entlüftet?');
    expect(res.done()).toMatchObject({ noAnswer: true, status: 'complete', citations: [] });
    // The marker never reaches the asker: the answer is the product's own, in the question's language.
    expect(res.text()).not.toContain('NOT_IN_DOCUMENTS');
    expect(res.text()).toMatch(/nichts gefunden/);
    const system = JSON.stringify(llm.requests.filter((r) => r.route === 'chat').at(-1)!.body.messages);
    expect(system).toContain('answer only: NOT_IN_DOCUMENTS');
    expect(system).toContain('exactly as written');
  });

  it('does not call the model when no passage is relevant, and says so', async () => {
    const a = await companyWithProvider('openai');
    const res = await ask(a.client, a.chatId, 'What is the warranty period of the solar panels on the roof?');
    expect(res.done()).toMatchObject({ noAnswer: true, status: 'complete' });
    // The English question about German documents was translated (one short call); no answer was asked for.
    const calls = llm.requests.filter((r) => r.route === 'chat');
    expect(calls).toHaveLength(1);
    expect(JSON.stringify(calls[0]!.body.messages)).toContain("Translate the user's question into German");
  });

  it.each([
    ['an HTTP error', { status: 500 }, 'PROVIDER_ERROR', ''],
    [
      'a dropped stream',
      { text: 'Mit einem Vierkant schlüssel und Geduld.', dropAfter: 2 },
      'PROVIDER_STREAM_INTERRUPTED',
      'Mit einem',
    ],
    [
      'a stalled stream',
      { text: 'Mit einem Vierkant schlüssel und Geduld.', stallAfter: 2 },
      'PROVIDER_TIMEOUT',
      'Mit einem',
    ],
    ['a provider that never answers', { hang: true }, 'PROVIDER_TIMEOUT', ''],
  ] as const)(
    'keeps the partial answer of %s, marked interrupted, with a clear message',
    async (_, script, code, partial) => {
      const a = await companyWithProvider('openai');
      llm.setScript({ tokensPerChunk: 1, ...script });
      const res = await ask(a.client, a.chatId, 'Womit wird der Heizkörper entlüftet?');
      expect(res.status).toBe(200);
      const error = res.events.find((e) => e.event === 'error')!.data;
      expect(error.code).toBe(code);
      expect(error.message.length).toBeGreaterThan(10);
      expect(res.done()).toMatchObject({ status: 'interrupted', errorCode: code, content: partial });
      expect(res.text()).toBe(partial);
      const stored = (await a.client.get(`/chats/${a.chatId}/messages`)).body.items[1];
      expect(stored).toMatchObject({ status: 'interrupted', content: partial, errorCode: code });
      expect(stored.errorMessage).toBe(error.message);
    },
  );

  it('stores the partial answer as stopped when the asker stops it', async () => {
    const a = await companyWithProvider('openai');
    llm.setScript({
      text: 'Eins zwei drei vier fünf sechs sieben acht neun zehn.',
      tokensPerChunk: 1,
      chunkDelayMs: 150,
    });
    const res = await stream(
      a.client,
      `/chats/${a.chatId}/messages`,
      { content: 'Womit wird der Heizkörper entlüftet?' },
      { stopAfter: 2 },
    );
    expect(res.done()).toBeUndefined();
    let stored: { status: string; content: string } | undefined;
    for (let i = 0; i < 50 && stored?.status !== 'stopped'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      stored = (await a.client.get(`/chats/${a.chatId}/messages`)).body.items[1];
    }
    expect(stored!.status).toBe('stopped');
    expect(stored!.content.startsWith('Eins zwei')).toBe(true);
    expect(stored!.content.length).toBeLessThan(
      'Eins zwei drei vier fünf sechs sieben acht neun zehn.'.length,
    );
    expect(llm.requests.find((r) => r.route === 'chat')!.clientClosed).toBe(true);
  });
});

describe('AI-provider settings', () => {
  it('stores the key encrypted, never sends it back, and tests the connection', async () => {
    const a = await companyWithFile(t, MANUAL);
    const saved = await a.client.request('PUT', '/ai-providers/openai', {
      baseUrl: llm.url,
      apiKey: KEY,
      model: 'gpt-4o-mini',
      transcriptionModel: 'whisper-1',
    });
    expect(saved.body).toMatchObject({ provider: 'openai', apiKeyMasked: 'sk-…cdef', model: 'gpt-4o-mini' });
    const listed = await a.client.get('/ai-providers');
    expect(JSON.stringify(listed.body)).not.toContain(KEY);
    const { rows } = await t.server.ctx.db.execute<{ api_key_encrypted: string }>(
      sql`select api_key_encrypted from ai_providers`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.api_key_encrypted).not.toContain('0123456789abcdef');

    // Saving without a key keeps the saved one.
    await a.client.request('PUT', '/ai-providers/openai', { model: 'gpt-4o' });
    llm.requireApiKey = KEY;
    const ok = await a.client.post('/ai-providers/openai/test', {});
    expect(ok.body).toMatchObject({ ok: true, message: null });
    expect(ok.body.models).toContain('gpt-4o-mini');
    const bad = await a.client.post('/ai-providers/openai/test', { apiKey: 'sk-wrong-key-000000' });
    expect(bad.body).toMatchObject({
      ok: false,
      message: 'The AI provider refused the key. Please check the API key.',
    });

    const options = await a.client.get('/chat-options');
    expect(options.body.providers.map((p: { provider: string }) => p.provider)).toEqual([
      'builtin',
      'openai',
    ]);
    expect(options.body.speech).toEqual({ available: true, provider: 'openai', reason: null });

    expect((await a.client.delete('/ai-providers/openai')).status).toBe(204);
    expect((await a.client.get('/chat-options')).body.speech.available).toBe(false);
  });

  it('sends the saved key only to the base URL it was saved for', async () => {
    const a = await signedInDataManager(t, { language: 'en' });
    const saved = await a.client.request('PUT', '/ai-providers/openai', {
      baseUrl: llm.url,
      apiKey: KEY,
      model: 'gpt-4o-mini',
    });
    expect(saved.status).toBe(200);
    const keySent = () => other.requests.some((r) => r.authorization?.includes(KEY));

    // A test of another address without a key: the key must be typed again.
    const test = await a.client.post('/ai-providers/openai/test', { baseUrl: other.url });
    expect(test.status).toBe(422);
    expect(test.body.error.details.fields).toEqual([
      {
        field: 'apiKey',
        code: 'validation.apiKeyAgain',
        message: 'Enter the key again for the new address.',
      },
    ]);
    // The same address spelled differently is the same endpoint.
    expect((await a.client.post('/ai-providers/openai/test', { baseUrl: `${llm.url}/` })).body.ok).toBe(true);

    // Saving another address without a key is refused the same way, and the saved settings stay.
    const moved = await a.client.request('PUT', '/ai-providers/openai', {
      baseUrl: other.url,
      model: 'gpt-4o-mini',
    });
    expect(moved.status).toBe(422);
    expect(moved.body.error.details.fields[0]).toMatchObject({
      field: 'apiKey',
      code: 'validation.apiKeyAgain',
    });
    expect((await a.client.get('/ai-providers')).body.items[0]).toMatchObject({
      baseUrl: llm.url,
      apiKeyMasked: 'sk-…cdef',
    });

    // With the key typed again, both go there.
    const retyped = await a.client.post('/ai-providers/openai/test', {
      baseUrl: other.url,
      apiKey: 'sk-other-key-1234',
    });
    expect(retyped.body.ok).toBe(true);
    expect(other.requests.at(-1)!.authorization).toBe('Bearer sk-other-key-1234');
    expect(keySent()).toBe(false);
  });

  it('drops an optional saved key when the base URL changes, and never sends it there', async () => {
    const a = await companyWithFile(t, MANUAL);
    await a.client.request('PUT', '/ai-providers/compatible', { baseUrl: llm.url, apiKey: KEY, model: 'm' });
    const test = await a.client.post('/ai-providers/compatible/test', { baseUrl: other.url });
    expect(test.body.ok).toBe(true);
    expect(other.requests.at(-1)!.authorization).toBeUndefined();

    const moved = await a.client.request('PUT', '/ai-providers/compatible', {
      baseUrl: other.url,
      model: 'm',
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ baseUrl: other.url, apiKeyMasked: null });
    const chat = await a.client.post('/chats', {
      name: 'x',
      provider: 'compatible',
      divisionIds: [a.divisionId],
    });
    other.setScript({ text: 'Mit einem Vierkantschlüssel [1].' });
    const res = await ask(a.client, chat.body.id, 'Womit wird der Heizkörper entlüftet?');
    expect(res.done()).toMatchObject({ status: 'complete' });
    expect(other.requests.find((r) => r.route === 'chat')!.authorization).toBeUndefined();
    expect(other.requests.some((r) => r.authorization?.includes(KEY))).toBe(false);
  });

  it('reaches an allowed private address in any spelling', async () => {
    const a = await signedInDataManager(t, { language: 'en' });
    const port = new URL(llm.url).port;
    for (const baseUrl of [llm.url, `http://2130706433:${port}/v1`, `http://localhost:${port}/v1`]) {
      const res = await a.client.post('/ai-providers/compatible/test', { baseUrl });
      expect(res.body, baseUrl).toMatchObject({ ok: true, message: null });
    }
  });

  it('never tells what the endpoint answered, only that the test failed', async () => {
    const SECRET = 'internal-secret-7f3a9c-do-not-leak';
    const leaky: Server = createServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: SECRET }, detail: SECRET }));
    });
    await new Promise<void>((resolve) => leaky.listen(0, '127.0.0.1', resolve));
    try {
      const a = await signedInDataManager(t, { language: 'en' });
      const baseUrl = `http://127.0.0.1:${(leaky.address() as AddressInfo).port}/v1`;
      const res = await a.client.post('/ai-providers/compatible/test', { baseUrl });
      expect(res.body).toEqual({
        ok: false,
        models: [],
        message: 'The AI provider could not answer. Please try again later.',
      });
      // A closed port fails the same way, so the test cannot be used to scan ports.
      const closed = await a.client.post('/ai-providers/compatible/test', {
        baseUrl: 'http://127.0.0.1:9/v1',
      });
      expect(closed.body.message).toBe(res.body.message);
    } finally {
      await new Promise<void>((resolve) => leaky.close(() => resolve()));
    }
  });

  it('refuses a chat with a provider the company has not set up', async () => {
    const a = await companyWithFile(t, MANUAL);
    const res = await a.client.post('/chats', {
      name: 'x',
      provider: 'mistral',
      divisionIds: [a.divisionId],
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('PROVIDER_NOT_CONFIGURED');
  });

  it("keeps each company's providers to itself", async () => {
    const a = await companyWithProvider('openai');
    const b = await companyWithFile(t, 'Andere Firma.');
    expect((await b.client.get('/ai-providers')).body.items).toEqual([]);
    expect((await b.client.delete('/ai-providers/openai')).status).toBe(404);
    expect((await a.client.get('/ai-providers')).body.items).toHaveLength(1);
  });
});

describe('voice messages', () => {
  const audio = () => {
    const form = new FormData();
    form.append('audio', new Blob([new Uint8Array(4000).fill(7)], { type: 'audio/webm' }), 'voice.webm');
    return form;
  };

  it('transcribes through the provider’s transcription endpoint', async () => {
    const a = await companyWithFile(t, MANUAL);
    const chatId = (await a.client.post('/chats', { name: 'x', divisionIds: [a.divisionId] })).body.id;
    const without = await a.client.request('POST', `/chats/${chatId}/transcriptions`, undefined, {
      form: audio(),
    });
    expect(without.status).toBe(409);
    expect(without.body.error.code).toBe('SPEECH_UNAVAILABLE');

    await a.client.request('PUT', '/ai-providers/openai', {
      baseUrl: llm.url,
      apiKey: KEY,
      model: 'gpt-4o-mini',
      transcriptionModel: 'whisper-1',
    });
    llm.setScript({ transcript: 'Wie entlüfte ich den Heizkörper?' });
    const res = await a.client.request('POST', `/chats/${chatId}/transcriptions`, undefined, {
      form: audio(),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ text: 'Wie entlüfte ich den Heizkörper?' });
    const call = llm.requests.find((r) => r.route === 'transcriptions')!;
    expect(call.body.model ?? call.body.fields?.model).toBe('whisper-1');

    const empty = new FormData();
    empty.append('audio', new Blob([], { type: 'audio/webm' }), 'voice.webm');
    const none = await a.client.request('POST', `/chats/${chatId}/transcriptions`, undefined, {
      form: empty,
    });
    expect(none.body.error.code).toBe('AUDIO_EMPTY');
  });
});
