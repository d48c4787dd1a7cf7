import type { SearchHit, SearchMode } from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { BuiltinEmbedder, tokenize } from '../embedding/builtin-embedder.ts';
import type { Embedder } from '../embedding/embedder.ts';
import { searchIndex } from '../embedding/embedding-index.ts';
import type { EmbeddingIndex } from '../embedding/embedding-indexes.queries.ts';
import { STOPWORDS } from '../embedding/stopwords.ts';
import { fullTextSearch, type RankedPassage } from './full-text-search.ts';
import { searchQuery } from './query-terms.ts';
import { type QueryTranslation, translationText } from './query-translation/translation.ts';
import type { ScopeLanguage } from './scope-languages.ts';
import type { SearchScope } from './search-scope.ts';
import { scopeSize, vectorSearch } from './vector-search.ts';

/**
 * The full-text share of the fused score. Measured with bench:retrieval: with the builtin embedder the vector list
 * is the weaker one, so it mostly reorders passages the full-text list finds about equally good.
 */
const TEXT_WEIGHT = 0.9;
/** How deep each list is read before fusing. */
const CANDIDATES = 50;

/** Scales a list's (positive) scores by its best one, so that lists of different scales can be added. */
function normalized(items: RankedPassage[]): Map<string, number> {
  const max = Math.max(...items.map((i) => i.score)) || 1;
  return new Map(items.map((i) => [i.passageId, Math.max(0, i.score) / max]));
}

/**
 * Fuses by normalised score: a weighted sum of each list's scores scaled by its best (absent from a list counts 0).
 * Unlike pure rank fusion, a clear lead in the stronger list survives a weak list's disagreement.
 */
export function fuseByScore(
  text: RankedPassage[],
  vector: RankedPassage[],
  textWeight: number,
  limit: number,
) {
  const t = normalized(text);
  const v = normalized(vector);
  const ids = new Set([...t.keys(), ...v.keys()]);
  return [...ids]
    .map((passageId) => ({
      passageId,
      score: textWeight * (t.get(passageId) ?? 0) + (1 - textWeight) * (v.get(passageId) ?? 0),
    }))
    .sort((a, b) => b.score - a.score || a.passageId.localeCompare(b.passageId))
    .slice(0, limit);
}

/**
 * The embedder that made the active index's vectors: the installation's own, or, while a changed embedder's index
 * is still being built, the previous builtin one (other previous embedders cannot be rebuilt from the signature, and
 * search then uses full text alone until the switch).
 */
function queryEmbedderFor(index: EmbeddingIndex, embedder: Embedder): Embedder | null {
  if (index.signature === embedder.signature) return embedder;
  const builtin = /^builtin-v1:(\d+)$/.exec(index.signature);
  return builtin ? new BuiltinEmbedder(Number(builtin[1])) : null;
}

/**
 * The hybrid floor when no full-text hit passed its floor. The vector list alone cannot tell a nonsense word from a
 * real match: with the builtin embedder, random letter strings reach the similarity of German questions to their
 * English passages (bench:retrieval). So it may answer alone only when the question matched no word of the scope at
 * all (it may be in another language than the documents) and reads as a sentence: at least three words, one of them
 * a function word of one of the interface languages. A question whose words the documents hold only as common words
 * asks something they do not contain, and one word nobody wrote ("Flurbelwanze") is not a question to guess at.
 */
function mayAnswerByVectorsAlone(query: string, textMatched: number): boolean {
  if (textMatched > 0) return false;
  const words = tokenize(query);
  return words.length >= 3 && words.some((w) => STOPWORDS.has(w));
}

export interface SearchOptions {
  limit: number;
  mode: SearchMode;
  /** Scopes up to this many passages are scanned exactly (VECTOR_EXACT_SCAN_MAX). */
  exactScanMax?: number;
  /** Force an exact vector scan (benchmarks compare it with the HNSW index). */
  forceExact?: boolean;
  /** `false` switches the full-text and hybrid relevance floors off (benchmarks measure what they change). */
  floor?: boolean;
  /** The question in the passages' languages (`translateQuestion`): searched beside its own words. */
  translations?: QueryTranslation[];
  /** The scope's languages when the caller read them already (`scopeLanguages`). */
  languages?: ScopeLanguage[];
}

