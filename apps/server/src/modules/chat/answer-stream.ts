import type {
  AnswerProvider,
  ChatMessage,
  ChatStreamEvent,
  ErrorCode,
  Language,
  SearchHit,
} from '@werkwissen/shared';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../core/app-error.ts';
import type { StoredCitation } from '../../db/schema/index.ts';
import { SERVER_STOPPING } from '../../http/open-streams.ts';
import { translate } from '../../i18n/translator.ts';
import { connectionOf } from '../ai-providers/ai-providers.service.ts';
import { languageModelOf, type ProviderConnection, providerErrorCode } from '../ai-providers/model-client.ts';
import { assertMayAsk, takeLimitSlot } from '../billing/limit-slot.ts';
import { translateQuestion, translationDeps } from '../search/query-translation/translate-question.ts';
import type { QueryTranslation } from '../search/query-translation/translation.ts';
import { rerankHits } from '../search/reranker.ts';
import { type ScopeLanguage, scopeLanguages } from '../search/scope-languages.ts';
import { type SearchScope, scopeKey } from '../search/search-scope.ts';
import {
  type AnswerOptions,
  answerExtractively,
  contentStems,
  MIN_CONFIDENCE,
  scoreUnits,
} from './builtin-answerer.ts';
import {
  type AnswerRow,
  deleteMessage,
  finishAnswer,
  insertAnswer,
  questionOfAnswer,
  turnsBefore,
} from './chat-messages.queries.ts';
import type { ChatRecord } from './chats.queries.ts';
import { isModelProvider } from './chats.service.ts';
import { searchByEvidence } from './evidence-order.ts';
import { presentMessage } from './messages.service.ts';
import { buildPrompt, citedNumbers, NOT_IN_DOCUMENTS, type Turn } from './prompt.ts';
import { questionLanguage } from './question-language.ts';
import { wordRarity } from './word-rarity.ts';

/** A question with at most this many content words is read together with the previous one (a follow-up). */
const FOLLOW_UP_WORDS = 4;
/** The built-in answerer streams its answer in pieces of this many words. */
const WORDS_PER_TOKEN = 4;

export interface AskRequest {
  chat: ChatRecord;
  threadId: string;
  scope: SearchScope;
  /** The asker's interface language, used when the question's own cannot be told. */
  language: Language;
  /**
   * A new question, or the id of an answer to write again (regenerate). A caller that keeps the conversation itself
   * (the OpenAI-compatible API: every request carries it) gives its earlier turns; otherwise they are the thread's.
   */
  ask: { question: string; history?: Turn[] } | { regenerate: string };
  /** A visitor of a public chat (the answer speaks of "the documents", not "your documents"). */
  visitor?: boolean;
}

interface Prepared {
  /** The stored question being answered again; null for a new question, stored with its answer row. */
  questionId: string | null;
  /** Whether the plan caps questions per month: a new question then takes its slot as it is stored. */
  capped: boolean;
  question: string;
  history: Turn[];
  connection: ProviderConnection | null;
  provider: AnswerProvider;
  /** The scope's published files by language: read once for the ready-file check, translation and word rarity. */
  languages: ScopeLanguage[];
}

/**
 * Checks everything that can fail before the stream opens, so that those failures are ordinary JSON errors. The
 * plan, the scope and a new question's history are read side by side (three round trips at once, not in turn; the
 * plan and the scope's languages mostly none, kept in `ctx.questionState`); an answer to write again is removed
 * only once the checks passed.
 */
async function prepare(ctx: AppContext, req: AskRequest): Promise<Prepared> {
  const ask = req.ask;
  const [capped, languages, turns] = await Promise.all([
    assertMayAsk(ctx, req.chat.companyId, req.language),
    ctx.questionState.get(`scope\u0000${scopeKey(req.scope)}`, () => scopeLanguages(ctx.db, req.scope)),
    'question' in ask && !ask.history ? turnsBefore(ctx.db, req.threadId, null) : undefined,
  ]);
  if (languages.length === 0) throw new AppError('CHAT_NO_READY_FILE');
  const provider = req.chat.provider;
  const stored = isModelProvider(provider) ? req.chat.providerSettings : null;
  const connection = stored ? connectionOf(ctx, stored) : null;
  if (isModelProvider(provider) && !connection) throw new AppError('PROVIDER_NOT_CONFIGURED');
  if ('regenerate' in req.ask) {
    const question = await questionOfAnswer(ctx.db, req.threadId, req.ask.regenerate);
    if (!question) throw new AppError('NOT_FOUND');
    await deleteMessage(ctx.db, req.ask.regenerate);
    return {
      questionId: question.id,
      capped,
      question: question.content,
      history: await turnsBefore(ctx.db, req.threadId, question.id),
      connection,
      provider,
      languages,
    };
  }
  const history = req.ask.history ?? turns ?? [];
  return { questionId: null, capped, question: req.ask.question, history, connection, provider, languages };
}

