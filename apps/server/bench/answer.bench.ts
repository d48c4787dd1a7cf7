/**
 * Answer quality of the built-in extractive answerer: `npm run bench:answer -- --data ../shared/eval
 * [--sets=handwerk,xquad] [--langs=de,en] [--limit=N] [--details=/tmp/answers-{engine}.jsonl]
 * [--database-url=postgres://...]`.
 *
 * Handwerk (`<data>/handwerk`, support/handwerk-answers.ts): a craft business's German documents uploaded through the
 * API into a real server (API and worker, built-in embedder, no model) on PGlite, and with --database-url also on a
 * new database of that PostgreSQL server; every question asked in a chat of its own as a worker speaking its
 * language would (`POST /chats/{id}/messages`); per question language search@1/@5 (a hit holds an answer string),
 * right / wrong / refused of the answerable questions, answered / refused of the unanswerable ones, beside the
 * baselines of the same run (plain full-text search; quoting the top-1 hit whole). --details writes each question's
 * outcome as JSON lines ({engine} is replaced by the engine's name).
 *
 * For XQuAD en, de, ar, ru, each language its own company in a throwaway embedded database: the contexts are loaded
 * as passages exactly as bench:retrieval loads them (`loadCorpus`: chunker, detected language, builtin vectors,
 * writePassageBatch, then ANALYZE), and every question goes the way a chat question goes: `evidenceSearch` (hybrid,
 * limit CHAT_PASSAGES = the product default, VECTOR_EXACT_SCAN_MAX default) and `answerExtractively` in the
 * question's language (`questionLanguage`, with the set's language as the asker's interface language).
 * Per language it reports:
 *   - contains gold: the answer quotes the gold answer string (case-insensitive, whitespace- and NFKC-normalised;
 *     XQuAD lists several answers per question, any one counts; a noAnswer counts as a miss; the fixed intro line
 *     and the [n] markers are not searched);
 *   - cites gold: one of the cited hits is a passage of the gold context;
 *   - noAnswer share, and mean answer length in characters (the whole text as the chat shows it, noAnswer excluded);
 *   - the in-run baselines on the same hits: quoting the whole top-1 passage, and quoting the first sentence of the
 *     top-1 passage (both "cite" the top-1 passage), with the answerer/baseline ratios (ratios survive a noisy
 *     machine better than the absolute figures);
 *   - gold in hits: the ceiling, how often any of the retrieved passages contains the gold string at all;
 *   - the answer classes: of the answerable questions (asked against the whole corpus), answered correctly (contains
 *     gold), answered wrongly (quotes something without the gold answer) and refused (noAnswer); and the "no answer"
 *     class: the questions of every fourth article (XQuAD article numbers 3, 7, 11, ...; about a quarter of the
 *     questions) asked against a second company holding the corpus without those articles, so that the corpus does
 *     not answer them: correctly refused, or wrongly answered (it quoted something);
 *   - a sweep of the refusal threshold over both classes: every question is answered once with `minConfidence: 0`
 *     and counts as refused below the threshold (the choice of the quotes does not depend on it), so one run shows
 *     what each threshold would do; the figures above are at the product's MIN_CONFIDENCE.
 * Figures only; nothing is asserted. The issue's target: contains gold ≥ 0.70 in en and de.
 * Flags: --data=PATH (or the path after --; relative to where npm was started), --limit=N questions per language
 * (default all), --langs=en,de (default: every language of each set), --sets (default: the sets the folder holds).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { CONFIG_DEFAULTS, type Language, type SearchHit } from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import { applyMigrations, openDatabase } from '../src/db/database.ts';
import { startEmbeddedDatabase } from '../src/db/embedded/embedded-database.ts';
import { answerExtractively, MIN_CONFIDENCE } from '../src/modules/chat/builtin-answerer.ts';
import { evidenceSearch } from '../src/modules/chat/evidence-order.ts';
import { questionLanguage } from '../src/modules/chat/question-language.ts';
import { BuiltinEmbedder } from '../src/modules/embedding/builtin-embedder.ts';
import { createHnswIndex } from '../src/modules/embedding/embedding-indexes.queries.ts';
import { refreshKnowledgeStatistics } from '../src/modules/processing/analyze.job.ts';
import { type Doc, loadCorpus, readJsonl, readQrels } from './retrieval.bench.ts';
import { benchEngines } from './support/bench-engines.ts';
import {
  closeWithin,
  flag,
  fmt,
  intFlag,
  machineLine,
  mean,
  onInterrupt,
  percentile,
  positionals,
  printTable,
  revisionLine,
  since,
  userPath,
} from './support/bench-kit.ts';
import { type AnswerRow, printHandwerkAnswers, runHandwerkAnswers } from './support/handwerk-answers.ts';
import { handwerkFolder, QUESTION_LANGS } from './support/handwerk-set.ts';

/** The product's defaults, as a chat question uses them (answer-stream.ts). */
const CHAT_PASSAGES = Number(CONFIG_DEFAULTS.CHAT_PASSAGES);
const EXACT_SCAN_MAX = Number(CONFIG_DEFAULTS.VECTOR_EXACT_SCAN_MAX);
const ALL_LANGS = ['en', 'de', 'ar', 'ru'] as const;
const TARGET = 0.7;
const TARGET_LANGS = ['en', 'de'];
/** XQuAD articles held out of the "no answer" company: every fourth (passage ids `xqNN_k`, NN the article). */
const HELD_OUT = (docId: string) => Number(/^xq(\d+)_/.exec(docId)?.[1] ?? 0) % 4 === 3;

