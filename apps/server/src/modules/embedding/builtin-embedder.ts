import { type Embedder, type EmbedPurpose, l2normalize } from './embedder.ts';
import { STOPWORDS } from './stopwords.ts';

/** FNV-1a, 32 bit. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

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

  constructor(private readonly dims: number) {
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
    const counts = new Map<string, number>();
    const bump = (feature: string, weight: number) =>
      counts.set(feature, (counts.get(feature) ?? 0) + weight);
    const tokens = tokenize(text).filter((t) => !STOPWORDS.has(t));
    for (const token of tokens) {
      const folded = [...token].map((c) => FOLD[c] ?? c).join('');
      bump(`w:${folded}`, 1);
      const padded = `<${folded}>`;
      const grams = Math.max(1, padded.length - 2);
      for (let n = 3; n <= 5; n++) {
        for (let i = 0; i + n <= padded.length; i++) bump(`g:${padded.slice(i, i + n)}`, 1.5 / grams);
      }
    }
    for (let i = 0; i + 1 < tokens.length; i++) bump(`b:${tokens[i]} ${tokens[i + 1]}`, 0.5);
    for (const [feature, weight] of counts) {
      const h = hash(feature);
      // Sublinear term frequency: a word said ten times is not ten times as telling.
      v[h % this.dims]! += (h & 0x80000000 ? -1 : 1) * Math.log1p(weight);
    }
    return l2normalize(v);
  }
}
