/**
 * Retrieval quality: `npm run bench:retrieval -- --data ../shared/eval`.
 *
 * Loads public retrieval sets into the embedded database through the product's own path (structure → chunker →
 * passages in the detected language with builtin vectors → the search SQL) and scores full-text only, vector only
 * and hybrid in one run:
 *   - XQuAD (en, de, ar, ru, and German questions against English passages): recall@1, recall@5, MRR@10;
 *   - SciFact test queries: nDCG@10 (the BEIR paper's BM25 reaches 0.665).
 * A passage's rank counts for its document (the best-ranked passage of a document stands for it). Each set is its
 * own company, so the company filter is exercised too. Figures only; nothing is asserted.
 *
 * Then how often a question the documents cannot answer still gets hits (10 asked), with the relevance floors and
 * without them (`floor: false`, the search before the floors):
 *   - out of corpus: a second company holds only the passages of the even-numbered XQuAD articles, and is asked the
 *     questions of the odd-numbered ones;
 *   - nonsense: 100 random letter strings of one to three words (the same every run) against each set's company.
 * Handwerk (`<data>/handwerk`, support/handwerk-retrieval.ts): a craft business's German documents uploaded through
 * the API into a real server (built-in embedder) on PGlite, and with --database-url=postgres://... also on a new
 * database of that server; every question searched through `GET /search` in each mode: per question language
 * search@1, search@5 and MRR@10 (a hit holds one of the question's answer strings), and for the questions the
 * documents do not answer, how many still find something.
 * Flags: --data=PATH (or the path after --), --sets=handwerk,xquad-en,scifact,... to run a subset,
 * --database-url (the Handwerk set also on PostgreSQL).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SearchMode } from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import { applyMigrations, type Db, openDatabase } from '../src/db/database.ts';
import { startEmbeddedDatabase } from '../src/db/embedded/embedded-database.ts';
import { BuiltinEmbedder } from '../src/modules/embedding/builtin-embedder.ts';
import { createHnswIndex } from '../src/modules/embedding/embedding-indexes.queries.ts';
import { refreshKnowledgeStatistics } from '../src/modules/processing/analyze.job.ts';
import { chunkBlocks } from '../src/modules/processing/chunker.ts';
import { indexText, writePassageBatch } from '../src/modules/processing/passage-writer.ts';
import { rankPassages } from '../src/modules/search/hybrid-search.ts';
import { detectLanguage, textConfigFor } from '../src/modules/search/language.ts';
import { benchEngines } from './support/bench-engines.ts';
import { runHandwerkRetrieval } from './support/handwerk-retrieval.ts';
import { handwerkFolder } from './support/handwerk-set.ts';

export interface Doc {
  _id: string;
  title?: string;
  text: string;
}
export interface Query {
  _id: string;
  text: string;
}

export const readJsonl = <T>(path: string): T[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
export function readQrels(path: string): Map<string, Map<string, number>> {
  const qrels = new Map<string, Map<string, number>>();
  for (const line of readFileSync(path, 'utf8').split('\n').slice(1)) {
    const [q, d, s] = line.trim().split('\t');
    if (!q || !d) continue;
    if (!qrels.has(q)) qrels.set(q, new Map());
    qrels.get(q)!.set(d, Number(s ?? 1));
  }
  return qrels;
}

interface EvalSet {
  name: string;
  corpus: string;
  queries: string;
  qrels: string;
  metric: 'xquad' | 'beir';
}
const SETS: EvalSet[] = [
  ...['en', 'de', 'ar', 'ru'].map((l) => ({
    name: `xquad-${l}`,
    corpus: `xquad/${l}/corpus.jsonl`,
    queries: `xquad/${l}/queries.jsonl`,
    qrels: `xquad/${l}/qrels/test.tsv`,
    metric: 'xquad' as const,
  })),
  {
    name: 'xquad-de→en',
    corpus: 'xquad/en/corpus.jsonl',
    queries: 'xquad/de/queries.jsonl',
    qrels: 'xquad/de/qrels/test.tsv',
    metric: 'xquad',
  },
  {
    name: 'scifact',
    corpus: 'scifact/corpus.jsonl',
    queries: 'scifact/queries.jsonl',
    qrels: 'scifact/qrels/test.tsv',
    metric: 'beir',
  },
];
/**
 * Loads a corpus as one company with one division through the product's path (chunker, language, builtin vectors,
 * writePassageBatch); answers the company and file id → document id. Also used by answer.bench.ts.
 */
