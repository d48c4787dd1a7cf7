/**
 * bench:answer on the Handwerk set, through the API (see handwerk-set.ts): per question language, search@1/@5 of the
 * product's hybrid search and of PostgreSQL's plain full text (the baseline, `plainSearch`), and the built-in
 * answerer's answers: for answerable
 * questions right (the answer quotes an answer string), wrong (it quotes something else) or refused, for the others
 * answered (wrongly) or refused; beside them the baseline answerer that quotes the top-1 hit whole (refusing only
 * when nothing is found). German also per kind of document (laws, company documents) and per format.
 */
import { writeFileSync } from 'node:fs';
import { CONFIG_DEFAULTS } from '@werkwissen/shared';
import type { BenchEngine } from './bench-engines.ts';
import { fmt, percentile, printTable } from './bench-kit.ts';
import {
  askApi,
  askerLanguage,
  countsLine,
  firstHolding,
  type HandwerkQuery,
  holdsAnswer,
  loadHandwerk,
  plainSearch,
  QUESTION_LANGS,
  readHandwerk,
  searchApi,
  share,
  speakAs,
  withoutMarkers,
} from './handwerk-set.ts';

const CHAT_PASSAGES = Number(CONFIG_DEFAULTS.CHAT_PASSAGES);

/** One question's outcome. */
export interface AnswerRow {
  id: string;
  lang: string;
  answerable: boolean;
  file: string | null;
  /** Rank of the first hit holding an answer (hybrid, the product; plain full text, the baseline), or null. */
  hybridRank: number | null;
  textRank: number | null;
  hybridHits: number;
  textHits: number;
  /** The answerer: answered with a quote holding an answer string, answered otherwise, or refused. */
  outcome: 'right' | 'wrong' | 'refused';
  citesFile: boolean;
  /** The baseline answerer (the top-1 hit quoted whole). */
  baseline: 'right' | 'wrong' | 'refused';
  ms: number;
  question: string;
  answer: string;
}

export interface HandwerkAnswerOptions {
  langs: string[];
  /** At most this many questions per language (answerable and unanswerable together, in the set's order). */
  limit: number;
  /** Writes every question's outcome as JSON lines here (for looking at the misses). */
  details?: string;
}

