import { type Embedder, type EmbedPurpose, l2normalize } from './embedder.ts';
import { STOPWORDS } from './stopwords.ts';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a, 32 bit, of `s[from, to)` (UTF-16 code units), continuing from the state `h` (of a prefix). */
function fnv(h: number, s: string, from = 0, to = s.length): number {
  for (let i = from; i < to; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME);
  }
  return h;
}

// The states after each feature kind's prefix: a feature's hash is the hash of "w:word", "g:gram" or "b:one two".
const WORD = fnv(FNV_OFFSET, 'w:');
const GRAM = fnv(FNV_OFFSET, 'g:');
const BIGRAM = fnv(FNV_OFFSET, 'b:');
const SPACE = ' '.charCodeAt(0);

const FOLD: Record<string, string> = {
  ä: 'a',
  ö: 'o',
  ü: 'u',
  ß: 'ss',
  é: 'e',
  è: 'e',
  ê: 'e',
  à: 'a',
  ç: 'c',
  ñ: 'n',
  ё: 'е',
  й: 'и',
  ї: 'і',
  ґ: 'г',
};

/** The letters FOLD replaces, to find them in a word at once. */
const FOLDED = new RegExp(`[${Object.keys(FOLD).join('')}]`, 'g');

export function tokenize(text: string): string[] {
  const lower = text.normalize('NFKC').toLowerCase();
  // Arabic: drop diacritics and tatweel, unify alef forms.
  const cleaned = lower
    .replace(/[\u064b-\u065f\u0670\u0640]/g, '')
    .replace(/[أإآ]/g, 'ا')
    .replace(/ى/g, 'ي')
    .replace(/ة/g, 'ه');
  return cleaned.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Weights by feature hash, in the order features were first seen (the order their weights are added to the vector,
 * which fixes the vector to the last bit): an open-addressing table of typed arrays, reused for every text.
 */
class FeatureWeights {
  private capacity = 4096;
  private keys = new Int32Array(this.capacity);
  private weights = new Float64Array(this.capacity);
  private used = new Uint8Array(this.capacity);
  private order = new Int32Array(this.capacity);
  size = 0;

  add(hash: number, weight: number): void {
    if (this.size * 2 >= this.capacity) this.grow();
    const mask = this.capacity - 1;
    let slot = (Math.imul(hash, 0x9e3779b1) >>> 0) & mask;
    while (this.used[slot]) {
      if (this.keys[slot] === hash) {
        this.weights[slot]! += weight;
        return;
      }
      slot = (slot + 1) & mask;
    }
    this.used[slot] = 1;
    this.keys[slot] = hash;
    this.weights[slot] = weight;
    this.order[this.size++] = slot;
  }

  /** Calls `visit` with each hash (unsigned) and its summed weight, in first-seen order, and empties the table. */
  drain(visit: (hash: number, weight: number) => void): void {
    for (let i = 0; i < this.size; i++) {
      const slot = this.order[i]!;
      visit(this.keys[slot]! >>> 0, this.weights[slot]!);
      this.used[slot] = 0;
    }
    this.size = 0;
  }

  private grow(): void {
    const entries = Array.from(this.order.subarray(0, this.size), (slot) => [
      this.keys[slot]!,
      this.weights[slot]!,
    ]);
    this.capacity *= 2;
    this.keys = new Int32Array(this.capacity);
    this.weights = new Float64Array(this.capacity);
    this.used = new Uint8Array(this.capacity);
    this.order = new Int32Array(this.capacity);
    this.size = 0;
    for (const [hash, weight] of entries) this.add(hash!, weight!);
  }
}

/**
 * The model-free default: feature hashing of words and character n-grams into a fixed dimension, with signs from
 * the hash so that collisions cancel out on average. Character 3- to 5-grams let German compounds and inflections
 * meet ("Heizungsanlage" and "Heizung"), and folded diacritics let "Häuser" meet "hauser". Works offline, needs no
 * download, and is deterministic: the same text always gives the same vector.
 */
export class BuiltinEmbedder implements Embedder {
  readonly kind = 'builtin' as const;
  readonly model = null;
  readonly signature: string;
  readonly minSimilarity = 0.1;
  private readonly counts = new FeatureWeights();
  /** A word's character n-gram hashes, reused from word to word. */
  private hashes = new Int32Array(96);

  private readonly dims: number;
  constructor(dims: number) {
    this.dims = dims;
    this.signature = `builtin-v1:${dims}`;
  }

  async dimension(): Promise<number> {
    return this.dims;
  }

  async embed(texts: string[], _purpose: EmbedPurpose): Promise<number[][]> {
    return texts.map((t) => this.embedOne(t));
  }

  embedOne(text: string): number[] {
    const v = new Float32Array(this.dims);
    // Features are counted by their hash, computed from the text in place: no string per feature. Distinct features
    // whose 32-bit hashes are equal would share a count, as they share a dimension anyway.
    const counts = this.counts;
    const bump = (h: number, weight: number) => counts.add(h, weight);
    const tokens = tokenize(text).filter((t) => !STOPWORDS.has(t));
    for (const token of tokens) {
      const folded = token.replace(FOLDED, (c) => FOLD[c]!);
      bump(fnv(WORD, folded), 1);
      const padded = `<${folded}>`;
      const grams = Math.max(1, padded.length - 2);
      // The 4- and 5-gram at a position continue its 3-gram's hash; they are counted in the same order as ever
      // (every 3-gram, then every 4-gram, then every 5-gram).
      const starts = padded.length - 2;
      if (this.hashes.length < 3 * starts) this.hashes = new Int32Array(3 * starts);
      const hashes = this.hashes;
      for (let i = 0; i < starts; i++) {
        const three = fnv(GRAM, padded, i, i + 3);
        hashes[i] = three;
        if (i + 4 > padded.length) continue;
        const four = fnv(three, padded, i + 3, i + 4);
        hashes[starts + i] = four;
        if (i + 5 <= padded.length) hashes[2 * starts + i] = fnv(four, padded, i + 4, i + 5);
      }
      for (let n = 3; n <= 5; n++) {
        for (let i = 0; i + n <= padded.length; i++) bump(hashes[(n - 3) * starts + i]!, 1.5 / grams);
      }
    }
    for (let i = 0; i + 1 < tokens.length; i++) {
      const first = Math.imul(fnv(BIGRAM, tokens[i]!) ^ SPACE, FNV_PRIME);
      bump(fnv(first, tokens[i + 1]!), 0.5);
    }
    counts.drain((h, weight) => {
      // Sublinear term frequency: a word said ten times is not ten times as telling.
      v[h % this.dims]! += (h & 0x80000000 ? -1 : 1) * Math.log1p(weight);
    });
    return l2normalize(v);
  }
}
