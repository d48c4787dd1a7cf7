/**
 * The Handwerk evaluation set (`<data>/handwerk`: a craft business's German documents and questions as its staff ask
 * them, in de, en, ar, ru, uk, pl, tr; format in its README) loaded the way a company loads it: the real server (API
 * and worker) on a throwaway database, a data manager who uploads every document into one division and waits until
 * each is ready, then questions through the API. Shared by bench:retrieval (search) and bench:answer (answers).
 * Nothing of the set is copied anywhere: it is read from the folder given on the command line.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES, type Language, type SearchHit, type SearchMode } from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import { refreshKnowledgeStatistics } from '../../src/modules/processing/analyze.job.ts';
import type { ApiClient } from '../../test/support/api-client.ts';
import { waitForFile } from '../../test/support/documents.ts';
import { stream } from '../../test/support/sse.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../test/support/test-server.ts';
import type { BenchEngine } from './bench-engines.ts';
import { BENCH_SERVER_ENV } from './bench-kit.ts';

export interface HandwerkQuery {
  _id: string;
  group: string;
  lang: string;
  text: string;
  answerable: boolean;
  file?: string;
  answer?: string[];
  evidence?: string;
}

/** The question languages of the set, in the order its README lists them. */
export const QUESTION_LANGS = ['de', 'en', 'ar', 'ru', 'uk', 'pl', 'tr'] as const;

/** The set's folder under the evaluation data (`<data>/handwerk`), or null when it is not there. */
export function handwerkFolder(data: string): string | null {
  const folder = join(data, 'handwerk');
  return existsSync(join(folder, 'queries.jsonl')) && existsSync(join(folder, 'documents')) ? folder : null;
}

