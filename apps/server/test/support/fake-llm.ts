/**
 * A local HTTP test double of the language-model services the product talks to (OpenAI, Mistral, and any
 * OpenAI-compatible endpoint such as Qwen/DashScope), speaking their documented wire protocols so that the real
 * AI SDK clients (`@ai-sdk/openai`, `@ai-sdk/mistral`, `@ai-sdk/openai-compatible`) can be driven against it in
 * tests and benchmarks without the internet. `fake-llm.test.ts` checks it against those clients.
 *
 * Routes (under `/v1`, and the same under `/mistral/v1`, which always answers in Mistral's dialect):
 * - `POST /chat/completions`: non-streaming (`chat.completion`) and `stream: true` (SSE `data: {chat.completion.chunk}`
 *   lines: a role preamble chunk `delta: {role: 'assistant', content: ''}`, one chunk per `tokensPerChunk` tokens
 *   with `choices[0].delta.content`, a final chunk with `finish_reason`, then `data: [DONE]`). OpenAI dialect: when
 *   `stream_options.include_usage` is sent, every chunk carries `usage: null` and a last chunk with `choices: []`
 *   and the usage follows the finish chunk. Mistral dialect: the usage rides on the finish chunk (Mistral always
 *   sends it; `@ai-sdk/mistral` reads `choices[0].delta` of every chunk and would crash on `choices: []`).
 * - `POST /embeddings` → `{ object: 'list', data: [{ object: 'embedding', index, embedding }], model, usage }` with
 *   meaningful vectors (the builtin hashed-feature embedder), answered out of order to check that clients sort.
 * - `GET /models` (and `GET /models/:id`) → `{ object: 'list', data: [{ id, object: 'model', created, owned_by }] }`.
 * - `POST /audio/transcriptions` (multipart: `file`, `model`, optional `language`, `prompt`, `response_format`,
 *   `temperature`, `timestamp_granularities[]`) → `{ text }` for `json` (the default), Whisper's `verbose_json`
 *   (`task`, `language` as an English name, `duration`, `segments`, optionally `words`), or plain `text`/`srt`/`vtt`.
 *
 * Errors are answered with the dialect's error JSON: OpenAI `{ error: { message, type, param, code } }`, Mistral
 * `{ object: 'error', message, type, param, code }` (the shapes the SDKs' `failedResponseHandler`s parse).
 *
 * The dialect of a `/v1` request is `options.dialect`; with `'auto'` (the default) it is Mistral's when the
 * User-Agent names `ai-sdk-mistral` (what `createMistral` sends; `ai-sdk/mistral` before its version 4), else
 * OpenAI's. `/mistral/v1` forces Mistral's.
 *
 * Behaviour is scripted per test (`setScript`, or `enqueue` for one-shot scripts consumed by the next chat or
 * transcription requests in order): the answer (text, or a function of the request's messages), chunking, delays,
 * and failure modes (`status`, `hang`, `stallAfter`, `dropAfter`, `streamErrorAfter`). Every request is recorded.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { BuiltinEmbedder } from '../../src/modules/embedding/builtin-embedder.ts';

export type FakeLlmDialect = 'openai' | 'mistral';
export type FakeLlmRoute = 'chat' | 'embeddings' | 'models' | 'transcriptions' | 'unknown';

/** A chat message with its content flattened to text (OpenAI sends strings or parts, Mistral sends parts). */
export interface FakeChatMessage {
  role: string;
  content: string;
}

/** What an answer function sees of a chat completion request. */
export interface FakeChatCall {
  model: string;
  dialect: FakeLlmDialect;
  messages: FakeChatMessage[];
  /** The text of the last user message ('' if none). */
  lastUserMessage: string;
  /** All message texts joined by newlines: handy to assert on (or echo) what the prompt contained. */
  promptText: string;
  stream: boolean;
  body: any;
}

/** What a transcript function sees of a transcription request. */
export interface FakeTranscriptionCall {
  model: string;
  language: string | undefined;
  responseFormat: string;
  fields: Record<string, string>;
  filename: string;
  mediaType: string;
  audio: Buffer;
}