export async function loadCorpus(
  db: Db,
  embedder: BuiltinEmbedder,
  indexId: number,
  corpus: Doc[],
): Promise<{ companyId: string; docOfFile: Map<string, string> }> {
  const companyId = randomUUID();
  const divisionId = randomUUID();
  await db.execute(sql`insert into companies (id, name) values (${companyId}, 'bench')`);
  await db.execute(
    sql`insert into divisions (id, company_id, name) values (${divisionId}, ${companyId}, 'bench')`,
  );
  const docOfFile = new Map<string, string>();
  for (const doc of corpus) {
    const fileId = randomUUID();
    docOfFile.set(fileId, doc._id);
    const title = (doc.title ?? '').replace(/_/g, ' ');
    const chunks = chunkBlocks([
      ...(title ? [{ kind: 'heading' as const, level: 1, text: title }] : []),
      { kind: 'paragraph' as const, text: doc.text },
    ]);
    const language = detectLanguage(`${title}\n${doc.text}`);
    await db.execute(sql`
      insert into files (id, company_id, division_id, name, size_bytes, mime_type, kind, sha256, storage_key, status,
                         active_generation, language)
      values (${fileId}, ${companyId}, ${divisionId}, ${doc._id}, ${doc.text.length}, 'text/plain', 'txt', ${fileId},
              ${`bench/${fileId}`}, 'ready', 0, ${language})`);
    const vectors = await embedder.embed(chunks.map(indexText), 'passage');
    await writePassageBatch(db, {
      fileId,
      companyId,
      divisionId,
      generation: 0,
      textConfig: textConfigFor(language),
      firstOrdinal: 0,
      chunks,
      embeddings: { indexId, vectors },
    });
  }
  await db.execute(sql`
    update files f set passage_count = s.n, token_count = s.t
    from (select file_id, count(*)::int as n, sum(token_count)::bigint as t from passages group by file_id) s
    where s.file_id = f.id and f.company_id = ${companyId}`);
  return { companyId, docOfFile };
}

/** Random letter strings of one to three "words" (a fixed seed: the same strings every run). */
export function nonsenseQueries(count: number): string[] {
  let seed = 20240611;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const word = () =>
    Array.from(
      { length: 5 + Math.floor(next() * 6) },
      () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(next() * 26)],
    ).join('');
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + Math.floor(next() * 3) }, word).join(' '),
  );
}

/** The XQuAD article of a passage id (`xq07_3` → 7). */
const articleOf = (docId: string) => Number(/^xq(\d+)_/.exec(docId)?.[1] ?? -1);

