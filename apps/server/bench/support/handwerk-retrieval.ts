/**
 * bench:retrieval on the Handwerk set, through the API (see handwerk-set.ts): per question language and search mode
 * (PostgreSQL's plain full text, the baseline; the product's full text, vector and hybrid), search@1, search@5 and
 * MRR@10 (a hit holds an answer
 * string), and for the unanswerable questions the share that still finds something.
 */
import type { SearchMode } from '@werkwissen/shared';
import type { BenchEngine } from './bench-engines.ts';
import { fmt, percentile, printTable } from './bench-kit.ts';
import {
  countsLine,
  firstHolding,
  loadHandwerk,
  plainSearch,
  QUESTION_LANGS,
  readHandwerk,
  searchApi,
  share,
} from './handwerk-set.ts';

/** The product's modes, and 'plain': PostgreSQL's plain full text (`plainSearch`), the baseline. */
const MODES: Array<SearchMode | 'plain'> = ['plain', 'fulltext', 'vector', 'hybrid'];
const DEPTH = 10;

interface ModeFigures {
  lang: string;
  mode: SearchMode | 'plain';
  answerable: number;
  at1: number;
  at5: number;
  mrr: number;
  unanswerable: number;
  withHits: number;
  ms: number[];
}

/** Searches every question of the set in every mode on one engine and prints the table. */
export async function runHandwerkRetrieval(
  engine: BenchEngine,
  folder: string,
  workDir: string,
): Promise<void> {
  const { queries } = readHandwerk(folder);
  console.log(`\nHandwerk on ${engine.name}: ${countsLine(queries)} questions (answerable+unanswerable)`);
  const company = await loadHandwerk(engine, folder, workDir);
  console.log(
    `  ${company.fileNames.size} documents uploaded and ready, ${company.passages} passages, ` +
      `${fmt(company.loadSeconds, 0)} s`,
  );
  const results: ModeFigures[] = [];
  try {
    for (const lang of QUESTION_LANGS) {
      const mine = queries.filter((q) => q.lang === lang);
      for (const mode of MODES) {
        const f: ModeFigures = {
          lang,
          mode,
          answerable: 0,
          at1: 0,
          at5: 0,
          mrr: 0,
          unanswerable: 0,
          withHits: 0,
          ms: [],
        };
        for (const q of mine) {
          const started = performance.now();
          const hits =
            mode === 'plain'
              ? await plainSearch(company, q.text, DEPTH)
              : await searchApi(company, q.text, mode, DEPTH);
          f.ms.push(performance.now() - started);
          if (!q.answerable) {
            f.unanswerable++;
            if (hits.length > 0) f.withHits++;
            continue;
          }
          f.answerable++;
          const rank = firstHolding(hits, q.answer);
          if (rank === 1) f.at1++;
          if (rank !== null && rank <= 5) f.at5++;
          if (rank !== null) f.mrr += 1 / rank;
        }
        results.push(f);
      }
    }
  } finally {
    await company.close();
  }
  console.log(
    `\nHandwerk retrieval, ${engine.name} (a hit holds an answer string, NFC and white space collapsed; ` +
      'plain: PostgreSQL plain full text, the baseline; fulltext, vector, hybrid: the product through GET /search)',
  );
  printTable(
    ['lang', 'mode', 'answerable', 'search@1', 'search@5', 'MRR@10', 'unanswerable', 'with hits', 'p50 ms'],
    results.map((f) => [
      f.lang,
      f.mode,
      String(f.answerable),
      share(f.at1, f.answerable),
      share(f.at5, f.answerable),
      share(f.mrr, f.answerable),
      String(f.unanswerable),
      share(f.withHits, f.unanswerable),
      fmt(percentile(f.ms, 50), 0),
    ]),
  );
}
