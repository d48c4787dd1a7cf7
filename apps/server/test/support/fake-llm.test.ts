/**
 * Wire compatibility of the fake language-model server (`fake-llm.ts`) with the real AI SDK v7 clients the product
 * uses (`ai@7`, `@ai-sdk/openai@4`, `@ai-sdk/mistral@4`, `@ai-sdk/openai-compatible@3`): every answer, failure and
 * cut below is produced by the fake over HTTP and observed through the SDK exactly as the product will see it.
 *
 * What the installed packages do (read in their dist code):
 * - `createOpenAI(...)(model)` (and `.languageModel`, `.responses`) uses the Responses API (`POST /responses`), NOT
 *   chat completions; `createOpenAI(...).chat(model)` is `OpenAIChatLanguageModel` → `POST {baseURL}/chat/completions`,
 *   and streaming always sends `stream: true, stream_options: { include_usage: true }`.
 * - `createMistral(...)(model)` → `POST {baseURL}/chat/completions` with `stream: true` and no `stream_options`; it
 *   reads `choices[0].delta` of every chunk (an OpenAI-style usage chunk with `choices: []` would crash it), wants
 *   `usage` with all three counts when present, and parses errors as `{ object: 'error', message, type, param, code }`.
 *   It has no transcription model.
 * - `createOpenAICompatible({ name, baseURL, apiKey })(model)` → `POST {baseURL}/chat/completions`; it sends
 *   `stream_options` only with `includeUsage: true` (without it, streamed usage is unknown); no `apiKey` → no
 *   Authorization header; a stream that ends without any `finish_reason` yields an extra `error` part.
 * - Transcription is `transcribe` (`experimental_transcribe` in `ai@6`, a deprecated alias since `ai@7`) with
 *   `createOpenAI(...).transcription(model)` → multipart `POST {baseURL}/audio/transcriptions` with `model` and
 *   `file` (named `audio.<ext>`, media type sniffed from the bytes); `language`, `prompt` and `temperature` are only
 *   sent when `providerOptions.openai` is given; `response_format` is `verbose_json` for whisper-1 whether or not
 *   (so `language`/`durationInSeconds`/`segments` are filled; in `ai@6` only with `providerOptions.openai`).
 *
 * How the product calls the SDK:
 * - Chat: `streamText({ model, instructions, messages | prompt, maxRetries, abortSignal, timeout, onError })` with
 *   `model` = `createOpenAI({ baseURL, apiKey }).chat(id)` | `createMistral({ baseURL, apiKey })(id)` |
 *   `createOpenAICompatible({ name, baseURL, apiKey, includeUsage: true })(id)`.
 * - `streamText` itself never throws. Consume `result.fullStream`; its parts are `start`, `start-step`,
 *   `text-start`, `text-delta` (`.text`), `text-end`, `finish-step`, `finish` (`.finishReason`, `.totalUsage`),
 *   plus `error` (`.error: unknown`) and `abort`.
 * - HTTP errors (4xx/5xx) become an `error` part holding an `APICallError` (`statusCode`, `isRetryable`,
 *   `responseBody`) and a call of `onError({ error })` (whose default is `console.error`, so always pass one); the
 *   stream then ends without `finish`; `textStream` ends silently (empty); `await result.text` rejects with
 *   `NoOutputGeneratedError`. Retryable ones (408/409/429/5xx) are first retried `maxRetries` times (default 2, backoff
 *   2 s, 4 s unless the answer has `retry-after(-ms)`); when retries run out the error is a `RetryError`
 *   (`reason: 'maxRetriesExceeded'`, `lastError`). Use `maxRetries: 0` to fail fast.
 * - A connection dropped mid-stream does NOT become an `error` part: iterating `fullStream`/`textStream` THROWS an
 *   `APICallError` ("Failed to process successful response", `cause` TypeError "terminated", `isRetryable: true`)
 *   after the partial text, `onError` is not called, nothing is retried, and `await result.text` rejects with it.
 *   Wrap the loop in try/catch. Exception: `@ai-sdk/openai`'s chat model reads up to the first text chunk inside
 *   the request, so a drop BEFORE any text is retried and then reported like an HTTP error (`error` part, `onError`).
 *   The product must therefore handle both an `error` part and a throw.
 * - An in-stream error frame (`data: {"error": {...}}`) becomes an `error` part whose `error` is a
 *   `StreamProviderError` (`message`, `isRetryable`, the frame's `{ message, type, param, code }` as `data`; the plain
 *   object in `ai@6`; Mistral's client reports a `TypeValidationError` instead), the stream continues to `finish`
 *   with `finishReason: 'error'` (Mistral's too since its version 4), and `result.text` RESOLVES to the partial text.
 *   Check `finishReason`, never trust `text` alone.
 * - Aborts and timeouts (`abortSignal`, `timeout: ms | { totalMs, stepMs, chunkMs }`; `chunkMs` is the idle limit
 *   between chunks, i.e. the cure for a stalled stream) end `fullStream` normally with an `abort` part (no `error`
 *   part, no `onError`, `onAbort` is called); `await result.text` rejects with the signal's reason (a DOMException
 *   `TimeoutError` for `AbortSignal.timeout`, `TimeoutError` "Chunk timeout of N ms exceeded" for `chunkMs`). The
 *   HTTP request is really closed.
 * - Transcription: `await transcribe({ model, audio: Uint8Array, providerOptions?, maxRetries,
 *   abortSignal })` → `{ text, language, durationInSeconds, segments }`; it throws (`APICallError`, `RetryError`, or
 *   the abort reason).
 */