/**
 * Stores the answer row, in the state `streaming`, and a new question with it in the same statement (both then
 * share their created_at; readers order a question before its answer by role). Under a monthly cap a new question
 * takes its slot in the same transaction, so that parallel questions never pass the cap.
 */
async function insertAnswerRow(
  ctx: AppContext,
  req: AskRequest,
  prepared: Prepared,
  language: Language,
): Promise<{ messageId: string; questionId: string }> {
  const row: AnswerRow = {
    chat: req.chat,
    threadId: req.threadId,
    provider: prepared.provider,
    model: prepared.connection?.model ?? null,
    language,
  };
  const question = prepared.questionId ? { id: prepared.questionId } : { text: prepared.question };
  if (!prepared.capped || prepared.questionId) return insertAnswer(ctx.db, row, question);
  return ctx.db.transaction(async (tx) => {
    await takeLimitSlot(ctx, tx, {
      companyId: req.chat.companyId,
      limit: 'questionsPerMonth',
      language: req.language,
    });
    return insertAnswer(tx, row, question);
  });
}

/** The retrieval query: a short follow-up is read together with the previous question. */
function retrievalContext(question: string, history: Turn[]): string | undefined {
  if (contentStems(question).length > FOLLOW_UP_WORDS) return undefined;
  return [...history].reverse().find((t) => t.role === 'user')?.content;
}

function toStored(hit: SearchHit, n: number): StoredCitation {
  return {
    n,
    passageId: hit.passageId,
    fileId: hit.fileId,
    fileName: hit.fileName,
    divisionId: hit.divisionId,
    page: hit.page,
    headingPath: hit.headingPath,
  };
}

/** Whether any passage shares enough of the question's words to be worth giving to a model. */
function anythingRelevant(
  question: string,
  hits: SearchHit[],
  lang: Language,
  context: string | undefined,
  translations: QueryTranslation[],
  rarity: Map<string, number>,
): boolean {
  return scoreUnits(question, hits, lang, context, translations, rarity).some(
    (s) => s.score >= MIN_CONFIDENCE / 2,
  );
}

interface Outcome {
  text: string;
  citations: StoredCitation[];
  noAnswer: boolean;
  status: 'complete' | 'stopped' | 'interrupted';
  errorCode: ErrorCode | null;
  firstTokenMs: number | null;
}

/** Where an answer goes while it is written: each event as it happens, and the asker's way to stop it. */
export interface AnswerOutput {
  /** Receives `start` first (only once nothing can fail any more), then tokens, citations, an error, `done`. */
  emit(event: ChatStreamEvent): void;
  /** Aborted when the asker stops the answer (a closed browser tab, a stop button): the answer is kept as stopped. */
  signal?: AbortSignal;
}

/**
 * Answers a question, whoever asks and however the answer travels (the chat's server-sent events, a WhatsApp or
 * e-mail job): stores the question and an answer row, retrieves passages in the chat's scope, writes the answer
 * with the built-in answerer or the chat's language model, announces each passage the first time it is cited, and
 * stores the answer however it ends (complete, stopped by the asker, or interrupted by the provider with the partial
 * text kept). What can fail before the answer starts (no ready file, no provider, an unknown message) throws before
 * the first event; after it, failures become an `error` event and the stored answer. Resolves with the stored answer.
 */
export async function answerQuestion(
  ctx: AppContext,
  req: AskRequest,
  output: AnswerOutput,
): Promise<ChatMessage> {
  const started = performance.now();
  const prepared = await prepare(ctx, req);
  const language = questionLanguage(prepared.question, req.language);
  // The search does not need the question's row: it starts beside the insert. Not under a monthly cap, though: a
  // question refused there, when parallel ones took the last slots, must not have spent the company's model on
  // translating it. Its failure is the answer's, after `start`.
  const early = prepared.capped ? null : retrieve(ctx, req, prepared);
  early?.catch(() => {});
  const { messageId, questionId } = await insertAnswerRow(ctx, req, prepared, language);
  const retrieval = early ?? retrieve(ctx, req, prepared);
  retrieval.catch(() => {});

  const abort = new AbortController();
  const stop = () => abort.abort('stopped');
  output.signal?.addEventListener('abort', stop, { once: true });
  if (output.signal?.aborted) stop();
  const ended = ctx.streams.open(abort);
  try {
    output.emit({ event: 'start', data: { questionId, messageId } });
    const outcome = await answer(ctx, req, prepared, retrieval, language, output.emit, abort, started);
    const finished = await finishAnswer(ctx.db, messageId, outcome);
    ctx.metrics.countAnswer(outcome.noAnswer ? 'no_answer' : outcome.status, prepared.provider);
    if (outcome.errorCode) {
      output.emit({
        event: 'error',
        data: { code: outcome.errorCode, message: translate(req.language, `errors.${outcome.errorCode}`) },
      });
    }
    const stored = await presentMessage(ctx.db, req.chat.companyId, finished, req.language);
    output.emit({ event: 'done', data: stored });
    return stored;
  } finally {
    output.signal?.removeEventListener('abort', stop);
    ended();
  }
}