/** Asks the set's questions on one engine; answers one row per question. */
export async function runHandwerkAnswers(
  engine: BenchEngine,
  folder: string,
  workDir: string,
  options: HandwerkAnswerOptions,
): Promise<AnswerRow[]> {
  const { queries } = readHandwerk(folder);
  const asked = QUESTION_LANGS.filter((l) => options.langs.includes(l)).flatMap((lang) =>
    queries.filter((q) => q.lang === lang).slice(0, options.limit),
  );
  console.log(`\nHandwerk on ${engine.name}: ${countsLine(asked)} questions (answerable+unanswerable)`);
  const company = await loadHandwerk(engine, folder, workDir);
  console.log(
    `  ${company.fileNames.size} documents uploaded and ready, ${company.passages} passages, ` +
      `${fmt(company.loadSeconds, 0)} s`,
  );
  const rows: AnswerRow[] = [];
  try {
    let speaking = '';
    for (const q of asked) {
      const language = askerLanguage(q.lang);
      if (language !== speaking) {
        await speakAs(company.client, language);
        speaking = language;
      }
      rows.push(await askOne(company, q));
      if (rows.length % 50 === 0) console.log(`  ${rows.length}/${asked.length} asked`);
    }
  } finally {
    await company.close();
  }
  if (options.details) {
    writeFileSync(options.details, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    console.log(`  every question's outcome: ${options.details}`);
  }
  return rows;
}

async function askOne(company: Awaited<ReturnType<typeof loadHandwerk>>, q: HandwerkQuery) {
  const hybrid = await searchApi(company, q.text, 'hybrid', CHAT_PASSAGES);
  const text = await plainSearch(company, q.text, CHAT_PASSAGES);
  const answer = await askApi(company, q.text);
  const quoted = withoutMarkers(answer.text);
  const outcome = answer.noAnswer ? 'refused' : holdsAnswer(quoted, q.answer) ? 'right' : 'wrong';
  const top = hybrid[0];
  const baseline = !top ? 'refused' : holdsAnswer(top.text, q.answer) ? 'right' : 'wrong';
  return {
    id: q._id,
    lang: q.lang,
    answerable: q.answerable,
    file: q.file ?? null,
    hybridRank: q.answerable ? firstHolding(hybrid, q.answer) : null,
    textRank: q.answerable ? firstHolding(text, q.answer) : null,
    hybridHits: hybrid.length,
    textHits: text.length,
    outcome,
    citesFile: q.file !== undefined && answer.citedFiles.includes(q.file),
    baseline,
    ms: answer.ms,
    question: q.text,
    answer: answer.text,
  } satisfies AnswerRow;
}

const within = (rank: number | null, k: number) => rank !== null && rank <= k;

/** The figures of a group of rows (answerable and unanswerable questions mixed). */
function figures(rows: AnswerRow[]) {
  const a = rows.filter((r) => r.answerable);
  const u = rows.filter((r) => !r.answerable);
  const count = (list: AnswerRow[], test: (r: AnswerRow) => boolean) => list.filter(test).length;
  return {
    a,
    u,
    s1: share(
      count(a, (r) => within(r.hybridRank, 1)),
      a.length,
    ),
    s5: share(
      count(a, (r) => within(r.hybridRank, 5)),
      a.length,
    ),
    t1: share(
      count(a, (r) => within(r.textRank, 1)),
      a.length,
    ),
    t5: share(
      count(a, (r) => within(r.textRank, 5)),
      a.length,
    ),
    right: share(
      count(a, (r) => r.outcome === 'right'),
      a.length,
    ),
    rightFile: share(
      count(a, (r) => r.outcome === 'right' && r.citesFile),
      a.length,
    ),
    wrong: share(
      count(a, (r) => r.outcome === 'wrong'),
      a.length,
    ),
    refused: share(
      count(a, (r) => r.outcome === 'refused'),
      a.length,
    ),
    uAnswered: share(
      count(u, (r) => r.outcome !== 'refused'),
      u.length,
    ),
    uRefused: share(
      count(u, (r) => r.outcome === 'refused'),
      u.length,
    ),
    bRight: share(
      count(a, (r) => r.baseline === 'right'),
      a.length,
    ),
    bWrong: share(
      count(a, (r) => r.baseline === 'wrong'),
      a.length,
    ),
    bRefused: share(
      count(a, (r) => r.baseline === 'refused'),
      a.length,
    ),
    bAnswered: share(
      count(u, (r) => r.baseline !== 'refused'),
      u.length,
    ),
  };
}

const LAWS = /gesetz|ordnung/i;
const formatOf = (file: string | null) => file?.split('.').pop() ?? '-';

/** Prints one engine's tables. */
export function printHandwerkAnswers(engineName: string, rows: AnswerRow[]): void {
  const langs = QUESTION_LANGS.filter((l) => rows.some((r) => r.lang === l));
  console.log(
    `\nHandwerk, ${engineName}: search (a hit holds an answer string, NFC and white space collapsed; ` +
      `${CHAT_PASSAGES} hits, CHAT_PASSAGES) and answers (built-in answerer and embedder, through the API)`,
  );
  printTable(
    [
      'lang',
      'questions',
      'search@1',
      'search@5',
      'right',
      'right+file',
      'wrong',
      'refused',
      'unanswerable answered',
      'unans. refused',
      '| baseline: plain@1',
      'plain@5',
      'top1 right',
      'top1 wrong',
      'top1 refused',
      'unans. answered',
    ],
    langs.map((lang) => {
      const f = figures(rows.filter((r) => r.lang === lang));
      return [
        lang,
        `${f.a.length}+${f.u.length}`,
        f.s1,
        f.s5,
        f.right,
        f.rightFile,
        f.wrong,
        f.refused,
        f.uAnswered,
        f.uRefused,
        f.t1,
        f.t5,
        f.bRight,
        f.bWrong,
        f.bRefused,
        f.bAnswered,
      ];
    }),
  );
  console.log(
    '  search@k: the product (hybrid); right: the answer quotes an answer string; right+file: and cites the ' +
      "question's document; baselines: PostgreSQL's plain full text (an OR of the question's words, ts_rank; plain@k), " +
      'and quoting the top-1 hybrid hit whole',
  );
  const german = rows.filter((r) => r.lang === 'de' && r.answerable);
  if (german.length > 0) {
    console.log('\nGerman answerable questions by document');
    const groups: Array<[string, AnswerRow[]]> = [
      ['laws', german.filter((r) => LAWS.test(r.file ?? ''))],
      ['company documents', german.filter((r) => !LAWS.test(r.file ?? ''))],
      ...['pdf', 'docx', 'xlsx'].map((ext): [string, AnswerRow[]] => [
        `.${ext}`,
        german.filter((r) => formatOf(r.file) === ext),
      ]),
    ];
    printTable(
      ['documents', 'questions', 'search@1', 'search@5', 'right', 'wrong', 'refused', 'top1 right'],
      groups
        .filter(([, g]) => g.length > 0)
        .map(([name, g]) => {
          const f = figures(g);
          return [name, String(g.length), f.s1, f.s5, f.right, f.wrong, f.refused, f.bRight];
        }),
    );
  }
  const ms = rows.map((r) => r.ms);
  console.log(
    `\n  asking (chat stream, end to end): p50 ${fmt(percentile(ms, 50), 0)} ms, p95 ${fmt(percentile(ms, 95), 0)} ms`,
  );
  const target = langs.map((lang) => {
    const f = figures(rows.filter((r) => r.lang === lang));
    const right = Number(f.right);
    const met =
      (lang === 'de' ? right >= 0.8 && Number(f.wrong) <= 0.05 : right >= 0.5) &&
      (f.u.length === 0 || Number(f.uAnswered) <= 0.1);
    return `${lang} ${met ? 'met' : 'missed'}`;
  });
  console.log(
    `Targets (issue 29): de right ≥ 0.80 and wrong ≤ 0.05; en, ar, ru, uk, pl, tr right ≥ 0.50; unanswerable ` +
      `answered ≤ 0.10 in every language: ${target.join(', ')}`,
  );
}