export function readHandwerk(folder: string): { documents: string[]; queries: HandwerkQuery[] } {
  const documents = readdirSync(join(folder, 'documents'))
    .filter((name) => !name.startsWith('.'))
    .sort();
  const queries = readFileSync(join(folder, 'queries.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as HandwerkQuery);
  return { documents, queries };
}

/** The set's matching rule (its README): Unicode NFC and every run of white space collapsed to one space. */
export const matchForm = (text: string) => text.normalize('NFC').replace(/\s+/g, ' ').trim();

/** Whether a text holds one of the answer strings (each is an acceptable alternative). */
export function holdsAnswer(text: string, answers: string[] | undefined): boolean {
  const haystack = matchForm(text);
  return (answers ?? []).some((a) => matchForm(a) !== '' && haystack.includes(matchForm(a)));
}

/** An answer's text without its `[n]` citation markers (a marker never splits a quote's words). */
export const withoutMarkers = (text: string) => text.replace(/\s*\[\d+\]/g, ' ');

/**
 * The interface language a worker asking in `lang` uses: their own where the product speaks it; Turkish is not an
 * interface language, and a Turkish worker in a German firm is taken to use German.
 */
export const askerLanguage = (lang: string): Language =>
  (LANGUAGES as readonly string[]).includes(lang) ? (lang as Language) : 'de';

export interface HandwerkCompany {
  t: TestServer;
  client: ApiClient;
  divisionId: string;
  /** File id → the document's name. */
  fileNames: Map<string, string>;
  passages: number;
  loadSeconds: number;
  close(): Promise<void>;
}

/**
 * The real server on `engine` with a data manager who uploaded every document of the set into one division; resolves
 * once every file is ready (a file that fails stops the run: the figures would not be the set's).
 */
export async function loadHandwerk(
  engine: BenchEngine,
  folder: string,
  workDir: string,
): Promise<HandwerkCompany> {
  const started = performance.now();
  const dataDir = join(workDir, `handwerk-${engine.name}`);
  mkdirSync(dataDir, { recursive: true });
  const database = await engine.serverDatabase(dataDir);
  const t = await startTestServer({
    smtp: false,
    dataDir,
    env: { ...BENCH_SERVER_ENV, ...database.serverEnv },
  });
  const close = async () => {
    await t.close();
    await database.stop();
  };
  try {
    const { client } = await signedInDataManager(t, { language: 'de', companyName: 'Bench Haustechnik' });
    const division = await client.post('/divisions', { name: 'Handwerk' });
    if (division.status !== 201) throw new Error(`division: ${JSON.stringify(division.body)}`);
    const divisionId = division.body.id as string;
    const { documents } = readHandwerk(folder);
    const up = await client.upload(
      `/divisions/${divisionId}/files`,
      documents.map((name) => ({ name, content: readFileSync(join(folder, 'documents', name)) })),
    );
    const results = (up.body?.results ?? []) as Array<{
      name: string;
      accepted: boolean;
      file?: { id: string };
      error?: { code: string };
    }>;
    const refused = results.filter((r) => !r.accepted);
    if (results.length !== documents.length || refused.length > 0)
      throw new Error(`upload: HTTP ${up.status} ${JSON.stringify(refused.length ? refused : up.body)}`);
    const fileNames = new Map<string, string>();
    let passages = 0;
    for (const r of results) {
      const file = await waitForFile(client, r.file!.id, undefined, 600_000);
      if (file.status !== 'ready') throw new Error(`${r.name}: ${file.status} ${file.errorCode ?? ''}`);
      fileNames.set(file.id, r.name);
      passages += Number(file.passageCount ?? 0);
    }
    // A company asks once its documents are counted (the knowledge.analyze job runs ANALYZE_DELAY_SECONDS after
    // the last file): without this, the first half minute of questions would meet a company without term counts.
    await refreshKnowledgeStatistics(t.server.ctx.db);
    return {
      t,
      client,
      divisionId,
      fileNames,
      passages,
      loadSeconds: (performance.now() - started) / 1000,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Sets the data manager's interface language (the asker's language when a question's own cannot be told). */
export async function speakAs(client: ApiClient, language: Language): Promise<void> {
  const res = await client.patch('/auth/me', { language });
  if (res.status !== 200) throw new Error(`language ${language}: ${res.status} ${JSON.stringify(res.body)}`);
}

/** A signed-in client's session is renewed this often (an access token lives 15 minutes; a run under load longer). */
const RENEW_MS = 5 * 60_000;
const renewed = new WeakMap<ApiClient, number>();

/** Renews the session through `POST /auth/refresh`, as the browser does, when it was last renewed long ago. */
async function keepSignedIn(client: ApiClient): Promise<void> {
  const last = renewed.get(client);
  if (last !== undefined && performance.now() - last < RENEW_MS) return;
  const res = await client.post('/auth/refresh');
  if (res.status !== 200) throw new Error(`refresh: ${res.status} ${JSON.stringify(res.body)}`);
  renewed.set(client, performance.now());
}

/** `GET /search` in the given mode. */
export async function searchApi(
  company: HandwerkCompany,
  q: string,
  mode: SearchMode,
  limit: number,
): Promise<SearchHit[]> {
  await keepSignedIn(company.client);
  const params = new URLSearchParams({ q, mode, limit: String(limit), divisionId: company.divisionId });
  const res = await company.client.get(`/search?${params}`);
  if (res.status !== 200) throw new Error(`search: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.items as SearchHit[];
}

export interface AskedAnswer {
  text: string;
  noAnswer: boolean;
  citedFiles: string[];
  ms: number;
}

/**
 * Asks one question in a new chat of the division (a chat of its own, so that no question is read as a follow-up
 * of the one before), through `POST /chats/{id}/messages`, and reads the stored answer from the stream's `done`.
 */
export async function askApi(company: HandwerkCompany, question: string): Promise<AskedAnswer> {
  await keepSignedIn(company.client);
  const chat = await company.client.post('/chats', { name: 'Bench', divisionIds: [company.divisionId] });
  if (chat.status !== 201) throw new Error(`chat: ${chat.status} ${JSON.stringify(chat.body)}`);
  const started = performance.now();
  const res = await stream(company.client, `/chats/${chat.body.id}/messages`, { content: question });
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`ask: ${res.status} ${JSON.stringify(res.body)}`);
  const done = res.done() as {
    content: string;
    noAnswer: boolean;
    status: string;
    citations: Array<{ fileName: string }>;
  };
  if (done.status !== 'complete') throw new Error(`ask: answer ${done.status}`);
  await company.client.delete(`/chats/${chat.body.id}`);
  return {
    text: done.content,
    noAnswer: done.noAnswer,
    citedFiles: done.citations.map((c) => c.fileName),
    ms,
  };
}

/**
 * The simple baseline: plain full text as PostgreSQL offers it, independent of the product's search. Every passage of
 * the company with at least one of the question's words (an OR of its words, each passage's text read afresh in its
 * own text configuration), ranked by `ts_rank`; no floors, no vectors, no compound parts, no synonyms.
 */
export async function plainSearch(
  company: HandwerkCompany,
  q: string,
  limit: number,
): Promise<{ text: string }[]> {
  const words = (q.match(/[\p{L}\p{N}]+/gu) ?? []).join(' or ');
  if (!words) return [];
  const { rows } = await company.t.server.ctx.db.execute<{ text: string }>(sql`
    select p.text from passages p
    join files f on f.id = p.file_id and f.active_generation = p.generation
    cross join lateral (select websearch_to_tsquery(p.text_config::regconfig, ${words}) as q) x
    cross join lateral (select to_tsvector(p.text_config::regconfig, p.text) as v) d
    where f.division_id = ${company.divisionId} and d.v @@ x.q
    order by ts_rank(d.v, x.q) desc, p.id
    limit ${limit}`);
  return rows;
}

/** Rank (1-based) of the first hit holding an answer string, or null. */
export function firstHolding(hits: Array<{ text: string }>, answers: string[] | undefined): number | null {
  const i = hits.findIndex((h) => holdsAnswer(h.text, answers));
  return i < 0 ? null : i + 1;
}

/** Shares with three decimals, "-" for an empty class. */
export const share = (n: number, of: number) => (of > 0 ? (n / of).toFixed(3) : '-');

/** Per question language: how many answerable and unanswerable questions the run asked. */
export function countsLine(queries: HandwerkQuery[]): string {
  return QUESTION_LANGS.map((lang) => {
    const mine = queries.filter((q) => q.lang === lang);
    return `${lang} ${mine.filter((q) => q.answerable).length}+${mine.filter((q) => !q.answerable).length}`;
  }).join(', ');
}