export interface FakeLlmScript {
  /** The answer text, or a function of the request. Default: `You said: <last user message>`. */
  text?: string | ((call: FakeChatCall) => string);
  /** Tokens (whitespace-led words, see `splitTokens`) per streamed content chunk. Default 1. */
  tokensPerChunk?: number;
  /** Delay before the first content chunk (time to first token). Default 0. */
  firstChunkDelayMs?: number;
  /** Delay between content chunks (and before the finish chunk). Default 0. */
  chunkDelayMs?: number;
  /** `finish_reason` of the answer. Default `'stop'`. */
  finishReason?: string;
  /** Answer with this HTTP status and the dialect's error JSON instead. */
  status?: number;
  /** The message of that error. */
  errorMessage?: string;
  /** Accept the request (read its body) and never send a byte, not even headers. */
  hang?: boolean;
  /**
   * Send the headers, the role preamble and this many content chunks, then nothing while keeping the socket open
   * (non-streaming: the headers and half of the JSON body).
   */
  stallAfter?: number;
  /**
   * Like `stallAfter`, but then destroy the socket (the client sees a truncated body), ~30 ms (or `chunkDelayMs`)
   * after the last chunk so that the client has read it (an errored WHATWG stream drops what it had queued).
   */
  dropAfter?: number;
  /** After this many content chunks, send an in-stream error frame `data: {"error": {...}}` and end the stream. */
  streamErrorAfter?: number;
  /** The transcript of `POST /audio/transcriptions`. Default: the audio bytes if they are UTF-8 text, else
   * `'fake transcript'` (so that a test can "speak" by uploading text). */
  transcript?: string | ((call: FakeTranscriptionCall) => string);
  /** `duration` of a `verbose_json` transcription, in seconds. Default 1. */
  audioSeconds?: number;
  /** Extra response headers (e.g. `retry-after-ms` with a 429). */
  headers?: Record<string, string>;
}

export interface FakeLlmRequest {
  method: string;
  /** The request path with its query, e.g. `/v1/chat/completions`. */
  path: string;
  route: FakeLlmRoute;
  dialect: FakeLlmDialect;
  headers: IncomingHttpHeaders;
  authorization: string | undefined;
  /** The parsed JSON body, the multipart text fields, or null. */
  body: any;
  /** Multipart files (metadata only). */
  files: Array<{ field: string; filename: string; type: string; size: number }>;
  /** Whether a chat completion asked for `stream: true`. */
  stream: boolean;
  /** Set when the client closed the connection before the answer was complete (abort, timeout, …). */
  clientClosed: boolean;
  /** The number of content chunks sent (streaming chat). */
  chunksSent: number;
}

export interface FakeLlmOptions {
  /** Dimension of the embeddings. Default 16. */
  embeddingDimension?: number;
  /** The ids `GET /models` lists. */
  models?: string[];
  dialect?: FakeLlmDialect | 'auto';
  /** The default script (see `setScript`). */
  script?: FakeLlmScript;
  /** Require `Authorization: Bearer <key>` on every route (else 401). */
  requireApiKey?: string | null;
}

export interface FakeLlm {
  /** `http://127.0.0.1:<port>/v1`: the base URL for OpenAI, OpenAI-compatible providers, and Mistral too. */
  url: string;
  /** `http://127.0.0.1:<port>/mistral/v1`: a base URL that always answers in Mistral's dialect. */
  mistralUrl: string;
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Every request, in arrival order. */
  requests: FakeLlmRequest[];
  /** Legacy switch: answer every route (embeddings too) with this status and a generic server error. */
  failWith: number | null;
  /** Require `Authorization: Bearer <key>` (else 401 with the provider's error JSON); null to accept anything. */
  requireApiKey: string | null;
  /** The ids `GET /models` lists. */
  models: string[];
  /** The default script for chat and transcription requests (replaces the previous one). */
  setScript(script: FakeLlmScript): void;
  /** One-shot scripts, consumed in order by the next chat/transcription requests before the default script. */
  enqueue(...scripts: FakeLlmScript[]): void;
  /** Forget requests, scripts, failWith and requireApiKey (back to the options given at start). */
  reset(): void;
  /** Resolves when at least `count` requests (optionally of one route) have arrived. */
  waitForRequests(count: number, route?: FakeLlmRoute, timeoutMs?: number): Promise<FakeLlmRequest[]>;
  /** Close the server, destroying open sockets (hung and stalled streams included). */
  close(): Promise<void>;
}

const DEFAULT_MODELS = ['gpt-4o-mini', 'whisper-1', 'text-embedding-3-small'];

