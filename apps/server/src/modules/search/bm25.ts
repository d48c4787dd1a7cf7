/**
 * BM25 over the candidates the full-text statement found (full-text-search.ts), with the relevance floor: scored
 * here rather than in the statement, whose plan of joins, aggregates and sorts over every (candidate, term) pair cost
 * the database more than finding the candidates did.
 */

/** BM25 parameters (the usual ones). */
const K1 = 1.2;
const B = 0.75;
/**
 * A compound's part counts this much of its IDF towards the floor's share, and is never telling alone: a part of the
 * question's compound (query-terms.ts), or a question word found only as a part of a passage's compound (its index
 * holds those with weight C). "Photovoltaikanlage" found nowhere is not answered by every passage about an "Anlage",
 * nor "Antrag auf Elternzeit" by the "Urlaubsantrag", while a passage with both parts of "Gesellenstunde"
 * ("Monteurstunde Geselle") is.
 */
const PART_WEIGHT = 0.5;
/** In a scope of a few passages no term is common: one in up to this many passages always has real weight. */
const FLOOR_TERM_ROWS = 3;

export interface ScoredTerm {
  cfg: string;
  lexeme: string;
  /** Share of the company's passages holding the term, when they were last counted. */
  share: number;
  /** Only a part of one of the question's compounds. */
  part: boolean;
  /** A compound of the question whose parts are searched too (or a word whose synonyms are). */
  compound: boolean;
  /** Only a synonym of a question word: it does not weigh the question. */
  synonym: boolean;
  /** The question word the term stands for. */
  group: string;
  /** 1 for the question's own words, less for a translation. */
  weight: number;
}

/** A candidate passage and the question's lexemes in its tsvector. */
export interface Candidate {
  id: string;
  cfg: string;
  /** Positions in the passage (its length). */
  tokens: number;
  lexemes: string[];
  /** Per lexeme: its positions in the passage (its term frequency). */
  tfs: number[];
  /** The lexemes written in the passage's own words, not only as a part of one of its compounds. */
  written: string[];
}

export interface Bm25Input {
  terms: ScoredTerm[];
  candidates: Candidate[];
  /** Passages the selecting terms matched in the scope (the candidates are the best of them). */
  matched: number;
  /** The scope's passages and their average length. */
  n: number;
  avgdl: number;
  /** Every match is a candidate of a small scope: document frequencies are counted exactly among them. */
  exact: boolean;
  /** The relevance floor (full-text-search.ts), or null for none. */
  floor: { termShare: number; idfShare: number } | null;
  limit: number;
}

/**
 * The candidates above the relevance floor, best first (ties by id), scored with BM25. A term's document frequency
 * is counted among the candidates when they are every match of a small scope, and otherwise estimated from its share
 * of the company's passages (at least the candidates holding it). The alternatives of a translated word (a group)
 * share the IDF of the most common one, as synonyms do (Lucene's SynonymQuery), so that a rare wrong sense
 * ("Feiertag" for "holiday") does not outweigh the common right one ("Urlaub"); they differ by their translation
 * weight only, and a group counts once, by its best-matching term. A passage is above the floor when it holds a term
 * in at most `termShare` of the scope's passages in its own words, or when the terms it matches carry at least
 * `idfShare` of the question's IDF weight (a compound's part, or a word found only as a part, at PART_WEIGHT).
 */
