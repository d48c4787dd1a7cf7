import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { TEXT_CONFIGS } from '../../db/schema/index.ts';
import { textConfigFor } from './language.ts';
import type { SearchQuery } from './query-terms.ts';
import type { QueryTranslation } from './query-translation/translation.ts';
import { type SearchScope, scopeFilesSql } from './search-scope.ts';

export interface RankedPassage {
  passageId: string;
  score: number;
}

/** BM25 parameters (the usual ones). */
const K1 = 1.2;
const B = 0.75;
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
/** In a scope of a few passages no term is common: one in up to this many passages always has real weight. */
const FLOOR_TERM_ROWS = 3;
/**
 * … or when the terms it matches carry at least this share of the question's IDF weight (a question of common words
 * only, like "Heizung" in a company whose documents are all about heating). Words that occur nowhere in the scope
 * count with the highest IDF: a question about something the documents do not hold is not answered by the common
 * words it shares with them.
 */
export const FLOOR_IDF_SHARE = 0.5;
/**
 * A compound's part counts this much of its IDF towards the floor's share, and is never telling alone: a part of the
 * question's compound (query-terms.ts), or a question word found only as a part of a passage's compound (its index
 * holds those with weight C). "Photovoltaikanlage" found nowhere is not answered by every passage about an "Anlage",
 * nor "Antrag auf Elternzeit" by the "Urlaubsantrag", while a passage with both parts of "Gesellenstunde"
 * ("Monteurstunde Geselle") is.
 */
