/** Why a vector is made: some models embed questions and passages differently (e.g. E5's prefixes). */
export type EmbedPurpose = 'query' | 'passage';

/** Turns texts into vectors of one fixed dimension; one per installation, recorded with the index it builds. */
export interface Embedder {
  /** What must match for two vectors to be comparable, e.g. `builtin:384` or `openai:text-embedding-3-small`. */
  readonly signature: string;
  readonly kind: 'builtin' | 'transformers' | 'openai';
  readonly model: string | null;
  /**
   * Below this cosine similarity a vector neighbour is no match at all (nearest-neighbour search always answers
   * something). Model-free hashed features of unrelated texts score near 0; sentence models differ by model.
   */
  readonly minSimilarity: number;
  dimension(): Promise<number>;
  embed(texts: string[], purpose: EmbedPurpose): Promise<number[][]>;
}

/** A vector in pgvector's text form. */
export const toVectorLiteral = (v: number[]) =>
  `[${v.map((x) => (Number.isFinite(x) ? x.toFixed(6) : '0')).join(',')}]`;

/** `v` scaled to length 1 (indexed loops: iterating a typed array and `Array.from` with a map were a question's hot spot). */
export function l2normalize(v: Float32Array | number[]): number[] {
  const n = v.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum) || 1;
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = v[i]! / norm;
  return out;
}