interface XquadQuery {
  _id: string;
  text: string;
  answers: string[];
}

/** Case-insensitive, NFKC, whitespace collapsed. */
const normalise = (text: string) => text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

const containsAny = (text: string, golds: string[]) => {
  const haystack = normalise(text);
  return golds.some((g) => normalise(g) !== '' && haystack.includes(normalise(g)));
};

/** The quoted part of an answer: without the intro line (everything before the first blank line) and [n] markers. */
const quotedPart = (text: string) => {
  const start = text.indexOf('\n\n');
  return (start >= 0 ? text.slice(start + 2) : text).replace(/\s*\[\d+\]/g, ' ');
};

const firstSentence = (text: string, lang: Language) => {
  const first = text.split(/\n+/).find((l) => l.trim()) ?? '';
  for (const { segment } of new Intl.Segmenter(lang, { granularity: 'sentence' }).segment(first)) {
    if (segment.trim().length >= 2) return segment.trim();
  }
  return first.trim();
};

interface LangResult {
  lang: string;
  questions: number;
  passages: number;
  contains: number;
  cites: number;
  noAnswer: number;
  chars: number[];
  top1Contains: number;
  top1Cites: number;
  top1Chars: number[];
  sentContains: number;
  sentChars: number[];
  goldInHits: number;
  goldPassageInHits: number;
  searchMs: number[];
  answerMs: number[];
  loadSeconds: number;
  /** Answerable questions answered with a quote that does not hold the gold answer. */
  wrong: number;
  /** "No answer" class: questions of the held-out articles, against the corpus without them. */
  unanswerable: number;
  refusedUnanswerable: number;
  /** Per answerable question: its confidence and whether the quote holds the gold answer. */
  answerable: Array<{ confidence: number; correct: boolean }>;
  /** Per "no answer" question: its confidence. */
  unanswerableConfidence: number[];
}

const THRESHOLDS = [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6];

/** The languages of --langs that the set has (all of them by default); a language no set has stops the run. */
function parseLangs(own: readonly string[]): string[] {
  const raw = flag('langs');
  if (raw === undefined) return [...own];
  const langs = raw.split(',').map((l) => l.trim());
  const known = new Set<string>([...ALL_LANGS, ...QUESTION_LANGS]);
  const unknown = langs.filter((l) => !known.has(l));
  if (unknown.length > 0 || langs.length === 0)
    throw new Error(`invalid --langs: ${raw} (${[...known].join(', ')})`);
  return langs.filter((l) => own.includes(l));
}

const SETS = ['handwerk', 'xquad'] as const;

/** The sets of --sets (default: every set the data folder holds). */
function parseSets(present: readonly string[]): string[] {
  const raw = flag('sets');
  if (raw === undefined) return [...present];
  const sets = raw.split(',').map((s) => s.trim());
  const unknown = sets.filter((s) => !(SETS as readonly string[]).includes(s));
  if (unknown.length > 0) throw new Error(`invalid --sets: ${raw} (${SETS.join(', ')})`);
  return sets.filter((s) => present.includes(s));
}