const PART_WEIGHT = 0.5;
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
 * hundred by one `ts_rank` pass, and only those are scored per term. Two statements: the first reads the terms and
 * their frequencies (and the scope's languages: only their configurations are searched), the second receives the
 * candidate queries as values, so that the planner can find the candidates through the GIN index (and is sent again
 * with every term selecting when the rarer ones find fewer than FEW_MATCHES passages). A term's inverse
 * document frequency is its share of the company's passages applied to the caller's scope (counted exactly among the
 * candidates of a small scope); its term frequency is the number of its positions in the candidate's tsvector (read
 * once per matched passage, at most MAX_TF); passage length is normalised by the scope's average.
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
): Promise<FullTextResult> {
  const scopeFiles = scopeFilesSql(scope);
  const own =
    typeof query === 'string'
      ? { text: query, parts: '', compounds: '', synonyms: '', synonymous: [] }
      : query;
  const question = await questionTerms(db, scope.companyId, scopeFiles, [
    ...ownTexts(own, translations),
    ...translatedTexts(translations),
  ]);
  // Only the configurations of the scope's files' languages: another one's terms match none of their passages, yet
  // their posting lists ("die" as an English word) would be read. A file of no known language keeps every one.
  const configs = question.languages.includes(null)
    ? null
    : new Set<string>(question.languages.map((l) => textConfigFor(l ?? 'und')));
  const terms = configs ? question.terms.filter((t) => configs.has(t.cfg)) : question.terms;
  if (terms.length === 0) return { hits: [], matched: 0, scopePassages: question.passages };
  const { n, avgdl } = question;
  const [k1, k1plus1, b, termShare, idfShare] = [
    K1,
    K1 + 1,
    B,
    floor?.termShare ?? 1,
    floor?.idfShare ?? 0,
  ].map((x) => sql.raw(x.toFixed(4)));
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
  const ranked = (queries: Map<string, string>) =>
    db.execute<{ id: string | null; score: number | null; matched: number }>(sql`
    with terms as (
      select t.cfg, t.lexeme, t.share, t.part, t.compound, t.synonym, t.grp, t.weight
      from unnest(${sql.param(terms.map((t) => t.cfg))}::text[],
                  ${sql.param(terms.map((t) => t.lexeme))}::text[],
                  ${sql.param(terms.map((t) => t.share))}::float8[],
                  ${sql.param(terms.map((t) => t.part))}::boolean[],
                  ${sql.param(terms.map((t) => t.compound))}::boolean[],
                  ${sql.param(terms.map((t) => t.synonym))}::boolean[],
                  ${sql.param(terms.map((t) => t.group))}::text[],
                  ${sql.param(terms.map((t) => t.weight))}::float8[])
        as t(cfg, lexeme, share, part, compound, synonym, grp, weight)
    ),
    scope_files as (${scopeFiles}),
    stats as (select ${n}::float8 as n, ${avgdl}::float8 as avgdl),
    -- The company's passages found by the selecting terms, then those of the scope: apart, so that the planner does
    -- not look the terms up in the GIN index once per file of the scope.
    selected as materialized (${matching(scope.companyId, queries)}),
    matched as (select m.*, count(*) over () as total from (${inScope(queries, lexemes)}) m),
    -- Ties by id: the same candidates however the passages were found.
    candidates as (select * from matched order by pre desc, id limit ${CANDIDATES}),
    -- Each candidate's lexemes that are terms of the question (cut out of its tsvector in matched), with their
    -- positions …
    found as materialized (
      select c.id, c.text_config, c.token_count, c.total, l.lexeme,
             least(coalesce(cardinality(l.positions), 1), ${sql.raw(String(MAX_TF))}) as tf,
             l.lexeme = any(c.written) as in_text
      from candidates c
      cross join lateral unnest(c.asked) as l(lexeme, positions, weights)
    ),
    -- … matched with the terms of its configuration.
    hits as (
      select f.id, t.cfg, t.lexeme, t.grp, t.share, f.token_count, f.total, f.tf, f.in_text
      from found f join terms t on t.cfg = f.text_config and t.lexeme = f.lexeme
    ),
    counted as (select cfg, lexeme, count(distinct id)::float8 as n from hits group by cfg, lexeme),
    -- Every match of a small scope is a candidate: its document frequencies are counted exactly.
    exact as (
      select (select count(*) from matched) <= ${CANDIDATES} and stats.n <= ${SELECTING_ROWS} as yes from stats
    ),
    -- Every term of the question with its document frequency (a term without match has df 0 when counted exactly,
    -- else the statistics' estimate) …
    frequencies as (
      select t.cfg, t.lexeme, t.grp, t.weight, t.part, t.compound, t.synonym, df.df,
             max(df.df) over (partition by t.cfg, t.grp) as gdf
      from terms t
      left join counted on counted.cfg = t.cfg and counted.lexeme = t.lexeme
      cross join stats cross join exact
      cross join lateral (
        select case when exact.yes then coalesce(counted.n, 0)
                    else least(greatest(t.share * stats.n, coalesce(counted.n, 0)), stats.n) end as df
      ) df
    ),
    -- … and its IDF. The alternatives of a translated word (a group) share the IDF of the most common one, as
    -- synonyms do (Lucene's SynonymQuery), so that a rare wrong sense ("Feiertag" for "holiday") does not outweigh
    -- the common right one ("Urlaub"); they differ by their translation weight only. A word's own group is itself.
    weights as (
      select f.cfg, f.lexeme, f.grp, f.weight * ln(1 + (stats.n - f.gdf + 0.5) / (f.gdf + 0.5)) as idf,
             not f.part and f.gdf <= greatest(${termShare} * stats.n, ${floor ? FLOOR_TERM_ROWS : 0}) as telling,
             case when f.part then ${sql.raw(PART_WEIGHT.toFixed(2))} else 1 end as part_weight,
             -- A compound no passage writes is weighed by its parts (which are in the question too).
             case when f.compound and f.df = 0 or f.synonym then 0
                  when f.part then ${sql.raw(PART_WEIGHT.toFixed(2))} else 1 end as asked
      from frequencies f cross join stats
    ),
    -- A group counts once: the best-matching of its terms.
    question as (
      select cfg, sum(idf) as idf from (select cfg, grp, max(idf * asked) as idf from weights group by cfg, grp) g
      group by cfg
    ),
    grouped as (
      select h.id, h.cfg, max(
          w.idf * (h.tf * ${k1plus1}) / (h.tf + ${k1} * (1 - ${b} + ${b} * h.token_count / stats.avgdl))
        ) as score,
        max(w.idf * case when h.in_text then w.part_weight else ${sql.raw(PART_WEIGHT.toFixed(2))} end) as floor_idf,
        bool_or(w.telling and h.in_text) as telling
      from hits h
      join weights w on w.cfg = h.cfg and w.lexeme = h.lexeme and w.grp = h.grp
      cross join stats
      group by h.id, h.cfg, w.grp
    ),
    ranked as (
    -- Rounded: passages of equal scores are ordered by id, whichever order their terms were added in.
    select g.id, round(sum(g.score)::numeric, 9)::float8 as score
    from grouped g
    join question on question.cfg = g.cfg
    group by g.id
    -- The relevance floor: a term with real IDF weight, or most of the question's weight.
    having bool_or(g.telling) or sum(g.floor_idf) >= ${idfShare} * max(question.idf)
    order by score desc, g.id
    limit ${limit}
    )
    -- One row even when nothing passes the floor, to tell how many passages matched at all.
    select r.id, r.score, (select count(*) from matched)::int as matched
    from (select 1) one left join ranked r on true
    order by r.score desc nulls last, r.id`);
  let { rows } = await ranked(selecting);
  if (Number(rows[0]?.matched ?? 0) < FEW_MATCHES && !sameQueries(selecting, every))
    ({ rows } = await ranked(every));
  return {
    hits: rows.flatMap((r) => (r.id === null ? [] : [{ passageId: r.id, score: Number(r.score) }])),
    matched: Number(rows[0]?.matched ?? 0),
    scopePassages: question.passages,
  };
}