/** Whitespace-led words: `'Hallo Welt!'` → `['Hallo', ' Welt!']`; joining the tokens gives the text back. */
export function splitTokens(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

/** The text of an OpenAI/Mistral message content (a string, or parts of which the text parts count). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((p) => (p && typeof p === 'object' && typeof p.text === 'string' ? p.text : ''))
      .join('');
  }
  return '';
}

const ERROR_TYPES: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { type: 'permission_error', code: 'unsupported_country_region_territory' },
  404: { type: 'invalid_request_error', code: 'model_not_found' },
  408: { type: 'timeout', code: null },
  413: { type: 'invalid_request_error', code: 'request_too_large' },
  422: { type: 'invalid_request_error', code: null },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
  502: { type: 'server_error', code: null },
  503: { type: 'server_error', code: 'service_unavailable' },
};

function errorBody(dialect: FakeLlmDialect, status: number, message: string, type?: string) {
  const known = ERROR_TYPES[status] ?? {
    type: status >= 500 ? 'server_error' : 'invalid_request_error',
    code: null,
  };
  if (dialect === 'mistral') {
    return { object: 'error', message, type: type ?? known.type, param: null, code: String(status) };
  }
  return { error: { message, type: type ?? known.type, param: null, code: known.code } };
}

const LANGUAGE_NAMES: Record<string, string> = {
  de: 'german',
  en: 'english',
  fr: 'french',
  it: 'italian',
  es: 'spanish',
  nl: 'dutch',
  pl: 'polish',
  tr: 'turkish',
  uk: 'ukrainian',
  ru: 'russian',
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Decodes bytes as text if they are valid UTF-8 without control characters (other than whitespace). */
function asText(bytes: Buffer): string | null {
  if (bytes.length === 0 || bytes.length > 10_000) return null;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: detecting binary data is the point
    return /[\u0000-\u0008\u000e-\u001f]/.test(text) ? null : text.trim();
  } catch {
    return null;
  }
}