/** What a question is answered from: its passages, and what the answerer weighs their words by. */
interface Retrieved {
  /** The previous question, when this one is a short follow-up. */
  context: string | undefined;
  translations: QueryTranslation[];
  rarity: Map<string, number>;
  hits: SearchHit[];
}

/** Retrieves the passages a question is answered from, in the chat's scope. */
async function retrieve(ctx: AppContext, req: AskRequest, prepared: Prepared): Promise<Retrieved> {
  const context = retrievalContext(prepared.question, prepared.history);
  const query = context ? `${prepared.question} ${context}` : prepared.question;
  // How common the question's words are in the company: what a quote must hold to answer it. Read beside the
  // translation and the search, which do not need it.
  const rarity = wordRarity(ctx.db, req.scope, query.match(/[\p{L}\p{N}]+/gu) ?? [], prepared.languages);
  rarity.catch(() => {});
  // A question in another language than the documents is translated first (by the company's model if the chat
  // has one, else through the dictionaries), and the answer is looked for with the translated words too.
  const translations = await translateQuestion(
    translationDeps(ctx, prepared.connection),
    req.scope,
    prepared.question,
    prepared.languages,
    context,
  );
  const limit = ctx.config.CHAT_PASSAGES;
  const found = await searchByEvidence(
    ctx.db,
    ctx.embedder,
    req.scope,
    query,
    {
      // With a reranking service, more candidates, of which it picks the best.
      limit: ctx.reranker ? Math.max(limit, ctx.config.RERANKER_CANDIDATES) : limit,
      mode: 'hybrid',
      exactScanMax: ctx.config.VECTOR_EXACT_SCAN_MAX,
      translations,
      languages: prepared.languages,
    },
    rarity,
  );
  const hits = ctx.reranker
    ? await rerankHits(ctx.reranker, query, found, limit, (err) =>
        ctx.log.warn({ err }, 'reranking service failed: the search order is kept'),
      )
    : found;
  return { context, translations, rarity: await rarity, hits };
}

/** Writes the answer from the retrieved passages, however it ends; never throws. */
async function answer(
  ctx: AppContext,
  req: AskRequest,
  prepared: Prepared,
  retrieval: Promise<Retrieved>,
  language: Language,
  send: AnswerOutput['emit'],
  abort: AbortController,
  started: number,
): Promise<Outcome> {
  let outcome: Outcome;
  try {
    const { context, translations, rarity, hits } = await retrieval;
    const emit = (text: string) => send({ event: 'token', data: { text } });
    if (
      prepared.connection &&
      hits.length > 0 &&
      anythingRelevant(prepared.question, hits, language, context, translations, rarity)
    ) {
      outcome = await modelAnswer(ctx, req.chat.companyName, prepared, hits, language, abort, emit, (c) =>
        send({ event: 'citation', data: { ...c, text: hits[c.n - 1]?.text ?? null } }),
      );
    } else {
      const audience = req.visitor ? 'visitor' : 'member';
      outcome = builtinAnswer(
        prepared.question,
        hits,
        language,
        { context, audience, translations, rarity },
        emit,
        (c) =>
          send({
            event: 'citation',
            data: { ...c, text: hits.find((h) => h.passageId === c.passageId)?.text ?? null },
          }),
      );
    }
    if (outcome.firstTokenMs === null && outcome.text)
      outcome.firstTokenMs = Math.round(performance.now() - started);
  } catch (error) {
    ctx.log.error({ err: error, questionId: prepared.questionId }, 'answer failed');
    outcome = {
      text: '',
      citations: [],
      noAnswer: false,
      status: 'interrupted',
      errorCode: 'INTERNAL',
      firstTokenMs: null,
    };
  }
  if (abort.signal.aborted && abort.signal.reason === 'stopped') outcome.status = 'stopped';
  return outcome;
}

function builtinAnswer(
  question: string,
  hits: SearchHit[],
  language: Language,
  options: AnswerOptions,
  emit: (text: string) => void,
  cite: (c: StoredCitation) => void,
): Outcome {
  const answer = answerExtractively(question, hits, language, options);
  const citations = answer.cited.map((hit, i) => toStored(hit, i + 1));
  const words = answer.text.split(/(?<=\s)/);
  const announced = new Set<number>();
  let written = '';
  for (let i = 0; i < words.length; i += WORDS_PER_TOKEN) {
    const piece = words.slice(i, i + WORDS_PER_TOKEN).join('');
    emit(piece);
    written += piece;
    for (const n of citedNumbers(written, citations.length)) {
      if (!announced.has(n)) {
        announced.add(n);
        cite(citations[n - 1]!);
      }
    }
  }
  return {
    text: answer.text,
    citations,
    noAnswer: answer.noAnswer,
    status: 'complete',
    errorCode: null,
    firstTokenMs: null,
  };
}

