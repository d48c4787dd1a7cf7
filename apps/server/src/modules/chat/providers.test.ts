import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeLlm, startFakeLlm } from '../../../test/support/fake-llm.ts';
import { companyWithFile } from '../../../test/support/knowledge.ts';
import { stream } from '../../../test/support/sse.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';

// A provider that stays silent for 1 s counts as timed out, so the hang and stall cases end quickly.
let t: TestServer;
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
  t = await startTestServer({ env: { CHAT_PROVIDER_TIMEOUT_SECONDS: '1' } });
});
afterAll(async () => {
  await t?.close();
  await llm?.close();
});
beforeEach(() => llm.reset());

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

  it('does not call the model when no passage is relevant, and says so', async () => {
    const a = await companyWithProvider('openai');
    const res = await ask(a.client, a.chatId, 'What is the warranty period of the solar panels on the roof?');
    expect(res.done()).toMatchObject({ noAnswer: true, status: 'complete' });
    expect(llm.requests.filter((r) => r.route === 'chat')).toHaveLength(0);
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
    expect(bad.body.ok).toBe(false);
    expect(bad.body.message).toContain('401');

    const options = await a.client.get('/chat-options');
    expect(options.body.providers.map((p: { provider: string }) => p.provider)).toEqual([
      'builtin',
      'openai',
    ]);
    expect(options.body.speech).toEqual({ available: true, provider: 'openai', reason: null });

    expect((await a.client.delete('/ai-providers/openai')).status).toBe(204);
    expect((await a.client.get('/chat-options')).body.speech.available).toBe(false);
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
