/**
 * The full-text statement of a chat question: `npm run bench:fulltext [-- --questions=30] [--runs=5]
 * [--database-url=postgres://...] [--engines=postgres] [--save=hits.json] [--compare=hits.json] [--keep]
 * [--corpus-url=postgres://.../db] [--corpus-dir=DIR] [--plan=N]`.
 *
 * bench:chat's corpus and questions without its server: search.bench's synthetic corpus (`buildCorpus`, 10k
 * passages, seed 10000 as bench:chat writes it), every file and passage moved into one company and division (as
 * bench:chat moves them, with the same updates), the statistics refreshed; then --questions questions made as
 * bench:chat makes them (8 consecutive words of a German passage, at least 5 of them not stopwords, read as German),
 * from a seeded random generator, so that every run asks the same ones. Each question goes through the product's
 * `fullTextSearch` (its `searchQuery`, depth 50 as the hybrid search asks, the relevance floor on, no translations),
 * once to warm up and --runs times timed; its statements are then re-run under `EXPLAIN (ANALYZE, BUFFERS)`.
 * It prints per statement the median wall time (as the client sees it, wire included), planning and execution time
 * and shared buffers, and the whole search's median; and, with --save, writes each question's ranked hits (by file
 * name and ordinal, which do not change from one corpus build to the next, with their scores), which a later run
 * compares with --compare: how many questions return the same ranked passages, and the same scores.
 * --keep leaves the PostgreSQL database (its URL is printed), --corpus-url reuses such a database instead of
 * writing the corpus again; on PGlite, --corpus-dir=DIR writes the corpus into DIR, or reuses the one there (the
 * passages' ids, which break ties, differ from one corpus build to the next: compare runs over the same corpus); --plan=N prints the plans of the Nth question's statements. Figures only, nothing is asserted.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { applyMigrations, type Db, openDatabase } from '../src/db/database.ts';
import { questionLanguage } from '../src/modules/chat/question-language.ts';
import { refreshKnowledgeStatistics } from '../src/modules/processing/analyze.job.ts';
import { fullTextSearch } from '../src/modules/search/full-text-search.ts';
import { searchQuery } from '../src/modules/search/query-terms.ts';
import type { SearchScope } from '../src/modules/search/search-scope.ts';
import { type BenchEngine, benchEngines } from './support/bench-engines.ts';
import {
  closeWithin,
  flag,
  fmt,
  intFlag,
  machineLine,
  mean,
  onInterrupt,
  percentile,
  printTable,
  revisionLine,
} from './support/bench-kit.ts';
import { questionWindow } from './support/question-window.ts';
import { buildCorpus } from './support/search-corpus.ts';
import { rng } from './support/synthetic-text.ts';

const PASSAGES = 10_000;
/** What the hybrid search asks the full text for (hybrid-search.ts CANDIDATES). */
const DEPTH = 50;

interface Statement {
  label: string;
  wall: number[];
  planning: number[];
  execution: number[];
  buffers: number[];
}

type Hits = Record<string, Array<[string, number]>>;

/** The corpus in one company and division, as bench:chat searches it. */
async function prepareCorpus(db: Db): Promise<SearchScope> {
  await buildCorpus(db, PASSAGES, PASSAGES);
  const { rows } = await db.execute<{ company_id: string; division_id: string }>(sql`
    select company_id, division_id from files group by company_id, division_id order by count(*) desc limit 1`);
  const { company_id: companyId, division_id: divisionId } = rows[0]!;
  await db.execute(
    sql`update files set company_id = ${companyId}, division_id = ${divisionId} where division_id <> ${divisionId}`,
  );
  await db.execute(
    sql`update passages set company_id = ${companyId}, division_id = ${divisionId} where division_id <> ${divisionId}`,
  );
  await refreshKnowledgeStatistics(db);
  return { companyId, divisionIds: [divisionId] };
}

async function corpusScope(db: Db): Promise<SearchScope> {
  const { rows } = await db.execute<{ company_id: string; division_id: string }>(
    sql`select company_id, division_id from files limit 1`,
  );
  return { companyId: rows[0]!.company_id, divisionIds: [rows[0]!.division_id] };
}