/** The model's whole answer is the marker that the passages do not hold the answer (trailing punctuation aside). */
const isNotInDocuments = (text: string) => text.trim().replace(/[.!。]+$/u, '') === NOT_IN_DOCUMENTS;

/**
 * Why a provider call failed, as one of our codes: silence past the limit is a timeout; a failure after part of the
 * answer arrived (a dropped connection, an error frame) interrupted the stream; anything earlier is the provider's
 * error (an HTTP error status, a refused connection), told apart only where that helps the user: an address the
 * outbound policy refused, a refused key.
 */
function providerFailure(reason: unknown, failure: unknown, partial: string): ErrorCode {
  if (reason === SERVER_STOPPING) return 'SERVER_STOPPING';
  if (reason === 'timeout') return 'PROVIDER_TIMEOUT';
  return partial ? 'PROVIDER_STREAM_INTERRUPTED' : providerErrorCode(failure);
}

async function modelAnswer(
  ctx: AppContext,
  companyName: string | null,
  prepared: Prepared,
  hits: SearchHit[],
  language: Language,
  abort: AbortController,
  emit: (text: string) => void,
  cite: (c: StoredCitation) => void,
): Promise<Outcome> {
  const started = performance.now();
  const prompt = buildPrompt({
    companyName,
    question: prepared.question,
    hits,
    history: prepared.history,
    language,
  });
  // The provider may stay silent at most this long, before the first token and between tokens. Its silence counts
  // from the request: loading the SDK and the provider's client (a first import can take seconds on a busy machine)
  // is ours.
  const idleMs = ctx.config.CHAT_PROVIDER_TIMEOUT_SECONDS * 1000;
  let idle: ReturnType<typeof setTimeout> | undefined;
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => abort.abort('timeout'), idleMs);
  };
  const stored = hits.map((h, i) => toStored(h, i + 1));
  const announced = new Set<number>();
  let text = '';
  /** How much of the text was sent on: an answer that may still become NOT_IN_DOCUMENTS is held back. */
  let shown = 0;
  const show = () => {
    if (NOT_IN_DOCUMENTS.startsWith(text.trim())) return;
    if (text.length > shown) emit(text.slice(shown));
    shown = text.length;
  };
  let firstTokenMs: number | null = null;
  let failure: unknown = null;
  try {
    const { streamText } = await import('ai');
    const model = await languageModelOf(prepared.connection!, ctx.outbound.fetch);
    touch();
    const result = streamText({
      model,
      instructions: prompt.system,
      messages: prompt.messages,
      abortSignal: abort.signal,
      maxRetries: 0,
      onError: () => {},
    });
    for await (const part of result.fullStream) {
      touch();
      if (part.type === 'text-delta' && part.text) {
        firstTokenMs ??= Math.round(performance.now() - started);
        text += part.text;
        show();
        for (const n of citedNumbers(text, hits.length)) {
          if (!announced.has(n)) {
            announced.add(n);
            cite(stored[n - 1]!);
          }
        }
      } else if (part.type === 'error') {
        failure = part.error ?? new Error('provider error');
        break;
      } else if (part.type === 'abort') {
        break;
      }
    }
  } catch (error) {
    failure = error;
  } finally {
    clearTimeout(idle);
  }
  const reason = abort.signal.aborted ? abort.signal.reason : null;
  if (failure === null && reason === null && isNotInDocuments(text)) {
    // The model found the answer not in the passages: the product's own plain answer, stored as no answer.
    const refusal = translate(language, 'answer.noAnswer');
    emit(refusal);
    return {
      text: refusal,
      citations: [],
      noAnswer: true,
      status: 'complete',
      errorCode: null,
      firstTokenMs,
    };
  }
  if (shown < text.length) emit(text.slice(shown));
  const citations = citedNumbers(text, hits.length).map((n) => stored[n - 1]!);
  if (reason === 'stopped') {
    return { text, citations, noAnswer: false, status: 'stopped', errorCode: null, firstTokenMs };
  }
  if (failure !== null || reason === 'timeout' || reason === SERVER_STOPPING) {
    if (failure) ctx.log.warn({ err: failure }, 'language-model provider failed');
    return {
      text,
      citations,
      noAnswer: false,
      status: 'interrupted',
      errorCode: providerFailure(reason, failure, text),
      firstTokenMs,
    };
  }
  return { text, citations, noAnswer: false, status: 'complete', errorCode: null, firstTokenMs };
}