/**
 * Ranked passage ids for a query within a scope: full text, vectors, or both fused by rank. The one place where a
 * question's text becomes what the full-text search looks for (`searchQuery`: fillers out, compounds' parts, sizes);
 * a question in another language than the documents brings its translations (`options.translations`), searched as
 * groups of alternatives beside it.
 */
export async function rankPassages(
  db: DbOrTx,
  embedder: Embedder,
  scope: SearchScope,
  query: string,
  options: SearchOptions,
): Promise<RankedPassage[]> {
  const depth = Math.max(CANDIDATES, options.limit);
  const translations = options.translations ?? [];
  // The embedder reads the question with its best translations: a multilingual model needs none, a builtin one
  // finds passages in the documents' language only through their words.
  const vectorQuery = [query, ...translations.map(translationText)].join('\n');
  const wantText = options.mode !== 'vector';
  const wantVector = options.mode !== 'fulltext';
  const vectorList = async (knownSize: number | null, retried = false): Promise<RankedPassage[]> => {
    const index = await searchIndex(db, { fresh: retried });
    const queryEmbedder = index ? queryEmbedderFor(index, embedder) : null;
    if (!index || !queryEmbedder) return [];
    const [vector] = await queryEmbedder.embed([vectorQuery], 'query');
    const size = knownSize ?? (await scopeSize(db, scope));
    if (size === 0) return [];
    const nearest = await vectorSearch(db, scope, index, vector!, depth, {
      scopeSize: size,
      exactScanMax: options.exactScanMax,
      forceExact: options.forceExact,
    });
    // A switch-over between reading the index and searching it retires its vectors: search the new one instead.
    if (nearest.length === 0 && !retried && (await searchIndex(db, { fresh: true }))?.id !== index.id)
      return vectorList(size, true);
    return nearest.filter((n) => n.score >= queryEmbedder.minSimilarity);
  };
  const floor = options.floor !== false;
  const fullText = wantText
    ? await fullTextSearch(
        db,
        scope,
        searchQuery(query),
        depth,
        floor ? undefined : null,
        translations,
        options.languages?.map((l) => l.language),
      )
    : { hits: [], matched: 0, scopePassages: null };
  const text = fullText.hits;
  if (options.mode === 'fulltext') return text.slice(0, options.limit);
  if (
    options.mode === 'hybrid' &&
    floor &&
    text.length === 0 &&
    !mayAnswerByVectorsAlone(query, fullText.matched)
  )
    return [];
  const vector = wantVector ? await vectorList(fullText.scopePassages) : [];
  if (options.mode === 'vector') return vector.slice(0, options.limit);
  return fuseByScore(text, vector, TEXT_WEIGHT, options.limit);
}

/**
 * Search hits with their file, division, page, heading path and text, in rank order. A file published again between
 * ranking and reading deletes the passages ranked (its old generation, in the publishing transaction): the search
 * then ranks once more, against the new ones.
 */
export async function searchPassages(
  db: DbOrTx,
  embedder: Embedder,
  scope: SearchScope,
  query: string,
  options: SearchOptions,
  retried = false,
): Promise<SearchHit[]> {
  const ranked = await rankPassages(db, embedder, scope, query, options);
  if (ranked.length === 0) return [];
  const { rows } = await db.execute<{
    id: string;
    file_id: string;
    file_name: string;
    mime_type: string;
    division_id: string;
    division_name: string;
    page: number | null;
    heading_path: string[];
    text: string;
  }>(sql`
    select p.id, p.file_id, f.name as file_name, f.mime_type, p.division_id, d.name as division_name, p.page,
           p.heading_path, p.text
    from passages p join files f on f.id = p.file_id join divisions d on d.id = p.division_id
    where p.id = any(${sql.param(ranked.map((r) => r.passageId))}::uuid[]) and p.company_id = ${scope.companyId}`);
  if (rows.length < ranked.length && !retried)
    return searchPassages(db, embedder, scope, query, options, true);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ranked.flatMap((r) => {
    const row = byId.get(r.passageId);
    if (!row) return [];
    return [
      {
        passageId: row.id,
        fileId: row.file_id,
        fileName: row.file_name,
        mimeType: row.mime_type,
        divisionId: row.division_id,
        divisionName: row.division_name,
        page: row.page,
        headingPath: row.heading_path,
        text: row.text,
        score: r.score,
      },
    ];
  });
}
