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
  // The question's terms (by their index) per configuration and lexeme.
  const index = new Map<string, Map<string, number[]>>();
  terms.forEach((t, i) => {
    const lexemes = index.get(t.cfg) ?? new Map<string, number[]>();
    index.set(t.cfg, lexemes);
    lexemes.set(t.lexeme, [...(lexemes.get(t.lexeme) ?? []), i]);
  });
  // How many candidates hold each term's lexeme (a candidate's lexemes are distinct: they come from its tsvector).
  const holding = new Float64Array(terms.length);
  for (const c of candidates) {
    const lexemes = index.get(c.cfg);
    if (lexemes) for (const lexeme of c.lexemes) for (const i of lexemes.get(lexeme) ?? []) holding[i]!++;
  }
  const df = terms.map((t, i) =>
    input.exact ? holding[i]! : Math.min(Math.max(t.share * n, holding[i]!), n),
  );
  // The groups, numbered, with the document frequency of their most common term.
  const groupOf = new Map<string, number>();
  const groupDf: number[] = [];
  const group = terms.map((t, i) => {
    const k = `${t.cfg}\u0000${t.group}`;
    const g = groupOf.get(k) ?? groupDf.push(0) - 1;
    groupOf.set(k, g);
    groupDf[g] = Math.max(groupDf[g]!, df[i]!);
    return g;
  });
  const tellingRows = Math.max((floor?.termShare ?? 1) * n, floor ? FLOOR_TERM_ROWS : 0);
  // Per term: its IDF (its group's), whether it is telling, its part weight.
  const idf = terms.map(
    (t, i) => t.weight * Math.log(1 + (n - groupDf[group[i]!]! + 0.5) / (groupDf[group[i]!]! + 0.5)),
  );
  const telling = terms.map((t, i) => !t.part && groupDf[group[i]!]! <= tellingRows);
  const partWeight = terms.map((t) => (t.part ? PART_WEIGHT : 1));
  // The question's weight per configuration: each group by its best term; a compound no passage writes is weighed by
  // its parts (which are in the question too).
  const groupAsked = new Float64Array(groupDf.length);
  terms.forEach((t, i) => {
    const asked = (t.compound && df[i] === 0) || t.synonym ? 0 : t.part ? PART_WEIGHT : 1;
    groupAsked[group[i]!] = Math.max(groupAsked[group[i]!]!, idf[i]! * asked);
  });
  const questionIdf = new Map<string, number>();
  for (const [k, g] of groupOf) {
    const cfg = k.slice(0, k.indexOf('\u0000'));
    questionIdf.set(cfg, (questionIdf.get(cfg) ?? 0) + groupAsked[g]!);
  }
  const idfShare = floor?.idfShare ?? 0;
  const scored: Array<{ passageId: string; score: number }> = [];
  // Per group of the candidate being scored: the best score, the best share towards the floor (reset for each
  // candidate through `seen`).
  const score = new Float64Array(groupDf.length);
  const floorIdf = new Float64Array(groupDf.length);
  const seen: number[] = [];
  for (const c of candidates) {
    const lexemes = index.get(c.cfg);
    if (!lexemes) continue;
    const written = new Set(c.written);
    const norm = K1 * (1 - B + (B * c.tokens) / avgdl);
    let tells = false;
    seen.length = 0;
    c.lexemes.forEach((lexeme, l) => {
      const tf = c.tfs[l]!;
      const inText = written.has(lexeme);
      for (const i of lexemes.get(lexeme) ?? []) {
        const g = group[i]!;
        if (!seen.includes(g)) {
          seen.push(g);
          score[g] = 0;
          floorIdf[g] = 0;
        }
        score[g] = Math.max(score[g]!, (idf[i]! * (tf * (K1 + 1))) / (tf + norm));
        floorIdf[g] = Math.max(floorIdf[g]!, idf[i]! * (inText ? partWeight[i]! : PART_WEIGHT));
        tells ||= telling[i]! && inText;
      }
    });
    if (seen.length === 0) continue;
    let sum = 0;
    let share = 0;
    for (const g of seen) {
      sum += score[g]!;
      share += floorIdf[g]!;
    }
    if (!tells && share < idfShare * (questionIdf.get(c.cfg) ?? 0)) continue;
    // Rounded: passages of equal scores are ordered by id, whichever order their terms were added in.
    scored.push({ passageId: c.id, score: Math.round(sum * 1e9) / 1e9 });
  }
  return scored
    .sort((a, b) => b.score - a.score || (a.passageId < b.passageId ? -1 : a.passageId > b.passageId ? 1 : 0))
    .slice(0, input.limit);
}