interface QuestionTerm {
  cfg: string;
  lexeme: string;
  /** `quote_literal(lexeme)`: the term as tsquery text. */
  quoted: string;
  /** Share of the company's passages holding the term, when they were last counted (0 before the first count). */
  share: number;
  /** Only a part of one of the question's compounds. */
  part: boolean;
  /** A compound of the question whose parts are searched too (or a word whose synonyms are). */
  compound: boolean;
  /** Only a synonym of a question word: it does not weigh the question. */
  synonym: boolean;
  /** The question word the term stands for: its own lexeme, or the word whose translation it is one of. */
  group: string;
  /** 1 for the question's own words, less for a translation. */
  weight: number;
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

/**
 * The `selected` passages of the scope's published files, each with its one-pass rank and the question's lexemes
 * in its tsvector. The tsvector is stored apart and compressed: it is fetched and unpacked once, into a copy (a
 * subquery the planner keeps apart) that the functions after it read; each reading the column would unpack it
 * again. The question's lexemes are cut out in C, not by unnesting the whole tsvector (about ninety rows with their
 * position and weight arrays, several times the cost): `asked` holds every position of each (all set to weight D,
 * then the question's lexemes marked A and kept), `written` those of them with a position of weight D, the passage's
 * own words and not only a compound's part (passage-writer.ts). Every lexeme of a passage has positions
 * (`to_tsvector` writes them; `ts_filter` would drop one without).
 */
function inScope(queries: Map<string, string>, lexemes: SQL) {
  const arms = [...queries].map(([cfg, q]) => sql`when ${cfg} then ${q}::tsquery`);
  return sql`
    select m.id, m.text_config, m.token_count, r.pre, r.asked, r.written
    from selected m
    join scope_files s on s.id = m.file_id and s.active_generation = m.generation
    cross join lateral (
      select ts_rank(${UNIFORM}, v.tsv, (case m.text_config ${sql.join(arms, sql` `)} end), 1) as pre,
             ts_filter(setweight(setweight(v.tsv, 'D'), 'A', ${lexemes}), '{a}') as asked,
             tsvector_to_array(ts_filter(setweight(ts_filter(v.tsv, '{d}'), 'A', ${lexemes}), '{a}')) as written
      from (select setweight(m.tsv, 'D', '{}'::text[]) as tsv offset 0) v
    ) r`;
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