export function scoreBm25(input: Bm25Input): Array<{ passageId: string; score: number }> {
  const { terms, candidates, n, avgdl, floor } = input;
  const key = (cfg: string, word: string) => `${cfg}\u0000${word}`;
  // How many candidates hold each lexeme (a candidate's lexemes are distinct: they come from its tsvector).
  const counted = new Map<string, number>();
  for (const c of candidates)
    for (const lexeme of c.lexemes) {
      const k = key(c.cfg, lexeme);
      counted.set(k, (counted.get(k) ?? 0) + 1);
    }
  const df = terms.map((t) => {
    const found = counted.get(key(t.cfg, t.lexeme)) ?? 0;
    return input.exact ? found : Math.min(Math.max(t.share * n, found), n);
  });
  // The groups, numbered, with the document frequency of their most common term.
  const groupOf = new Map<string, number>();
  const groupDf: number[] = [];
  terms.forEach((t, i) => {
    const k = key(t.cfg, t.group);
    const g = groupOf.get(k) ?? groupDf.push(0) - 1;
    groupOf.set(k, g);
    groupDf[g] = Math.max(groupDf[g]!, df[i]!);
  });
  const tellingRows = Math.max((floor?.termShare ?? 1) * n, floor ? FLOOR_TERM_ROWS : 0);
  // Per lexeme of a configuration: the groups it stands for, with its IDF, whether it is telling, its part weight.
  const entries = new Map<
    string,
    Array<{ group: number; idf: number; telling: boolean; partWeight: number }>
  >();
  // The question's weight per configuration: each group by its best term.
  const groupAsked = new Map<number, number>();
  terms.forEach((t, i) => {
    const group = groupOf.get(key(t.cfg, t.group))!;
    const gdf = groupDf[group]!;
    const idf = t.weight * Math.log(1 + (n - gdf + 0.5) / (gdf + 0.5));
    const k = key(t.cfg, t.lexeme);
    const entry = {
      group,
      idf,
      telling: !t.part && gdf <= tellingRows,
      partWeight: t.part ? PART_WEIGHT : 1,
    };
    entries.set(k, [...(entries.get(k) ?? []), entry]);
    // A compound no passage writes is weighed by its parts (which are in the question too).
    const asked = (t.compound && df[i] === 0) || t.synonym ? 0 : t.part ? PART_WEIGHT : 1;
    groupAsked.set(group, Math.max(groupAsked.get(group) ?? 0, idf * asked));
  });
  const questionIdf = new Map<string, number>();
  for (const [k, group] of groupOf) {
    const cfg = k.slice(0, k.indexOf('\u0000'));
    questionIdf.set(cfg, (questionIdf.get(cfg) ?? 0) + groupAsked.get(group)!);
  }
  const idfShare = floor?.idfShare ?? 0;
  const scored: Array<{ passageId: string; score: number }> = [];
  // Per group of the candidate being scored: the best score, the best share towards the floor, whether a telling
  // term is written in it (reset for each candidate through `seen`).
  const score = new Float64Array(groupDf.length);
  const floorIdf = new Float64Array(groupDf.length);
  const seen: number[] = [];
  for (const c of candidates) {
    const written = new Set(c.written);
    const norm = K1 * (1 - B + (B * c.tokens) / avgdl);
    let telling = false;
    seen.length = 0;
    c.lexemes.forEach((lexeme, i) => {
      const tf = c.tfs[i]!;
      const inText = written.has(lexeme);
      for (const e of entries.get(key(c.cfg, lexeme)) ?? []) {
        if (!seen.includes(e.group)) {
          seen.push(e.group);
          score[e.group] = 0;
          floorIdf[e.group] = 0;
        }
        score[e.group] = Math.max(score[e.group]!, (e.idf * (tf * (K1 + 1))) / (tf + norm));
        floorIdf[e.group] = Math.max(floorIdf[e.group]!, e.idf * (inText ? e.partWeight : PART_WEIGHT));
        telling ||= e.telling && inText;
      }
    });
    if (seen.length === 0) continue;
    let sum = 0;
    let share = 0;
    for (const g of seen) {
      sum += score[g]!;
      share += floorIdf[g]!;
    }
    if (!telling && share < idfShare * (questionIdf.get(c.cfg) ?? 0)) continue;
    // Rounded: passages of equal scores are ordered by id, whichever order their terms were added in.
    scored.push({ passageId: c.id, score: Math.round(sum * 1e9) / 1e9 });
  }
  return scored
    .sort((a, b) => b.score - a.score || (a.passageId < b.passageId ? -1 : a.passageId > b.passageId ? 1 : 0))
    .slice(0, input.limit);
}
