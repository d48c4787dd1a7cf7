import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { TEXT_CONFIGS } from '../../db/schema/index.ts';
import { type ScoredTerm, scoreBm25 } from './bm25.ts';
import { textConfigFor } from './language.ts';
import type { SearchQuery } from './query-terms.ts';
import type { QueryTranslation } from './query-translation/translation.ts';
import { type SearchScope, scopeFilesSql } from './search-scope.ts';

export interface RankedPassage {
  passageId: string;
  score: number;
}

/**
 * A term in more than this share of the scope's passages (and more than SELECTING_ROWS of them) does not select
 * candidates when rarer terms exist; it still scores them. Small scopes therefore select with every term.
 */
const COMMON_TERM_SHARE = 0.05;
const SELECTING_ROWS = 2000;
/** The rarest terms select candidates until together they are in this many passages. */
const SELECTING_BUDGET = 500;
/** Fewer matches than this for the rarer terms, and every term selects candidates. */
const FEW_MATCHES = 10;
/** Candidates scored in full, chosen by a one-pass rank over the selecting terms. */
const CANDIDATES = 400;

/**
 * The relevance floor (BM25 scores are not comparable across queries, so it is put on the terms): a passage is a
 * hit when it matches a term that is in at most this share of the scope's passages (a term with real IDF weight) …
 */
export const FLOOR_TERM_SHARE = 0.5;
/**
 * … or when the terms it matches carry at least this share of the question's IDF weight (a question of common words
 * only, like "Heizung" in a company whose documents are all about heating). Words that occur nowhere in the scope
 * count with the highest IDF: a question about something the documents do not hold is not answered by the common
 * words it shares with them.
 */
export const FLOOR_IDF_SHARE = 0.5;
/**
 * Every weight the same for the candidates' one-pass rank: a passage's compound parts are indexed with weight C
 * (passage-writer.ts), its own words with D.
 */
const UNIFORM = sql.raw(`'{0.1,0.1,0.1,0.1}'::float4[]`);
/**
 * A term's frequency counts at most this many positions: what `ts_rank` of a single term could still tell apart when
 * the frequency was recovered from it (1/j² summed over the positions, its remainder floored at 0.02).
 */
const MAX_TF = 50;

export interface FullTextResult {
  /** The passages above the floor, best first. */
  hits: RankedPassage[];
  /** How many passages matched a word of the question at all, below the floor too. */
  matched: number;
  /** How many published passages the scope holds (read on the way; the vector search needs it too). */
  scopePassages: number;
}

export interface FullTextFloor {
  termShare: number;
  idfShare: number;
}

/**
 * Full-text search in every passage's own language, scored with BM25.
 *
 * The question becomes one OR query per text configuration (websearch/plainto AND every word, which for a question
 * matches almost nothing). How common each term is in the company comes from its term frequencies
 * (`term_frequencies`, counted by the knowledge.analyze job after files are published or deleted): the rarest terms
 * select candidates, until together they hold SELECTING_BUDGET passages, the candidates are the best few
 * hundred by one `ts_rank` pass, and only those are scored per term, here (bm25.ts). Two statements: the first reads
 * the terms and their frequencies (and the scope's languages: only their configurations are searched), the second
 * receives the candidate queries as values, so that the planner can find the candidates through the GIN index (and
 * is sent again with every term selecting when the rarer ones find fewer than FEW_MATCHES passages), and returns
 * each candidate's length and the question's lexemes in it. A term's inverse document frequency is its share of the
 * company's passages applied to the caller's scope (counted exactly among the candidates of a small scope); its term
 * frequency is the number of its positions in the candidate's tsvector (at most MAX_TF); passage length is
 * normalised by the scope's average.
 * A passage that matches only common words of the question, while the question's other words are rare or unknown
 * to the scope, is below the relevance floor and left out (see FLOOR_TERM_SHARE), so a word that occurs nowhere
 * finds nothing.
 */
