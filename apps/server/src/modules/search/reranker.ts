import type { SearchHit } from '@werkwissen/shared';

/**
 * An optional reranking service the operator configures (RERANKER_URL): a cross-encoder that reads the question with
 * each candidate passage and scores how well the passage answers it, far better than the word and vector scores the
 * search ranks by. Spoken protocol: the `/rerank` endpoint of Jina, Cohere, vLLM and llama.cpp's server:
 * `POST {model, query, documents: string[], top_n}` → `{results: [{index, relevance_score}]}` (Hugging Face TEI's
 * answer shape, `[{index, score}]`, is read too).
 */
export interface Reranker {
  /** The candidates' indexes, best first (at most `topN`). */
  rerank(query: string, documents: string[], topN: number): Promise<number[]>;
}

/** How long the service may take before the search's own order is kept. */
const TIMEOUT_MS = 10_000;

export class HttpReranker implements Reranker {
  private readonly url: string;
  private readonly model: string | undefined;
  private readonly apiKey: string | undefined;
  private readonly fetch: typeof globalThis.fetch;
  private readonly timeoutMs: number;
  constructor(
    url: string,
    model: string | undefined,
    apiKey: string | undefined,
    fetch: typeof globalThis.fetch,
    timeoutMs = TIMEOUT_MS,
  ) {
    this.timeoutMs = timeoutMs;
    this.url = url;
    this.model = model;
    this.apiKey = apiKey;
    this.fetch = fetch;
  }

  async rerank(query: string, documents: string[], topN: number): Promise<number[]> {
    const res = await this.fetch(this.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
      },
      body: JSON.stringify({
        ...(this.model ? { model: this.model } : {}),
        query,
        documents,
        top_n: topN,
        return_documents: false,
      }),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!res.ok) {
      const body = await res.text().catch(() => '');
      throw new Error(`reranking service answered ${res.status}: ${body.slice(0, 300)}`);
    }
    const json = (await res.json()) as unknown;
    const results = Array.isArray(json) ? json : (json as { results?: unknown }).results;
    if (!Array.isArray(results)) throw new Error('reranking service answered without results');
    const scored = results.flatMap((r: { index?: unknown; relevance_score?: unknown; score?: unknown }) => {
      const score = typeof r.relevance_score === 'number' ? r.relevance_score : r.score;
      return Number.isInteger(r.index) &&
        (r.index as number) >= 0 &&
        (r.index as number) < documents.length &&
        typeof score === 'number'
        ? [{ index: r.index as number, score }]
        : [];
    });
    return [...new Set(scored.sort((a, b) => b.score - a.score).map((r) => r.index))].slice(0, topN);
  }
}

/** The configured reranking service, or null. */
export function createReranker(
  config: {
    RERANKER_URL?: string | undefined;
    RERANKER_MODEL?: string | undefined;
    RERANKER_API_KEY?: string | undefined;
  },
  fetch: typeof globalThis.fetch,
): Reranker | null {
  return config.RERANKER_URL
    ? new HttpReranker(config.RERANKER_URL, config.RERANKER_MODEL, config.RERANKER_API_KEY, fetch)
    : null;
}

/**
 * The hits in the reranking service's order, `limit` of them; on any failure of the service the search's own order
 * (the answer is still written, from the search's best passages).
 */
export async function rerankHits(
  reranker: Reranker,
  question: string,
  hits: SearchHit[],
  limit: number,
  onError: (error: unknown) => void,
): Promise<SearchHit[]> {
  if (hits.length <= 1) return hits.slice(0, limit);
  try {
    const documents = hits.map((h) => [...h.headingPath, h.text].join('\n'));
    const order = await reranker.rerank(question, documents, limit);
    if (order.length === 0) return hits.slice(0, limit);
    // Scores in the service's order (the answerer weighs a passage by its score over the best one's).
    return order.map((i, rank) => ({ ...hits[i]!, score: (order.length - rank) / order.length }));
  } catch (error) {
    onError(error);
    return hits.slice(0, limit);
  }
}