import { createMistral } from '@ai-sdk/mistral';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import {
  APICallError,
  embedMany,
  generateText,
  type LanguageModel,
  NoOutputGeneratedError,
  RetryError,
  streamText,
  transcribe,
} from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlm, splitTokens, startFakeLlm } from './fake-llm.ts';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ models: ['gpt-4o-mini', 'mistral-small-latest', 'qwen-plus', 'whisper-1'] });
});
afterAll(() => fake.close());
afterEach(() => fake.reset());

const KEY = 'sk-test-1234';
const providers: Array<{ name: string; model: () => LanguageModel }> = [
  { name: 'openai', model: () => createOpenAI({ baseURL: fake.url, apiKey: KEY }).chat('gpt-4o-mini') },
  { name: 'mistral', model: () => createMistral({ baseURL: fake.url, apiKey: KEY })('mistral-small-latest') },
  {
    name: 'qwen',
    model: () => createOpenAICompatible({ name: 'qwen', baseURL: fake.url, apiKey: KEY })('qwen-plus'),
  },
];

/** Drains `fullStream`, keeping the parts, the text and what the iteration threw. */
async function drain(result: ReturnType<typeof streamText>) {
  const parts: any[] = [];
  let text = '';
  let thrown: unknown;
  try {
    for await (const part of result.fullStream) {
      parts.push(part);
      if (part.type === 'text-delta') text += part.text;
    }
  } catch (error) {
    thrown = error;
  }
  return { parts, types: parts.map((p) => p.type as string), text, thrown };
}

/** The result's `text` promise, settled. */
const settled = (p: PromiseLike<string>) =>
  Promise.resolve(p).then(
    (value) => ({ ok: true as const, value }),
    (error: any) => ({ ok: false as const, error }),
  );