function srtTime(seconds: number, sep: string): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${sep}${pad(ms % 1000, 3)}`;
}

/**
 * Starts the fake on 127.0.0.1 at a free port. It serves any number of concurrent streams (it only writes small
 * SSE frames, honouring back-pressure); `close()` destroys open sockets, hung ones included.
 */
export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const embedder = new BuiltinEmbedder(options.embeddingDimension ?? 16);
  const sockets = new Set<Socket>();
  const waiters = new Set<() => void>();
  let defaultScript: FakeLlmScript = options.script ?? {};
  let queue: FakeLlmScript[] = [];
  let sequence = 0;

  const fake: FakeLlm = {
    url: '',
    mistralUrl: '',
    origin: '',
    requests: [],
    failWith: null,
    requireApiKey: options.requireApiKey ?? null,
    models: options.models ?? [...DEFAULT_MODELS],
    setScript(script) {
      defaultScript = script;
    },
    enqueue(...scripts) {
      queue.push(...scripts);
    },
    reset() {
      fake.requests.length = 0;
      queue = [];
      defaultScript = options.script ?? {};
      fake.failWith = null;
      fake.requireApiKey = options.requireApiKey ?? null;
    },
    waitForRequests(count, route, timeoutMs = 5_000) {
      const matching = () => fake.requests.filter((r) => route === undefined || r.route === route);
      return new Promise((resolve, reject) => {
        if (matching().length >= count) return resolve(matching());
        const check = () => {
          if (matching().length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(matching());
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `fake LLM: ${matching().length}/${count} ${route ?? ''} requests after ${timeoutMs} ms`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
      });
    },
    close: async () => {},
  };

  const nextScript = (): FakeLlmScript => queue.shift() ?? defaultScript;

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent && !res.destroyed) {
        res.statusCode = 500;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(errorBody('openai', 500, `fake LLM crashed: ${String(error)}`)));
      } else {
        res.destroy();
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://fake');
    const match = /^\/(mistral\/)?v1(\/.*)$/.exec(url.pathname);
    const sub = match?.[2] ?? url.pathname;
    const userAgent = String(req.headers['user-agent'] ?? '');
    const dialect: FakeLlmDialect =
      match?.[1] || (options.dialect ?? 'auto') === 'mistral'
        ? 'mistral'
        : options.dialect === 'openai'
          ? 'openai'
          : /ai-sdk[/-]mistral/.test(userAgent)
            ? 'mistral'
            : 'openai';
    const method = req.method ?? 'GET';
    const route: FakeLlmRoute = !match
      ? 'unknown'
      : method === 'POST' && sub === '/chat/completions'
        ? 'chat'
        : method === 'POST' && sub === '/embeddings'
          ? 'embeddings'
          : method === 'GET' && (sub === '/models' || sub.startsWith('/models/'))
            ? 'models'
            : method === 'POST' && sub === '/audio/transcriptions'
              ? 'transcriptions'
              : 'unknown';

    // The body: JSON, or multipart fields (text) and files (kept for the transcript function, recorded as metadata).
    const contentType = String(req.headers['content-type'] ?? '');
    let body: any = null;
    const files: FakeLlmRequest['files'] = [];
    const fileData: Array<{ field: string; filename: string; type: string; bytes: Buffer }> = [];
    let badBody: string | null = null;
    if (contentType.startsWith('multipart/form-data')) {
      try {
        const form = await new Response(new Uint8Array(raw), {
          headers: { 'content-type': contentType },
        }).formData();
        body = {};
        for (const [field, value] of form.entries()) {
          if (typeof value === 'string') {
            if (!field.endsWith('[]')) body[field] = value;
            else body[field] = [...(body[field] ?? []), value];
          } else {
            const blob = value as Blob & { name?: string };
            const bytes = Buffer.from(await blob.arrayBuffer());
            const file = { field, filename: blob.name ?? 'blob', type: blob.type, size: bytes.length };
            files.push(file);
            fileData.push({ ...file, bytes });
          }
        }
      } catch (error) {
        badBody = `could not parse multipart body: ${String(error)}`;
      }
    } else if (raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        badBody = 'We could not parse the JSON body of your request.';
      }
    }

    const record: FakeLlmRequest = {
      method,
      path: req.url ?? '',
      route,
      dialect,
      headers: req.headers,
      authorization: req.headers.authorization,
      body,
      files,
      stream: route === 'chat' && body?.stream === true,
      clientClosed: false,
      chunksSent: 0,
    };
    fake.requests.push(record);
    for (const waiter of [...waiters]) waiter();

    let finished = false;
    res.on('close', () => {
      if (!finished && !res.writableFinished) record.clientClosed = true;
    });

    const sendJson = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      finished = true;
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(value));
    };
    const sendError = (
      status: number,
      message: string,
      headers: Record<string, string> = {},
      type?: string,
    ) => sendJson(status, errorBody(dialect, status, message, type), headers);

    if (fake.failWith) {
      // Kept as the embeddings tests know it.
      sendJson(fake.failWith, { error: { message: 'fake failure', type: 'server_error' } });
      return;
    }
    if (fake.requireApiKey != null && record.authorization !== `Bearer ${fake.requireApiKey}`) {
      const presented = record.authorization?.replace(/^Bearer\s+/i, '');
      sendError(
        401,
        presented
          ? `Incorrect API key provided: ${presented.slice(0, 3)}***${presented.slice(-4)}.`
          : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
      );
      return;
    }
    if (badBody) {
      sendError(400, badBody);
      return;
    }

    switch (route) {
      case 'embeddings': {
        const inputs: string[] = Array.isArray(body?.input) ? body.input : [body?.input];
        const vectors = inputs.map((t) => embedder.embedOne(String(t)));
        sendJson(200, {
          object: 'list',
          model: body?.model,
          data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })).reverse(),
          usage: { prompt_tokens: 1, total_tokens: 1 },
        });
        return;
      }
      case 'models': {
        const owner = dialect === 'mistral' ? 'mistralai' : 'openai';
        const entry = (id: string) => ({ id, object: 'model', created: 1_700_000_000, owned_by: owner });
        if (sub === '/models') {
          sendJson(200, { object: 'list', data: fake.models.map(entry) });
        } else {
          const id = decodeURIComponent(sub.slice('/models/'.length));
          if (fake.models.includes(id)) sendJson(200, entry(id));
          else sendError(404, `The model '${id}' does not exist`);
        }
        return;
      }
      case 'chat':
        return chat(nextScript());
      case 'transcriptions':
        return transcription(nextScript());
      default:
        sendError(404, `Unknown request URL: ${method} ${url.pathname}.`);
        return;
    }

    /** Applies `status`, `hang`; true if the request was answered (or deliberately never will be). */
    function failure(script: FakeLlmScript): boolean {
      if (script.hang) {
        finished = false;
        return true;
      }
      if (script.status) {
        sendError(script.status, script.errorMessage ?? `fake error ${script.status}`, script.headers);
        return true;
      }
      return false;
    }

    /** Sends the head and part of a non-streaming body, then stalls or drops, per the script. */
    function truncated(script: FakeLlmScript, status: number, type: string, payload: string): boolean {
      if (script.stallAfter === undefined && script.dropAfter === undefined) return false;
      res.writeHead(status, {
        'content-type': type,
        'content-length': Buffer.byteLength(payload),
        ...script.headers,
      });
      res.write(payload.slice(0, Math.floor(payload.length / 2)));
      if (
        script.dropAfter !== undefined &&
        (script.stallAfter === undefined || script.dropAfter <= script.stallAfter)
      ) {
        finished = true;
        setTimeout(() => res.destroy(), 30).unref();
      }
      return true;
    }

    async function chat(script: FakeLlmScript) {
      if (failure(script)) return;
      const messages: FakeChatMessage[] = (Array.isArray(body?.messages) ? body.messages : []).map(
        (m: any) => ({
          role: String(m?.role ?? ''),
          content: contentText(m?.content),
        }),
      );
      const lastUserMessage = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      const model = String(body?.model ?? 'unknown');
      const call: FakeChatCall = {
        model,
        dialect,
        messages,
        lastUserMessage,
        promptText: messages.map((m) => m.content).join('\n'),
        stream: record.stream,
        body,
      };
      const text =
        typeof script.text === 'function'
          ? script.text(call)
          : (script.text ?? `You said: ${lastUserMessage}`);
      const tokens = splitTokens(text);
      const usage = {
        prompt_tokens: splitTokens(call.promptText).length,
        completion_tokens: tokens.length,
        total_tokens: splitTokens(call.promptText).length + tokens.length,
      };
      const id = `${dialect === 'mistral' ? '' : 'chatcmpl-'}fake${++sequence}`;
      const created = Math.floor(Date.now() / 1000);
      const finishReason = script.finishReason ?? 'stop';

      if (!record.stream) {
        const message =
          dialect === 'mistral'
            ? { role: 'assistant', content: text, tool_calls: null }
            : { role: 'assistant', content: text, refusal: null, annotations: [] };
        const completion = {
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [
            {
              index: 0,
              message,
              ...(dialect === 'openai' ? { logprobs: null } : {}),
              finish_reason: finishReason,
            },
          ],
          usage,
          ...(dialect === 'openai' ? { system_fingerprint: 'fp_fake' } : {}),
        };
        const payload = JSON.stringify(completion);
        if (truncated(script, 200, 'application/json', payload)) return;
        if (script.firstChunkDelayMs) await sleep(script.firstChunkDelayMs);
        sendJson(200, completion, script.headers);
        return;
      }

      const includeUsage = dialect === 'openai' && body?.stream_options?.include_usage === true;
      const chunk = (
        delta: Record<string, unknown>,
        finish: string | null,
        extra: Record<string, unknown> = {},
      ) =>
        dialect === 'mistral'
          ? {
              id,
              object: 'chat.completion.chunk',
              created,
              model,
              choices: [{ index: 0, delta, finish_reason: finish }],
              ...extra,
            }
          : {
              id,
              object: 'chat.completion.chunk',
              created,
              model,
              system_fingerprint: 'fp_fake',
              choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
              ...(includeUsage ? { usage: null } : {}),
              ...extra,
            };
      const alive = () => !res.destroyed && !res.writableEnded;
      const send = async (value: unknown) => {
        if (!alive()) return;
        if (!res.write(`data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`)) {
          await new Promise<void>((resolve) => {
            const done = () => {
              res.off('drain', done);
              res.off('close', done);
              resolve();
            };
            res.on('drain', done);
            res.on('close', done);
          });
        }
      };

      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
        ...script.headers,
      });
      res.flushHeaders();
      await send(
        chunk(
          dialect === 'mistral'
            ? { role: 'assistant', content: '' }
            : { role: 'assistant', content: '', refusal: null },
          null,
        ),
      );

      const perChunk = Math.max(1, script.tokensPerChunk ?? 1);
      const pieces: string[] = [];
      for (let i = 0; i < tokens.length; i += perChunk) pieces.push(tokens.slice(i, i + perChunk).join(''));
      // The socket is destroyed a little after the last chunk: a client whose body stream errors discards what it
      // has received but not yet read (WHATWG streams drop their queue on error), which a real network rarely does.
      const drop = () => {
        finished = true;
        setTimeout(() => res.destroy(), Math.max(script.chunkDelayMs ?? 0, 30)).unref();
      };
      const stopsAfter = (n: number) => {
        if (script.dropAfter === n) {
          drop();
          return true;
        }
        if (script.stallAfter === n) return true; // keep the socket open, send nothing more
        return false;
      };
      const erroredAfter = async (n: number) => {
        if (script.streamErrorAfter !== n) return false;
        await send(
          errorBody(
            dialect,
            500,
            script.errorMessage ?? 'The server had an error while processing your request.',
          ),
        );
        finished = true;
        res.end();
        return true;
      };

      if (stopsAfter(0) || (await erroredAfter(0))) return;
      for (let i = 0; i < pieces.length; i++) {
        const delay = i === 0 ? script.firstChunkDelayMs : script.chunkDelayMs;
        if (delay) await sleep(delay);
        if (!alive()) return;
        await send(chunk({ content: pieces[i] }, null));
        record.chunksSent = i + 1;
        if (stopsAfter(i + 1) || (await erroredAfter(i + 1))) return;
      }
      if (script.stallAfter !== undefined || script.dropAfter !== undefined) {
        // Asked to stop after more chunks than the answer has: stop before the finish chunk.
        if (script.dropAfter !== undefined) drop();
        return;
      }
      if (script.chunkDelayMs) await sleep(script.chunkDelayMs);
      if (dialect === 'mistral') {
        await send(chunk({ content: '' }, finishReason, { usage }));
      } else {
        await send(chunk({}, finishReason));
        if (includeUsage) await send(chunk({}, null, { choices: [], usage }));
      }
      await send('[DONE]');
      finished = true;
      if (alive()) res.end();
    }

    async function transcription(script: FakeLlmScript) {
      if (failure(script)) return;
      const file = fileData.find((f) => f.field === 'file');
      if (!file) {
        sendError(
          400,
          '1 validation error for Request body -> file field required (type=value_error.missing)',
        );
        return;
      }
      const fields: Record<string, string> = {};
      for (const [k, v] of Object.entries(body ?? {})) if (typeof v === 'string') fields[k] = v;
      const call: FakeTranscriptionCall = {
        model: fields.model ?? '',
        language: fields.language,
        responseFormat: fields.response_format ?? 'json',
        fields,
        filename: file.filename,
        mediaType: file.type,
        audio: file.bytes,
      };
      const text =
        typeof script.transcript === 'function'
          ? script.transcript(call)
          : (script.transcript ?? asText(file.bytes) ?? 'fake transcript');
      const duration = script.audioSeconds ?? 1;
      let type = 'application/json';
      let payload: string;
      switch (call.responseFormat) {
        case 'text':
          type = 'text/plain; charset=utf-8';
          payload = `${text}\n`;
          break;
        case 'srt':
          type = 'text/plain; charset=utf-8';
          payload = `1\n${srtTime(0, ',')} --> ${srtTime(duration, ',')}\n${text}\n\n`;
          break;
        case 'vtt':
          type = 'text/plain; charset=utf-8';
          payload = `WEBVTT\n\n${srtTime(0, '.')} --> ${srtTime(duration, '.')}\n${text}\n\n`;
          break;
        case 'verbose_json': {
          const words = splitTokens(text).map((w, i, all) => ({
            word: w.trim(),
            start: (duration * i) / all.length,
            end: (duration * (i + 1)) / all.length,
          }));
          payload = JSON.stringify({
            task: 'transcribe',
            language: LANGUAGE_NAMES[call.language ?? ''] ?? call.language ?? 'english',
            duration,
            text,
            segments: [
              {
                id: 0,
                seek: 0,
                start: 0,
                end: duration,
                text: ` ${text}`,
                tokens: words.map((_, i) => 50_364 + i),
                temperature: 0,
                avg_logprob: -0.2,
                compression_ratio: 1.1,
                no_speech_prob: 0.01,
              },
            ],
            ...(body?.['timestamp_granularities[]']?.includes('word') ? { words } : {}),
          });
          break;
        }
        default:
          payload = JSON.stringify({ text });
      }
      if (truncated(script, 200, type, payload)) return;
      if (script.firstChunkDelayMs) await sleep(script.firstChunkDelayMs);
      finished = true;
      res.writeHead(200, { 'content-type': type, ...script.headers });
      res.end(payload);
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.url = `${fake.origin}/v1`;
  fake.mistralUrl = `${fake.origin}/mistral/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
    });
  return fake;
}