/** bench:chat's questions, from a seeded generator over the German passages in file and ordinal order. */
async function makeQuestions(db: Db, count: number): Promise<string[]> {
  const { rows } = await db.execute<{ text: string }>(sql`
    select p.text from passages p join files f on f.id = p.file_id
    where f.language = 'deu' order by f.name, p.ordinal`);
  const r = rng(35);
  const asked = new Set<string>();
  const questions: string[] = [];
  while (questions.length < count) {
    const q = questionWindow(rows[Math.floor(r() * rows.length)]!.text, r);
    if (!q || asked.has(q) || questionLanguage(q, 'en') !== 'de') continue;
    asked.add(q);
    questions.push(q);
  }
  return questions;
}

/**
 * The CPU time (ms) the connection's PostgreSQL backend has used so far, read from /proc when the server runs on
 * this machine (on PGlite, null: its backend id is no process of this machine). On a machine shared with other work
 * the wall times say more about the others than about the statement; the backend's CPU time much less so.
 */
async function backendCpu(db: Db, url: string): Promise<(() => number) | null> {
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname)) return null;
  const { rows } = await db.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
  const stat = `/proc/${rows[0]!.pid}/stat`;
  const read = () => {
    const fields = readFileSync(stat, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, in clock ticks of 10 ms (USER_HZ is 100 on Linux)
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  try {
    read();
    return read;
  } catch {
    return null;
  }
}

/** The database with every statement it is sent recorded (and timed). */
function recording(db: Db, sent: Array<{ query: SQL; ms: number }>): Db {
  return new Proxy(db, {
    get(target, key, receiver) {
      if (key !== 'execute') return Reflect.get(target, key, receiver);
      return async (query: SQL) => {
        const start = performance.now();
        const result = await target.execute(query);
        sent.push({ query, ms: performance.now() - start });
        return result;
      };
    },
  });
}

interface PlanJson {
  'Planning Time': number;
  'Execution Time': number;
  Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number };
}

async function explain(db: Db, query: SQL): Promise<PlanJson> {
  const { rows } = await db.execute<{ 'QUERY PLAN': PlanJson[] | string }>(
    sql`explain (analyze, buffers, format json) ${query}`,
  );
  const plan = rows[0]!['QUERY PLAN'];
  return (typeof plan === 'string' ? JSON.parse(plan) : plan)[0]!;
}