async function main(): Promise<number> {
  const dataArg =
    flag('data') || positionals(['data', 'limit', 'langs', 'sets', 'details', 'database-url'])[0];
  const data = dataArg ? userPath(dataArg) : null;
  const present = data
    ? SETS.filter((set) => (set === 'xquad' ? existsSync(join(data, 'xquad')) : handwerkFolder(data)))
    : [];
  const sets = parseSets(present);
  if (!data || sets.length === 0) {
    console.error(
      'bench:answer needs the evaluation data: npm run bench:answer -- --data ../shared/eval\n' +
        `(a folder with xquad/ or handwerk/; got ${dataArg ?? 'nothing'})`,
    );
    return 2;
  }
  console.log(machineLine());
  console.log(revisionLine());
  let failed = false;
  if (sets.includes('handwerk')) failed = (await handwerk(handwerkFolder(data)!)) || failed;
  if (sets.includes('xquad')) failed = (await xquad(data)) || failed;
  return failed ? 1 : 0;
}

/** The Handwerk set on each engine of the run (PGlite, and PostgreSQL given --database-url). */
async function handwerk(folder: string): Promise<boolean> {
  const langs = parseLangs(QUESTION_LANGS);
  const limit = flag('limit') === undefined ? Number.POSITIVE_INFINITY : intFlag('limit', 1);
  const workDir = mkdtempSync(join(os.tmpdir(), 'ww-bench-handwerk-'));
  onInterrupt(() => rmSync(workDir, { recursive: true, force: true }));
  const results: Array<[string, AnswerRow[]]> = [];
  try {
    for (const engine of benchEngines()) {
      const details = flag('details');
      const rows = await runHandwerkAnswers(engine, folder, workDir, {
        langs,
        limit,
        details: details ? userPath(details.replace('{engine}', engine.name)) : undefined,
      });
      results.push([engine.name, rows]);
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  for (const [name, rows] of results) printHandwerkAnswers(name, rows);
  return false;
}

/** XQuAD: the built-in answerer over the product's search, each language its own company. */
async function xquad(data: string): Promise<boolean> {
  const langs = parseLangs(ALL_LANGS);
  const limit = flag('limit') === undefined ? Number.POSITIVE_INFINITY : intFlag('limit', 1);
  console.log(
    `XQuAD ${langs.join(', ')}; ${Number.isFinite(limit) ? `first ${limit}` : 'all'} questions per language; ` +
      `evidenceSearch (hybrid, best 20 by evidence), limit ${CHAT_PASSAGES} (CHAT_PASSAGES), then answerExtractively`,
  );

  const embedder = new BuiltinEmbedder(384);
  const tmp = mkdtempSync(join(os.tmpdir(), 'ww-bench-answer-'));
  onInterrupt(() => rmSync(tmp, { recursive: true, force: true }));
  let died = false;
  const embedded = await startEmbeddedDatabase(tmp, (code, signal) => {
    died = true;
    console.error(`ERROR the embedded database stopped (code ${code}, signal ${signal})`);
  });
  const database = openDatabase(embedded.url, 4);
  const { db } = database;
  const results: LangResult[] = [];
  try {
    await applyMigrations(database);
    const { rows: idx } = await db.execute<{ id: number }>(sql`
      insert into embedding_indexes (signature, embedder, dimension, status, activated_at)
      values (${embedder.signature}, 'builtin', 384, 'active', now()) returning id`);
    const indexId = idx[0]!.id;
    await createHnswIndex(db, { id: indexId, dimension: 384 });

    for (const lang of langs) {
      const started = performance.now();
      const corpus = readJsonl<Doc>(join(data, `xquad/${lang}/corpus.jsonl`));
      const queries = readJsonl<XquadQuery>(join(data, `xquad/${lang}/queries.jsonl`));
      const qrels = readQrels(join(data, `xquad/${lang}/qrels/test.tsv`));
      const { companyId, docOfFile } = await loadCorpus(db, embedder, indexId, corpus);
      const without = await loadCorpus(
        db,
        embedder,
        indexId,
        corpus.filter((d) => !HELD_OUT(d._id)),
      );
      // As after publishing in the product: the planner's statistics and the term frequencies.
      await refreshKnowledgeStatistics(db);
      const { rows: count } = await db.execute<{ n: number }>(
        sql`select count(*)::int as n from passages where company_id = ${companyId}`,
      );
      const r: LangResult = {
        lang,
        questions: 0,
        passages: count[0]!.n,
        contains: 0,
        cites: 0,
        noAnswer: 0,
        chars: [],
        top1Contains: 0,
        top1Cites: 0,
        top1Chars: [],
        sentContains: 0,
        sentChars: [],
        goldInHits: 0,
        goldPassageInHits: 0,
        searchMs: [],
        answerMs: [],
        loadSeconds: since(started),
        wrong: 0,
        unanswerable: 0,
        refusedUnanswerable: 0,
        answerable: [],
        unanswerableConfidence: [],
      };
      const evaluated = queries.filter((q) => qrels.has(q._id)).slice(0, limit);
      const isGold = (hit: SearchHit, q: XquadQuery) =>
        qrels.get(q._id)!.has(docOfFile.get(hit.fileId) ?? '');
      for (const q of evaluated) {
        const t0 = performance.now();
        const hits = await evidenceSearch(db, embedder, { companyId, divisionIds: null }, q.text, {
          limit: CHAT_PASSAGES,
          mode: 'hybrid',
          exactScanMax: EXACT_SCAN_MAX,
        });
        const t1 = performance.now();
        const language = questionLanguage(q.text, lang as Language);
        const answer = answerExtractively(q.text, hits, language, { minConfidence: 0 });
        r.answerMs.push(performance.now() - t1);
        r.searchMs.push(t1 - t0);
        r.questions++;
        const correct = !answer.noAnswer && containsAny(quotedPart(answer.text), q.answers);
        r.answerable.push({ confidence: answer.confidence, correct });
        if (answer.noAnswer || answer.confidence < MIN_CONFIDENCE) r.noAnswer++;
        else {
          r.chars.push(answer.text.length);
          if (correct) r.contains++;
          else r.wrong++;
        }
        if (answer.confidence >= MIN_CONFIDENCE && answer.cited.some((h) => isGold(h, q))) r.cites++;
        if (hits.some((h) => containsAny(h.text, q.answers))) r.goldInHits++;
        if (hits.some((h) => isGold(h, q))) r.goldPassageInHits++;
        const top = hits[0];
        if (top) {
          const sentence = firstSentence(top.text, language);
          r.top1Chars.push(top.text.length);
          r.sentChars.push(sentence.length);
          if (containsAny(top.text, q.answers)) r.top1Contains++;
          if (containsAny(sentence, q.answers)) r.sentContains++;
          if (isGold(top, q)) r.top1Cites++;
        }
      }
      const heldOut = queries
        .filter((q) => [...(qrels.get(q._id)?.keys() ?? [])].some(HELD_OUT))
        .slice(0, limit);
      for (const q of heldOut) {
        const hits = await evidenceSearch(
          db,
          embedder,
          { companyId: without.companyId, divisionIds: null },
          q.text,
          {
            limit: CHAT_PASSAGES,
            mode: 'hybrid',
            exactScanMax: EXACT_SCAN_MAX,
          },
        );
        const answer = answerExtractively(q.text, hits, questionLanguage(q.text, lang as Language), {
          minConfidence: 0,
        });
        r.unanswerable++;
        r.unanswerableConfidence.push(answer.confidence);
        if (answer.noAnswer || answer.confidence < MIN_CONFIDENCE) r.refusedUnanswerable++;
      }
      results.push(r);
      const share = (n: number) => fmt(n / r.questions, 3);
      console.log(
        `  ${lang}: ${r.questions} questions over ${r.passages} passages (load ${fmt(r.loadSeconds, 0)} s, ` +
          `${fmt(since(started) - r.loadSeconds, 0)} s answering); contains gold ${share(r.contains)}, ` +
          `cites gold ${share(r.cites)}, noAnswer ${share(r.noAnswer)}; ` +
          `${r.unanswerable} unanswerable, refused ${fmt(r.refusedUnanswerable / r.unanswerable, 3)}`,
      );
    }
  } finally {
    await closeWithin('the database pool', () => database.close());
    await closeWithin('the embedded database', () => embedded.stop(), 20_000);
    rmSync(tmp, { recursive: true, force: true });
  }

  const share = (n: number, r: LangResult) => fmt(n / r.questions, 3);
  const ratio = (a: number, b: number) => (b > 0 ? `${fmt(a / b, 2)}x` : '-');
  console.log(
    `\nBuilt-in extractive answerer on XQuAD (hybrid search, ${CHAT_PASSAGES} passages per question; shares of questions)`,
  );
  printTable(
    [
      'lang',
      'questions',
      'contains',
      'cites',
      'noAnswer',
      'chars',
      'top1 contains',
      'top1 cites',
      'top1 chars',
      'sent1 contains',
      'sent1 chars',
      'vs top1',
      'vs sent1',
      'gold in hits',
      'gold psg in hits',
    ],
    results.map((r) => [
      r.lang,
      String(r.questions),
      share(r.contains, r),
      share(r.cites, r),
      share(r.noAnswer, r),
      fmt(mean(r.chars), 0),
      share(r.top1Contains, r),
      share(r.top1Cites, r),
      fmt(mean(r.top1Chars), 0),
      share(r.sentContains, r),
      fmt(mean(r.sentChars), 0),
      ratio(r.contains, r.top1Contains),
      ratio(r.contains, r.sentContains),
      share(r.goldInHits, r),
      share(r.goldPassageInHits, r),
    ]),
  );
  console.log(
    '  contains: the answer quotes one of the gold answers; cites: it cites a passage of the gold context; chars: mean ' +
      'length of the whole answer text (intro, quotes, markers; noAnswer excluded)\n  top1 / sent1: the baselines ' +
      'quoting the whole top-1 passage / its first sentence (both cite the top-1 passage); vs top1 / vs sent1: the ' +
      "answerer's contains share over the baseline's\n  gold in hits: any retrieved passage holds a gold answer (the " +
      'ceiling for contains); gold psg in hits: a passage of the gold context is among the hits (the ceiling for cites)\n',
  );
  const of = (n: number, total: number) => fmt(n / Math.max(1, total), 3);
  console.log('Answer classes (shares of each class)');
  printTable(
    [
      'lang',
      'answerable',
      'answered correctly',
      'answered wrongly',
      'refused',
      'no answer (not in corpus)',
      'correctly refused',
      'wrongly answered',
    ],
    results.map((r) => [
      r.lang,
      String(r.questions),
      of(r.contains, r.questions),
      of(r.wrong, r.questions),
      of(r.noAnswer, r.questions),
      String(r.unanswerable),
      of(r.refusedUnanswerable, r.unanswerable),
      of(r.unanswerable - r.refusedUnanswerable, r.unanswerable),
    ]),
  );
  console.log(
    `  at MIN_CONFIDENCE ${MIN_CONFIDENCE}; answerable: every question against the whole corpus; no answer: the ` +
      'questions of every fourth article (3, 7, 11, ...) against a corpus without those articles\n',
  );
  console.log(
    'Refusal threshold sweep (answered correctly / answered wrongly / refused of the answerable; correctly refused of the no-answer class)',
  );
  printTable(
    ['threshold', ...results.map((r) => r.lang), 'mean correct + correctly refused'],
    THRESHOLDS.map((th) => {
      let sum = 0;
      const cells = results.map((r) => {
        const answered = r.answerable.filter((a) => a.confidence >= th);
        const right = answered.filter((a) => a.correct).length;
        const refusedNo = r.unanswerableConfidence.filter((c) => c < th).length;
        sum += right / r.questions + refusedNo / Math.max(1, r.unanswerable);
        return [
          of(right, r.questions),
          of(answered.length - right, r.questions),
          of(r.questions - answered.length, r.questions),
          of(refusedNo, r.unanswerable),
        ].join(' / ');
      });
      return [String(th), ...cells, fmt(sum / Math.max(1, results.length), 3)];
    }),
  );
  console.log('');
  printTable(
    ['lang', 'search p50 ms', 'search p95 ms', 'answer p50 ms', 'answer p95 ms', 'load s'],
    results.map((r) => [
      r.lang,
      fmt(percentile(r.searchMs, 50)),
      fmt(percentile(r.searchMs, 95)),
      fmt(percentile(r.answerMs, 50), 2),
      fmt(percentile(r.answerMs, 95), 2),
      fmt(r.loadSeconds, 0),
    ]),
  );
  const checked = results.filter((r) => TARGET_LANGS.includes(r.lang));
  console.log(
    `\nTarget (issue): contains gold ≥ ${TARGET} in ${TARGET_LANGS.join(' and ')}: ` +
      (checked.length === 0
        ? 'not measured in this run'
        : checked
            .map(
              (r) =>
                `${r.lang} ${share(r.contains, r)} (${r.contains / r.questions >= TARGET ? 'met' : 'missed'})`,
            )
            .join(', ')),
  );
  return died;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