export async function fullTextSearch(
  db: DbOrTx,
  scope: SearchScope,
  query: SearchQuery | string,
  limit: number,
  /** Benchmarks compare floors; `null` switches it off. */
  floor: FullTextFloor | null = { termShare: FLOOR_TERM_SHARE, idfShare: FLOOR_IDF_SHARE },
  /** The question in the languages of the passages (query-translation): more terms, each word's alternatives one. */
  translations: QueryTranslation[] = [],
  /**
   * The languages of the scope's files when the caller knows them (`scopeLanguages`): the question's words are then
   * parsed in their text configurations only, not in every one.
   */
  languages?: Array<string | null>,
): Promise<FullTextResult> {
  const scopeFiles = scopeFilesSql(scope);
  const own =
    typeof query === 'string'
      ? { text: query, parts: '', compounds: '', synonyms: '', synonymous: [], verbForms: [] }
      : query;
  const known = languages && !languages.includes(null) ? configsOf(languages) : null;
  const question = await questionTerms(
    db,
    scope.companyId,
    scopeFiles,
    [...ownTexts(own, translations), ...translatedTexts(translations)].filter(
      (t) => !known || known.has(t.cfg),
    ),
  );
  // Only the configurations of the scope's files' languages: another one's terms match none of their passages, yet
  // their posting lists ("die" as an English word) would be read. A file of no known language keeps every one.
  const configs = question.languages.includes(null) ? null : configsOf(question.languages);
  const terms = configs ? question.terms.filter((t) => configs.has(t.cfg)) : question.terms;
  if (terms.length === 0) return { hits: [], matched: 0, scopePassages: question.passages };
  const { n, avgdl } = question;
  // The candidate queries are parameters of this statement, not values computed inside it: the planner then sees
  // them and finds the matching passages through the GIN index instead of testing every passage of the company.
  const selecting = candidateQueries(
    terms,
    Math.max(COMMON_TERM_SHARE, SELECTING_ROWS / n),
    SELECTING_BUDGET / n,
  );
  const every = candidateQueries(terms, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
  const lexemes = sql`${sql.param([...new Set(terms.map((t) => t.lexeme))])}::text[]`;
  // One statement with the rarer terms selecting; when they find (almost) nothing (a typo, a word the statistics do
  // not know), it is sent again with every term selecting. Apart, so that the usual statement is planned without
  // the second search it almost never needs.
  const found = (queries: Map<string, string>) =>
    db.execute<{ candidates: CandidateRow[] | null; total: string | null }>(sql`
    with scope_files as (${scopeFiles}),
    -- The company's passages found by the selecting terms, then those of the scope: apart, so that the planner does
    -- not look the terms up in the GIN index once per file of the scope.
    selected as materialized (${matching(scope.companyId, queries)}),
    matched as (select m.*, count(*) over () as total from (${inScope()}) m),
    -- The best by a one-pass rank (only when there are more matches than candidates); ties by id: the same
    -- candidates however the passages were found.
    candidates as (
      select * from matched
      order by case when total > ${CANDIDATES} then ${preRank(queries)} end desc nulls last, id
      limit ${CANDIDATES})
    -- Each candidate's lexemes that are terms of the question, with their positions; as one JSON text, which the
    -- server parses natively (row by row, with arrays, it parsed them slower than scoring them).
    select json_agg(json_build_array(c.id, c.text_config, c.token_count, l.lexemes, l.tfs, q.written)) as candidates,
           max(c.total) as total
    from candidates c
    cross join lateral ${questionLexemes(lexemes)} q
    cross join lateral (
      select array_agg(l.lexeme) as lexemes,
             array_agg(least(coalesce(cardinality(l.positions), 1), ${sql.raw(String(MAX_TF))})) as tfs
      from unnest(q.asked) as l(lexeme, positions, weights)
    ) l`);
  let { rows } = await found(selecting);
  if (Number(rows[0]?.total ?? 0) < FEW_MATCHES && !sameQueries(selecting, every))
    ({ rows } = await found(every));
  const matched = Number(rows[0]?.total ?? 0);
  const hits = scoreBm25({
    terms,
    candidates: (rows[0]?.candidates ?? []).map(([id, cfg, tokens, lexemes, tfs, written]) => ({
      id,
      cfg,
      tokens,
      lexemes: lexemes ?? [],
      tfs: tfs ?? [],
      written: written ?? [],
    })),
    n,
    avgdl,
    exact: matched <= CANDIDATES && n <= SELECTING_ROWS,
    floor,
    limit,
  });
  return { hits, matched, scopePassages: question.passages };
}

/** The text configurations of languages (ISO 639-3). */
const configsOf = (languages: Array<string | null>) =>
  new Set<string>(languages.map((l) => textConfigFor(l ?? 'und')));

/** A candidate as the statement returns it: id, configuration, length, lexemes, their frequencies, written ones. */
type CandidateRow = [string, string, number, string[] | null, number[] | null, string[] | null];

interface QuestionTerm extends ScoredTerm {
  /** `quote_literal(lexeme)`: the term as tsquery text. */
  quoted: string;
}

/**
 * The question's terms in every text configuration, with how common each is in the company (a term missing from its
 * frequencies is in at most one passage: 0), and the scope's passage count and average length.
 */
async function questionTerms(
  db: DbOrTx,
  companyId: string,
  scopeFiles: ReturnType<typeof scopeFilesSql>,
  texts: QueryText[],
): Promise<{
  terms: QuestionTerm[];
  passages: number;
  n: number;
  avgdl: number;
  languages: Array<string | null>;
}> {
  const { rows } = await db.execute<{
    languages: Array<string | null>;
    cfg: string | null;
    lexeme: string | null;
    quoted: string | null;
    share: number | null;
    part: boolean | null;
    compound: boolean | null;
    synonym: boolean | null;
    grp: string | null;
    weight: number | null;
    passages: string;
    n: number;
    avgdl: number;
  }>(sql`
    with words as (
      select x.cfg, t.lexeme, x.kind, coalesce(x.grp, x.cfg || ':' || t.lexeme) as grp, x.weight
      from unnest(${sql.param(texts.map((t) => t.cfg))}::text[], ${sql.param(texts.map((t) => t.text))}::text[],
                  ${sql.param(texts.map((t) => t.kind))}::text[], ${sql.param(texts.map((t) => t.group))}::text[],
                  ${sql.param(texts.map((t) => t.weight))}::float8[],
                  ${sql.param(texts.map((t) => t.unless ?? null))}::text[]) as x(cfg, text, kind, grp, weight, unless)
      cross join lateral unnest(tsvector_to_array(to_tsvector(x.cfg::regconfig, x.text))) as t(lexeme)
      -- A word's synonyms only when no passage of the company holds the word (in German or as written).
      where x.unless is null or not exists (
        select 1 from term_frequencies tf
        where tf.company_id = ${companyId}
          and tf.lexeme = any(tsvector_to_array(to_tsvector('german', x.unless))
                              || tsvector_to_array(to_tsvector('simple', x.unless))))
    ),
    terms as (
      select cfg, lexeme, quote_literal(lexeme) as quoted, bool_and(kind in ('part', 'synonym')) as part,
             bool_or(kind = 'compound') as compound, bool_and(kind = 'synonym') as synonym, grp,
             max(weight) as weight
      from words group by cfg, lexeme, grp having bool_or(kind <> 'compound')
    ),
    counted as (select passages from term_frequency_counts where company_id = ${companyId}),
    scope_files as (${scopeFiles}),
    stats as (
      select coalesce(sum(passage_count), 0)::bigint as passages,
             greatest(coalesce(sum(passage_count), 0), 1)::float8 as n,
             greatest(coalesce(sum(token_count)::float8 / nullif(sum(passage_count), 0), 1), 1)::float8 as avgdl,
             coalesce(array_agg(distinct language), '{}') as languages
      from scope_files
    )
    select t.cfg, t.lexeme, t.quoted, coalesce(tf.passages::float8 / counted.passages, 0) as share, t.part,
           t.compound, t.synonym, t.grp, t.weight,
           stats.passages, stats.n, stats.avgdl, stats.languages
    from stats left join terms t on true
    left join counted on true
    -- Each term looked up by the key (the limit keeps the planner from turning the subquery back into a join, for
    -- which it read the company's term counts whole and hashed them, for a few dozen terms).
    left join lateral (
      select tf.passages from term_frequencies tf where tf.company_id = ${companyId} and tf.lexeme = t.lexeme limit 1
    ) tf on true
    order by t.cfg, t.lexeme, t.grp`);
  const first = rows[0]!;
  return {
    terms: rows.flatMap((r) =>
      r.cfg === null
        ? []
        : [
            {
              cfg: r.cfg,
              lexeme: r.lexeme!,
              quoted: r.quoted!,
              share: Number(r.share),
              part: r.part === true,
              compound: r.compound === true,
              synonym: r.synonym === true,
              group: r.grp!,
              weight: Number(r.weight),
            },
          ],
    ),
    passages: Number(first.passages),
    languages: first.languages,
    n: Number(first.n),
    avgdl: Number(first.avgdl),
  };
}

/**
 * One OR query per text configuration: its rarest terms, each at most `maxShare` common, until together they hold
 * `budgetShare` of the passages, so that the candidates stay few but are not so few that every term has to select
 * them (FEW_MATCHES); or all its terms when none is that rare (a question of common words only still finds their
 * passages).
 */
function candidateQueries(terms: QuestionTerm[], maxShare: number, budgetShare: number): Map<string, string> {
  const byConfig = new Map<string, QuestionTerm[]>();
  for (const term of terms) byConfig.set(term.cfg, [...(byConfig.get(term.cfg) ?? []), term]);
  const queries = new Map<string, string>();
  for (const [cfg, all] of byConfig) {
    const rare = all.filter((t) => t.share <= maxShare).sort((a, b) => a.share - b.share);
    const chosen: QuestionTerm[] = [];
    let share = 0;
    for (const term of rare) {
      if (share >= budgetShare) break;
      if (chosen.some((c) => c.lexeme === term.lexeme)) continue;
      chosen.push(term);
      share += term.share;
    }
    const quoted = new Set((chosen.length > 0 ? chosen : all).map((t) => t.quoted));
    queries.set(cfg, [...quoted].join(' | '));
  }
  return queries;
}

const sameQueries = (a: Map<string, string>, b: Map<string, string>) =>
  a.size === b.size && [...a].every(([cfg, q]) => b.get(cfg) === q);

/**
 * A text configuration as a literal, not a parameter: the planner proves from it which configuration's partial GIN
 * index (`passages_tsv_<cfg>_idx`) the arm may read, also in a generic plan.
 */
export function configLiteral(cfg: string): SQL {
  if (!(TEXT_CONFIGS as readonly string[]).includes(cfg))
    throw new Error(`unknown text configuration ${cfg}`);
  return sql.raw(`'${cfg}'`);
}

/**
 * The company's passages that match their own configuration's query: one arm per configuration, so that each is
 * found through that configuration's GIN index alone (a match needs no second test, nor a passage of another
 * configuration fetched: with one index for all, an arm read every configuration's postings of its terms).
 */
function matching(companyId: string, queries: Map<string, string>) {
  const arms = [...queries].map(
    ([cfg, q]) => sql`
      select p.id, p.file_id, p.generation, p.text_config, p.tsv, p.token_count
      from passages p
      where p.company_id = ${companyId} and p.text_config = ${configLiteral(cfg)} and p.tsv @@ ${q}::tsquery`,
  );
  return sql.join(arms, sql` union all `);
}

/** The `selected` passages of the scope's published files. */
function inScope() {
  return sql`
    select m.id, m.text_config, m.token_count, m.tsv
    from selected m
    join scope_files s on s.id = m.file_id and s.active_generation = m.generation`;
}

/** A matched passage's one-pass rank by its configuration's query, every weight the same. */
function preRank(queries: Map<string, string>) {
  const arms = [...queries].map(([cfg, q]) => sql`when ${cfg} then ${q}::tsquery`);
  return sql`ts_rank(${UNIFORM}, tsv, (case text_config ${sql.join(arms, sql` `)} end), 1)`;
}

/**
 * A candidate's (`c`) lexemes that are terms of the question, cut out of its tsvector: only the candidates', a few
 * hundred of the passages matched, each about ninety lexemes with their positions. The tsvector is stored apart and
 * compressed: it is fetched and unpacked once, into a copy (a subquery the planner keeps apart) that the functions
 * after it read; each reading the column would unpack it again. The lexemes are cut out in C, not by unnesting the
 * whole tsvector (several times the cost): `asked` holds every position of each (all set to weight D, then the
 * question's lexemes marked A and kept), `written` those of them with a position of weight D, the passage's own
 * words and not only a compound's part (passage-writer.ts). Every lexeme of a passage has positions (`to_tsvector`
 * writes them; `ts_filter` would drop one without).
 */
function questionLexemes(lexemes: SQL) {
  return sql`(
    select ts_filter(setweight(setweight(v.tsv, 'D'), 'A', ${lexemes}), '{a}') as asked,
           tsvector_to_array(ts_filter(setweight(ts_filter(v.tsv, '{d}'), 'A', ${lexemes}), '{a}')) as written
    from (select setweight(c.tsv, 'D', '{}'::text[]) as tsv offset 0) v
  )`;
}

/**
 * A text whose lexemes are terms of the question: its own words, parts, compounds or synonyms, or a translated word.
 */
interface QueryText {
  cfg: string;
  text: string;
  kind: 'text' | 'part' | 'compound' | 'synonym' | 'translated';
  /** The translated word's group; null for the question's own words (each lexeme its own group). */
  group: string | null;
  weight: number;
  /** A word whose synonyms these are: searched only when the company's documents do not use it. */
  unless?: string;
}

/**
 * The question's own words in every configuration; in the configuration of a language it was translated into,
 * without the function words of its own language, which that language's parser would take for words of its own
 * ("I" for the Roman numeral, "do" for Thursday in German), and without the words it translated: those are asked by
 * their translations, and as words no passage of that language holds they would weigh the question as much as an
 * unknown word, and keep the passages its translations find below the relevance floor.
 */
function ownTexts(query: SearchQuery, translations: QueryTranslation[]): QueryText[] {
  return TEXT_CONFIGS.flatMap((cfg) => {
    const foreign = new Set(
      translations
        .filter((t) => targetConfig(t) === cfg)
        .flatMap((t) => [...t.functionWords, ...t.words.flatMap((w) => w.word.split(' '))])
        .map((w) => w.toLowerCase()),
    );
    const text =
      foreign.size === 0
        ? query.text
        : (query.text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*|[^\p{L}\p{N}]+/gu) ?? [])
            .filter((token) => !foreign.has(token.toLowerCase()))
            .join('');
    return [
      { cfg, text, kind: 'text', group: null, weight: 1 },
      { cfg, text: query.parts, kind: 'part', group: null, weight: 1 },
      { cfg, text: query.compounds, kind: 'compound', group: null, weight: 1 },
      { cfg, text: query.synonyms, kind: 'synonym', group: null, weight: 1 },
      // A separable verb is one word of the question by any of its forms.
      ...query.verbForms.map(
        ({ word, forms }): QueryText => ({
          cfg,
          text: [word, ...forms].join(' '),
          kind: 'text',
          group: `verb:${word.toLowerCase()}`,
          weight: 1,
        }),
      ),
      // An everyday word the documents do not use ("Azubi") is looked for by the words they use instead
      // ("Auszubildender"), and weighs the question by them, as a compound no passage writes by its parts.
      ...query.synonymous.flatMap(({ word, synonyms }): QueryText[] => [
        { cfg, text: synonyms.join(' '), kind: 'synonym', group: null, weight: 1, unless: word },
        { cfg, text: word, kind: 'compound', group: null, weight: 1, unless: word },
      ]),
    ] satisfies QueryText[];
  });
}

/** The text configuration of the language a question was translated into. */
export const targetConfig = (t: QueryTranslation) => textConfigFor(t.target === 'ara' ? 'arb' : t.target);

/**
 * The alternatives of the translated words, each parsed with the text configuration of the language it was
 * translated into; the alternatives of one word form a group.
 */
function translatedTexts(translations: QueryTranslation[]): QueryText[] {
  return translations.flatMap((t, ti) => {
    const cfg = targetConfig(t);
    return t.words.flatMap((w, wi) =>
      w.alternatives.map((a) => ({
        cfg,
        text: a.text,
        kind: 'translated' as const,
        group: `t${ti}:${wi}`,
        weight: a.weight,
      })),
    );
  });
}