describe.each(providers)('$name chat model through streamText', ({ name, model }) => {
  it('streams the scripted text in chunks, sending the key, the model and the messages', async () => {
    const answer = 'Die Wartung der Anlage erfolgt jährlich, zuletzt im März.';
    fake.setScript({ text: answer, tokensPerChunk: 3 });
    const errors: unknown[] = [];
    const result = streamText({
      model: model(),
      instructions: 'Antworte knapp.',
      prompt: 'Wann wird die Anlage gewartet?',
      maxRetries: 0,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    const { types, parts, text, thrown } = await drain(result);

    expect(thrown).toBeUndefined();
    expect(errors).toEqual([]);
    expect(text).toBe(answer);
    expect(await result.text).toBe(answer);
    expect(types).toEqual([
      'start',
      'start-step',
      'text-start',
      ...Array(Math.ceil(splitTokens(answer).length / 3)).fill('text-delta'),
      'text-end',
      'finish-step',
      'finish',
    ]);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });

    const [request] = fake.requests;
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      route: 'chat',
      dialect: name === 'mistral' ? 'mistral' : 'openai',
      authorization: `Bearer ${KEY}`,
      stream: true,
      clientClosed: false,
    });
    expect(request!.body.messages[0]).toEqual({ role: 'system', content: 'Antworte knapp.' });
    expect(request!.body.model).toBe(
      { openai: 'gpt-4o-mini', mistral: 'mistral-small-latest', qwen: 'qwen-plus' }[name],
    );
    // Only OpenAI's client asks for usage by default; Mistral always sends it; openai-compatible needs includeUsage.
    expect(request!.body.stream_options).toEqual(name === 'openai' ? { include_usage: true } : undefined);
    const usage = await result.totalUsage;
    if (name === 'qwen') expect(usage.outputTokens).toBeUndefined();
    else expect(usage.outputTokens).toBe(splitTokens(answer).length);
  });

  it('lets the script answer from the messages (to assert what the prompt contained)', async () => {
    fake.setScript({
      text: (call) => `Sie fragten: ${call.lastUserMessage} (${call.messages.length} Nachrichten)`,
    });
    const result = streamText({
      model: model(),
      instructions: 'Kontext: Handbuch Seite 4',
      messages: [
        { role: 'user', content: 'Erste Frage' },
        { role: 'assistant', content: 'Erste Antwort' },
        { role: 'user', content: 'Wo steht das?' },
      ],
      maxRetries: 0,
      onError: () => {},
    });
    expect(await result.text).toBe('Sie fragten: Wo steht das? (4 Nachrichten)');
    expect(fake.requests[0]!.body.messages.map((m: any) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
    ]);
  });

  it('answers non-streaming requests (generateText)', async () => {
    fake.setScript({ text: (call) => `Echo: ${call.promptText}` });
    const result = await generateText({ model: model(), prompt: 'Hallo', maxRetries: 0 });
    expect(result.text).toBe('Echo: Hallo');
    expect(result.finishReason).toBe('stop');
    expect(result.usage.outputTokens).toBe(2);
    expect(fake.requests[0]!.stream).toBe(false);
  });

  it('surfaces an HTTP 500 as an error part and onError, not as a throw', async () => {
    fake.setScript({ status: 500, errorMessage: 'The server had an error while processing your request.' });
    const errors: unknown[] = [];
    const result = streamText({
      model: model(),
      prompt: 'x',
      maxRetries: 0,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    const { types, parts, thrown } = await drain(result);
    expect(thrown).toBeUndefined();
    expect(types).toEqual(['start', 'error']);
    const error = parts[1].error;
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      statusCode: 500,
      isRetryable: true,
      message: 'The server had an error while processing your request.',
    });
    expect(errors).toEqual([error]);
    const text = await settled(result.text);
    expect(!text.ok && NoOutputGeneratedError.isInstance(text.error)).toBe(true);
    expect(fake.requests).toHaveLength(1);
  });

  it('surfaces a wrong key as a non-retryable 401', async () => {
    fake.requireApiKey = 'sk-the-right-one';
    const errors: any[] = [];
    const result = streamText({
      model: model(),
      prompt: 'x',
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    await result.consumeStream();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ statusCode: 401, isRetryable: false });
    expect(errors[0].message).toMatch(/Incorrect API key provided/);
    expect(fake.requests).toHaveLength(1); // not retried
  });

  it('throws from the stream iteration when the connection drops mid-stream, after the partial text', async () => {
    fake.setScript({ text: 'eins zwei drei vier fünf', dropAfter: 2 });
    const errors: unknown[] = [];
    const result = streamText({
      model: model(),
      prompt: 'x',
      maxRetries: 0,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    const { text, types, thrown } = await drain(result);
    expect(text).toBe('eins zwei');
    expect(types).not.toContain('error');
    expect(types).not.toContain('finish');
    expect(APICallError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({ message: 'Failed to process successful response', isRetryable: true });
    expect((thrown as APICallError).cause).toMatchObject({ name: 'TypeError', message: 'terminated' });
    expect(errors).toEqual([]);
    const settledText = await settled(result.text);
    expect(settledText.ok).toBe(false);
  });

  it('reports a drop before any text differently per client (OpenAI: error part, after retries)', async () => {
    fake.setScript({ text: 'eins zwei', dropAfter: 0 });
    const errors: unknown[] = [];
    const result = streamText({
      model: model(),
      prompt: 'x',
      maxRetries: 1,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    const { types, thrown } = await drain(result);
    if (name === 'openai') {
      // @ai-sdk/openai reads the stream up to the first output inside the (retried) request.
      expect(thrown).toBeUndefined();
      expect(types).toEqual(['start', 'error']);
      expect(RetryError.isInstance(errors[0])).toBe(true);
      expect(fake.requests).toHaveLength(2);
    } else {
      expect(APICallError.isInstance(thrown)).toBe(true);
      expect(errors).toEqual([]);
      expect(fake.requests).toHaveLength(1);
    }
  });

  it('cuts a request that never answers with the AbortSignal passed', async () => {
    fake.setScript({ hang: true });
    let aborted = false;
    const signal = AbortSignal.timeout(200);
    const result = streamText({
      model: model(),
      prompt: 'x',
      maxRetries: 0,
      abortSignal: signal,
      onError: () => {},
      onAbort: () => {
        aborted = true;
      },
    });
    const { types, thrown } = await drain(result);
    expect(thrown).toBeUndefined();
    expect(types).toEqual(['start', 'abort']);
    expect(aborted).toBe(true);
    const text = await settled(result.text);
    expect(text.ok ? null : text.error).toMatchObject({ name: 'TimeoutError' });
    await expect.poll(() => fake.requests[0]?.clientClosed).toBe(true);
  });

  // The limits leave a loaded machine time for the chunks before the stall: under CI's four parallel passes the
  // first chunk once came after more than 300 ms.
  it('cuts a stalled stream with the chunk timeout, keeping the partial text', async () => {
    fake.setScript({ text: 'eins zwei drei vier', stallAfter: 2 });
    const result = streamText({
      model: model(),
      prompt: 'x',
      maxRetries: 0,
      timeout: { chunkMs: 1000 },
      onError: () => {},
    });
    const { types, text, thrown } = await drain(result);
    expect(thrown).toBeUndefined();
    expect(text).toBe('eins zwei');
    expect(types.at(-1)).toBe('abort');
    const settledText = await settled(result.text);
    expect(settledText.ok ? null : settledText.error).toMatchObject({
      name: 'TimeoutError',
      message: 'Chunk timeout of 1000ms exceeded',
    });
    await expect.poll(() => fake.requests[0]?.clientClosed).toBe(true);
  });

  it('cuts a stalled stream with a total timeout too', async () => {
    fake.setScript({ text: 'eins zwei drei', stallAfter: 1 });
    const result = streamText({
      model: model(),
      prompt: 'x',
      maxRetries: 0,
      timeout: 2000,
      onError: () => {},
    });
    const { types, text } = await drain(result);
    expect(text).toBe('eins');
    expect(types.at(-1)).toBe('abort');
  });

  it('reports an in-stream error frame as an error part, and still finishes', async () => {
    fake.setScript({ text: 'eins zwei drei', streamErrorAfter: 1, errorMessage: 'overloaded' });
    const errors: unknown[] = [];
    const result = streamText({
      model: model(),
      prompt: 'x',
      maxRetries: 0,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    const { types, parts, text, thrown } = await drain(result);
    expect(thrown).toBeUndefined();
    expect(text).toBe('eins');
    expect(types).toContain('error');
    expect(types.at(-1)).toBe('finish');
    expect(errors).toHaveLength(1);
    const error = parts.find((p) => p.type === 'error').error;
    if (name === 'mistral') {
      expect(error).toMatchObject({ name: 'AI_TypeValidationError' });
    } else {
      // ai@7 wraps the frame (a plain object in ai@6) in a StreamProviderError that keeps it as `data`.
      expect(error).toMatchObject({
        name: 'AI_StreamProviderError',
        message: 'overloaded',
        isRetryable: true,
        data: { message: 'overloaded', type: 'server_error', param: null, code: null },
      });
    }
    // Mistral's too since @ai-sdk/mistral 4 (it finished with 'other' before).
    expect(await result.finishReason).toBe('error');
    expect(await result.text).toBe('eins'); // resolves with the partial text!
  });
});

describe('retries', () => {
  const model = () => createOpenAI({ baseURL: fake.url, apiKey: KEY }).chat('gpt-4o-mini');

  it('retries retryable errors maxRetries times (default 2), honouring retry-after-ms', async () => {
    fake.setScript({ text: 'endlich' });
    const tooMany = { status: 429, headers: { 'retry-after-ms': '10' } };
    fake.enqueue(tooMany, tooMany);
    const result = streamText({ model: model(), prompt: 'x', onError: () => {} });
    expect(await result.text).toBe('endlich');
    expect(fake.requests).toHaveLength(3);
  });

  it('reports a RetryError when the retries run out', async () => {
    fake.setScript({ status: 429, headers: { 'retry-after-ms': '10' } });
    const errors: unknown[] = [];
    const result = streamText({
      model: model(),
      prompt: 'x',
      maxRetries: 1,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    await result.consumeStream();
    expect(errors).toHaveLength(1);
    expect(RetryError.isInstance(errors[0])).toBe(true);
    const retryError = errors[0] as RetryError;
    expect(retryError.reason).toBe('maxRetriesExceeded');
    expect(retryError.lastError).toMatchObject({ statusCode: 429 });
    expect(fake.requests).toHaveLength(2);
  });
});

describe('openai-compatible options', () => {
  it('gets streamed usage with includeUsage, and sends no Authorization without a key', async () => {
    fake.setScript({ text: 'drei kleine Wörter' });
    const model = createOpenAICompatible({ name: 'qwen', baseURL: fake.url, includeUsage: true })(
      'qwen-plus',
    );
    const result = streamText({ model, prompt: 'x', maxRetries: 0, onError: () => {} });
    expect(await result.text).toBe('drei kleine Wörter');
    expect((await result.totalUsage).outputTokens).toBe(3);
    expect(fake.requests[0]!.body.stream_options).toEqual({ include_usage: true });
    expect(fake.requests[0]!.authorization).toBeUndefined();
  });

  it('answers in Mistral dialect under /mistral/v1 whatever the client', async () => {
    const model = createMistral({ baseURL: fake.mistralUrl, apiKey: KEY })('mistral-small-latest');
    fake.setScript({ text: 'bonjour' });
    expect(await streamText({ model, prompt: 'x', maxRetries: 0, onError: () => {} }).text).toBe('bonjour');
    expect(fake.requests[0]).toMatchObject({ path: '/mistral/v1/chat/completions', dialect: 'mistral' });
  });
});

describe('transcription through transcribe', () => {
  const model = () => createOpenAI({ baseURL: fake.url, apiKey: KEY }).transcription('whisper-1');
  const audio = new Uint8Array([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x41, 0x56, 0x45, 1, 2, 3, 4]); // "RIFF....WAVE"

  it('returns the scripted transcript, sending the file and the model as multipart', async () => {
    fake.setScript({ transcript: 'Bitte die Filter prüfen.' });
    const result = await transcribe({ model: model(), audio, maxRetries: 0 });
    expect(result.text).toBe('Bitte die Filter prüfen.');
    expect(result.language).toBe('en'); // whisper-1 is asked for verbose_json, which names the language
    const [request] = fake.requests;
    expect(request).toMatchObject({
      path: '/v1/audio/transcriptions',
      route: 'transcriptions',
      authorization: `Bearer ${KEY}`,
      body: { model: 'whisper-1' },
      files: [{ field: 'file', filename: 'audio.wav', type: 'audio/wav', size: audio.length }],
    });
  });

  it('sends language and gets verbose_json with providerOptions.openai', async () => {
    fake.setScript({
      transcript: (call) => `Sprache ${call.language}, Format ${call.responseFormat}`,
      audioSeconds: 3,
    });
    const result = await transcribe({
      model: model(),
      audio,
      providerOptions: { openai: { language: 'de' } },
      maxRetries: 0,
    });
    expect(result.text).toBe('Sprache de, Format verbose_json');
    expect(result.language).toBe('de');
    expect(result.durationInSeconds).toBe(3);
    expect(result.segments).toEqual([
      { text: ' Sprache de, Format verbose_json', startSecond: 0, endSecond: 3 },
    ]);
    expect(fake.requests[0]!.body).toMatchObject({ language: 'de', response_format: 'verbose_json' });
  });

  it('transcribes uploaded text bytes by default (so a test can "speak")', async () => {
    const result = await transcribe({
      model: model(),
      audio: new TextEncoder().encode('Hallo Werkwissen'),
      maxRetries: 0,
    });
    expect(result.text).toBe('Hallo Werkwissen');
  });

  it('throws an APICallError on an HTTP error, and the abort reason when cut', async () => {
    fake.setScript({ status: 500 });
    await expect(transcribe({ model: model(), audio, maxRetries: 0 })).rejects.toSatisfy(
      (e) => APICallError.isInstance(e) && e.statusCode === 500,
    );
    fake.setScript({ hang: true });
    await expect(
      transcribe({
        model: model(),
        audio,
        maxRetries: 0,
        abortSignal: AbortSignal.timeout(200),
      }),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});

describe('models, embeddings and authorization', () => {
  it('lists models in the OpenAI list shape (and Mistral owner under /mistral/v1)', async () => {
    const res = await fetch(`${fake.url}/models`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(200);
    const list = (await res.json()) as any;
    expect(list.object).toBe('list');
    expect(list.data[0]).toEqual({
      id: 'gpt-4o-mini',
      object: 'model',
      created: expect.any(Number),
      owned_by: 'openai',
    });
    expect(list.data.map((m: any) => m.id)).toContain('whisper-1');
    const mistral = (await (await fetch(`${fake.mistralUrl}/models`)).json()) as any;
    expect(mistral.data[0].owned_by).toBe('mistralai');
    expect(fake.requests.map((r) => [r.route, r.authorization])).toEqual([
      ['models', `Bearer ${KEY}`],
      ['models', undefined],
    ]);
  });

  it('answers 401 with the OpenAI error JSON when a key is required and missing or wrong', async () => {
    fake.requireApiKey = KEY;
    const wrong = await fetch(`${fake.url}/models`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({
      error: {
        message: expect.stringMatching(/Incorrect API key/),
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
    expect((await fetch(`${fake.url}/models`)).status).toBe(401);
    expect((await fetch(`${fake.url}/models`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(
      200,
    );
  });

  it('still serves embeddings (also to the SDK)', async () => {
    const { embeddings } = await embedMany({
      model: createOpenAI({ baseURL: fake.url, apiKey: KEY }).embedding('text-embedding-3-small'),
      values: ['Wartung', 'Filter'],
      maxRetries: 0,
    });
    expect(embeddings).toHaveLength(2);
    expect(embeddings[0]).toHaveLength(16);
  });
});

describe('load and shutdown', () => {
  it('serves 60 concurrent streams', async () => {
    fake.setScript({
      text: (call) => `Antwort für ${call.lastUserMessage} mit einigen Wörtern`,
      chunkDelayMs: 5,
    });
    const model = createOpenAI({ baseURL: fake.url, apiKey: KEY }).chat('gpt-4o-mini');
    const texts = await Promise.all(
      Array.from(
        { length: 60 },
        (_, i) => streamText({ model, prompt: `Frage ${i}`, maxRetries: 0, onError: () => {} }).text,
      ),
    );
    expect(texts).toEqual(Array.from({ length: 60 }, (_, i) => `Antwort für Frage ${i} mit einigen Wörtern`));
    expect(fake.requests).toHaveLength(60);
  });

  it('closes promptly, destroying hung and stalled connections', async () => {
    const own = await startFakeLlm();
    own.enqueue({ hang: true }, { hang: true }, { text: 'a b c', stallAfter: 1 });
    const model = createOpenAI({ baseURL: own.url, apiKey: KEY }).chat('gpt-4o-mini');
    const runs = [0, 1, 2].map(() =>
      drain(streamText({ model, prompt: 'x', maxRetries: 0, onError: () => {} })),
    );
    await own.waitForRequests(3, 'chat');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(1_000);
    const outcomes = await Promise.all(runs);
    // Each client sees its request fail (an error part when no body had started, a throw mid-body).
    for (const outcome of outcomes)
      expect(outcome.thrown !== undefined || outcome.types.includes('error')).toBe(true);
    expect(outcomes[2]!.text).toBe('a');
  });
});