async function benchEngine(engine: BenchEngine, questionCount: number, runs: number) {
  const dir = engine.name === 'PGlite' ? flag('corpus-dir') : undefined;
  const root = dir ?? mkdtempSync(join(os.tmpdir(), 'ww-bench-fulltext-'));
  if (!dir) onInterrupt(() => rmSync(root, { recursive: true, force: true }));
  const url = engine.name === 'PostgreSQL' ? flag('corpus-url') : undefined;
  const reuse = url !== undefined || (dir !== undefined && existsSync(dir) && readdirSync(dir).length > 0);
  if (dir) mkdirSync(dir, { recursive: true });
  const opened = url ? null : await engine.open(root, (m) => console.error(m));
  // One connection: the timed runs then go to one backend, whose CPU time can be read.
  const database = openDatabase(url ?? opened!.url, 1);
  try {
    let scope: SearchScope;
    if (reuse) scope = await corpusScope(database.db);
    else {
      await applyMigrations(database);
      scope = await prepareCorpus(database.db);
    }
    const db = database.db;
    const names = new Map<string, string>();
    for (const row of (
      await db.execute<{ id: string; key: string }>(
        sql`select p.id, f.name || '#' || p.ordinal as key from passages p join files f on f.id = p.file_id`,
      )
    ).rows)
      names.set(row.id, row.key);
    const questions = await makeQuestions(db, questionCount);
    const cpu = engine.name === 'PostgreSQL' ? await backendCpu(db, url ?? opened!.url) : null;
    let cpuSpent = 0;
    const statements: Statement[] = [];
    const totals: number[] = [];
    const hits: Hits = {};
    const planOf = flag('plan');
    for (const [q, question] of questions.entries()) {
      const query = searchQuery(question);
      await fullTextSearch(db, scope, query, DEPTH);
      const perRun: Array<Array<{ query: SQL; ms: number }>> = [];
      for (let run = 0; run < runs; run++) {
        const sent: Array<{ query: SQL; ms: number }> = [];
        const start = performance.now();
        const cpuStart = cpu?.();
        const result = await fullTextSearch(recording(db, sent), scope, query, DEPTH);
        totals.push(performance.now() - start);
        if (cpu) cpuSpent += cpu() - cpuStart!;
        perRun.push(sent);
        if (run === 0) hits[question] = result.hits.map((h) => [names.get(h.passageId)!, h.score]);
      }
      for (const [i, { query: statement }] of perRun[0]!.entries()) {
        const text = new PgDialect().sqlToQuery(statement).sql.replace(/\s+/g, ' ').trim();
        statements[i] ??= { label: text.slice(0, 40), wall: [], planning: [], execution: [], buffers: [] };
        const s = statements[i];
        s.wall.push(
          percentile(
            perRun.map((sent) => sent[i]?.ms ?? 0),
            50,
          ),
        );
        if (planOf !== undefined && Number(planOf) === q) await printPlan(db, question, statement);
        const plan = await explain(db, statement);
        s.planning.push(plan['Planning Time']);
        s.execution.push(plan['Execution Time']);
        s.buffers.push(plan.Plan['Shared Hit Blocks'] + plan.Plan['Shared Read Blocks']);
      }
    }
    console.log(
      `\n${engine.name}: ${questions.length} questions, ${runs} timed runs each (ms; median over questions)`,
    );
    printTable(
      ['statement', 'wall p50', 'wall p95', 'planning', 'execution p50', 'execution p95', 'buffers mean'],
      statements.map((s) => [
        s.label,
        fmt(percentile(s.wall, 50), 2),
        fmt(percentile(s.wall, 95), 2),
        fmt(percentile(s.planning, 50), 2),
        fmt(percentile(s.execution, 50), 2),
        fmt(percentile(s.execution, 95), 2),
        fmt(mean(s.buffers), 0),
      ]),
    );
    console.log(
      `  fullTextSearch wall p50 ${fmt(percentile(totals, 50), 2)} / p95 ${fmt(percentile(totals, 95), 2)} ms, ` +
        `${fmt(mean(Object.values(hits).map((h) => h.length)), 1)} hits per question; the database's CPU per ` +
        `search ${cpu ? `${fmt(cpuSpent / (questions.length * runs), 2)} ms` : 'not readable here'}`,
    );
    const save = flag('save');
    if (save) writeFileSync(save.replace('{engine}', engine.name), JSON.stringify(hits, null, 1));
    const compare = flag('compare');
    if (compare)
      compareHits(JSON.parse(readFileSync(compare.replace('{engine}', engine.name), 'utf8')), hits);
    if (flag('keep') !== undefined && opened && !opened.exclusive)
      console.log(`  kept: --corpus-url=${opened.url}`);
  } finally {
    await closeWithin('the pool', () => database.close());
    if (opened && (flag('keep') === undefined || opened.exclusive))
      await closeWithin('the database', () => opened.stop(), 20_000);
    if (!dir) rmSync(root, { recursive: true, force: true });
  }
}

async function printPlan(db: Db, question: string, query: SQL) {
  const { rows } = await db.execute<{ 'QUERY PLAN': string }>(sql`explain (analyze, buffers) ${query}`);
  console.log(`\n"${question}":\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
}

/** How many questions find the same passages in the same order (and with the same scores) as the saved run. */
function compareHits(before: Hits, after: Hits) {
  let sameIds = 0;
  let sameScores = 0;
  let asked = 0;
  const differing: string[] = [];
  for (const [question, was] of Object.entries(before)) {
    const now = after[question];
    if (!now) continue;
    asked++;
    const ids = was.length === now.length && was.every(([id], i) => id === now[i]![0]);
    if (ids) sameIds++;
    else differing.push(question);
    if (ids && was.every(([, score], i) => Math.abs(score - now[i]![1]) < 1e-6)) sameScores++;
  }
  console.log(
    `  compared with the saved run: ${sameIds}/${asked} questions the same ranked passages, ${sameScores}/${asked} ` +
      'the same scores too',
  );
  for (const question of differing.slice(0, 5)) {
    const was = before[question]!;
    const now = after[question]!;
    const top = (h: Array<[string, number]>) => new Set(h.slice(0, 10).map(([id]) => id));
    const overlap = [...top(was)].filter((id) => top(now).has(id)).length;
    console.log(`    differs: "${question}" (${was.length} → ${now.length} hits, top 10 shared ${overlap})`);
  }
}

async function main() {
  console.log(machineLine());
  console.log(revisionLine());
  const questions = intFlag('questions', 30);
  const runs = intFlag('runs', 5);
  for (const engine of benchEngines()) await benchEngine(engine, questions, runs);
}

await main();