function ndcgAt10(ranked: string[], rel: Map<string, number>): number {
  let dcg = 0;
  ranked.slice(0, 10).forEach((d, i) => {
    dcg += (rel.get(d) ?? 0) / Math.log2(i + 2);
  });
  const ideal = [...rel.values()].sort((a, b) => b - a).slice(0, 10);
  const idcg = ideal.reduce((s, r, i) => s + r / Math.log2(i + 2), 0);
  return idcg > 0 ? dcg / idcg : 0;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const flag = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const dataDir = flag('data') ?? argv.find((a) => !a.startsWith('--'));
  const data = dataDir ? resolve(process.env.INIT_CWD ?? process.cwd(), dataDir) : null;
  const hasXquad = data !== null && existsSync(join(data, 'xquad'));
  const handwerk = data ? handwerkFolder(data) : null;
  if (!data || (!hasXquad && !handwerk)) {
    console.error(
      'bench:retrieval needs the evaluation data: npm run bench:retrieval -- --data ../shared/eval\n' +
        `(a folder with xquad/, scifact/ or handwerk/; got ${dataDir ?? 'nothing'})`,
    );
    process.exit(2);
  }
  const only = flag('sets')?.split(',');
  const sets = only ? SETS.filter((s) => only.includes(s.name)) : hasXquad ? SETS : [];
  if (handwerk && (!only || only.includes('handwerk'))) {
    const workDir = mkdtempSync(join(os.tmpdir(), 'ww-bench-handwerk-'));
    try {
      for (const engine of benchEngines()) await runHandwerkRetrieval(engine, handwerk, workDir);
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  }
  if (sets.length === 0) return;
  const MODES: SearchMode[] = ['fulltext', 'vector', 'hybrid'];

  const embedder = new BuiltinEmbedder(384);
  const tmp = mkdtempSync(join(os.tmpdir(), 'ww-bench-retrieval-'));
  const embedded = await startEmbeddedDatabase(tmp, () => {
    console.error('the embedded database stopped');
    process.exit(1);
  });
  const database = openDatabase(embedded.url, 4);
  const db: Db = database.db;
  await applyMigrations(database);
  const { rows: idx } = await db.execute<{ id: number }>(sql`
    insert into embedding_indexes (signature, embedder, dimension, status, activated_at)
    values (${embedder.signature}, 'builtin', 384, 'active', now()) returning id`);
  const indexId = idx[0]!.id;
  await createHnswIndex(db, { id: indexId, dimension: 384 });

  const results: Array<Record<string, string>> = [];
  const unanswerable: Array<Record<string, string>> = [];
  /** Share of the queries with at least one hit, and the mean number of hits, with the floors and without. */
  const answered = async (companyId: string, texts: string[], mode: SearchMode) => {
    const figures: Record<string, string> = {};
    for (const floor of [false, true]) {
      let withHits = 0;
      let hits = 0;
      for (const text of texts) {
        const ranked = await rankPassages(db, embedder, { companyId, divisionIds: null }, text, {
          limit: 10,
          mode,
          floor,
        });
        if (ranked.length > 0) withHits++;
        hits += ranked.length;
      }
      const key = floor ? 'after' : 'before';
      figures[`with hits ${key}`] = (withHits / texts.length).toFixed(3);
      figures[`hits/query ${key}`] = (hits / texts.length).toFixed(1);
    }
    return figures;
  };
  const nonsense = nonsenseQueries(100);
  for (const set of sets) {
    const started = Date.now();
    const corpus = readJsonl<Doc>(join(data, set.corpus));
    const queries = readJsonl<Query>(join(data, set.queries));
    const qrels = readQrels(join(data, set.qrels));
    const { companyId, docOfFile } = await loadCorpus(db, embedder, indexId, corpus);
    const { rows: passageRows } = await db.execute<{ id: string; file_id: string }>(
      sql`select id, file_id from passages where company_id = ${companyId}`,
    );
    // As after publishing in the product: the planner's statistics, and the term frequencies.
    await refreshKnowledgeStatistics(db);
    const docOfPassage = new Map(passageRows.map((r) => [r.id, docOfFile.get(r.file_id)!]));
    const loadSeconds = (Date.now() - started) / 1000;
    const evaluated = queries.filter((q) => qrels.has(q._id));
    for (const mode of MODES) {
      let r1 = 0;
      let r5 = 0;
      let mrr = 0;
      let ndcg = 0;
      const t0 = Date.now();
      for (const q of evaluated) {
        const ranked = await rankPassages(db, embedder, { companyId, divisionIds: null }, q.text, {
          limit: 100,
          mode,
        });
        const docs: string[] = [];
        for (const r of ranked) {
          const d = docOfPassage.get(r.passageId);
          if (d && !docs.includes(d)) docs.push(d);
        }
        const rel = qrels.get(q._id)!;
        const first = docs.findIndex((d) => rel.has(d));
        if (first === 0) r1++;
        if (first >= 0 && first < 5) r5++;
        if (first >= 0 && first < 10) mrr += 1 / (first + 1);
        ndcg += ndcgAt10(docs, rel);
      }
      const n = evaluated.length;
      const ms = (Date.now() - t0) / n;
      results.push({
        set: set.name,
        mode,
        queries: String(n),
        passages: String(passageRows.length),
        ...(set.metric === 'xquad'
          ? {
              'recall@1': (r1 / n).toFixed(3),
              'recall@5': (r5 / n).toFixed(3),
              'MRR@10': (mrr / n).toFixed(3),
            }
          : { 'nDCG@10': (ndcg / n).toFixed(3) }),
        'ms/query': ms.toFixed(1),
      });
      console.log(JSON.stringify(results.at(-1)), `(load ${loadSeconds.toFixed(0)} s)`);
    }

    const outOfCorpus =
      set.metric === 'xquad'
        ? await (async () => {
            const kept = corpus.filter((d) => articleOf(d._id) % 2 === 0);
            const loaded = await loadCorpus(db, embedder, indexId, kept);
            await refreshKnowledgeStatistics(db);
            const missing = evaluated.filter((q) =>
              [...qrels.get(q._id)!.keys()].every((d) => articleOf(d) % 2 === 1),
            );
            return { companyId: loaded.companyId, texts: missing.map((q) => q.text) };
          })()
        : null;
    for (const mode of MODES) {
      for (const [kind, companyOf, texts] of [
        ['out of corpus', outOfCorpus?.companyId, outOfCorpus?.texts ?? []],
        ['nonsense', companyId, nonsense],
      ] as const) {
        if (!companyOf || texts.length === 0) continue;
        unanswerable.push({
          set: set.name,
          queries: `${kind} (${texts.length})`,
          mode,
          ...(await answered(companyOf, [...texts], mode)),
        });
        console.log(JSON.stringify(unanswerable.at(-1)));
      }
    }
  }

  console.log(`\nRetrieval quality, builtin embedder (${embedder.signature}), ${os.cpus().length} CPUs\n`);
  const columns = [
    'set',
    'mode',
    'queries',
    'passages',
    'recall@1',
    'recall@5',
    'MRR@10',
    'nDCG@10',
    'ms/query',
  ];
  console.log(`| ${columns.join(' | ')} |`);
  console.log(`|${columns.map(() => '---').join('|')}|`);
  for (const r of results) console.log(`| ${columns.map((c) => r[c] ?? '').join(' | ')} |`);
  console.log(
    '\nTargets: hybrid > full text on every set; SciFact nDCG@10 ≥ 0.665; XQuAD recall@1 en 0.95, de 0.93, ar 0.90, ru 0.90.',
  );

  console.log(
    '\nQuestions the documents cannot answer (10 asked): before = without the relevance floors, after = with\n',
  );
  const floorColumns = [
    'set',
    'queries',
    'mode',
    'with hits before',
    'with hits after',
    'hits/query before',
    'hits/query after',
  ];
  console.log(`| ${floorColumns.join(' | ')} |`);
  console.log(`|${floorColumns.map(() => '---').join('|')}|`);
  for (const r of unanswerable) console.log(`| ${floorColumns.map((c) => r[c] ?? '').join(' | ')} |`);

  await database.close();
  await embedded.stop();
  rmSync(tmp, { recursive: true, force: true });
}

// Only when run as the script: answer.bench.ts imports loadCorpus from here.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
