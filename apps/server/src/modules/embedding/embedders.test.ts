import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAi, startFakeOpenAi } from '../../../test/support/fake-openai.ts';
import {
  createOutboundFetch,
  hostEntryOf,
  isBlockedByPolicy,
  outboundPolicy,
} from '../outbound/outbound-fetch.ts';
import { BuiltinEmbedder, tokenize } from './builtin-embedder.ts';
import { l2normalize } from './embedder.ts';
import { OpenAiEmbedder } from './openai-embedder.ts';
import { STOPWORDS } from './stopwords.ts';
import {
  loadTransformersPipeline,
  TRANSFORMERS_MISSING,
  TransformersEmbedder,
} from './transformers-embedder.ts';

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('builtin embedder', () => {
  const embedder = new BuiltinEmbedder(384);
  it('is deterministic, normalised and of its dimension', async () => {
    const [a, b] = await embedder.embed(['Heizungsanlage warten', 'Heizungsanlage warten'], 'passage');
    expect(a).toHaveLength(384);
    expect(a).toEqual(b);
    expect(cosine(a!, a!)).toBeCloseTo(1, 5);
  });
  it('lets compounds, inflections and umlauts meet', async () => {
    const [query, compound, unrelated] = await embedder.embed(
      ['Heizung', 'Die Heizungsanlage im Keller', 'Rechnungen der Buchhaltung'],
      'passage',
    );
    expect(cosine(query!, compound!)).toBeGreaterThan(cosine(query!, unrelated!) + 0.1);
    const [haeuser, hauser] = await embedder.embed(['Häuser', 'hauser'], 'query');
    expect(cosine(haeuser!, hauser!)).toBeGreaterThan(0.9);
  });

  /** The embedder as first written: a string per feature, hashed at the end. Its signature promises these vectors. */
  function firstVersion(text: string, dims: number): number[] {
    const fold: Record<string, string> = {
      ä: 'a',
      ö: 'o',
      ü: 'u',
      ß: 'ss',
      é: 'e',
      è: 'e',
      ê: 'e',
      à: 'a',
      ç: 'c',
    };
    Object.assign(fold, { ñ: 'n', ё: 'е', й: 'и', ї: 'і', ґ: 'г' });
    const fnv = (s: string) => {
      let h = 0x811c9dc5;
      for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
      return h >>> 0;
    };
    const counts = new Map<string, number>();
    const bump = (feature: string, weight: number) =>
      counts.set(feature, (counts.get(feature) ?? 0) + weight);
    const tokens = tokenize(text).filter((t) => !STOPWORDS.has(t));
    for (const token of tokens) {
      const folded = [...token].map((c) => fold[c] ?? c).join('');
      bump(`w:${folded}`, 1);
      const padded = `<${folded}>`;
      const grams = Math.max(1, padded.length - 2);
      for (let n = 3; n <= 5; n++)
        for (let i = 0; i + n <= padded.length; i++) bump(`g:${padded.slice(i, i + n)}`, 1.5 / grams);
    }
    for (let i = 0; i + 1 < tokens.length; i++) bump(`b:${tokens[i]} ${tokens[i + 1]}`, 0.5);
    const v = new Float32Array(dims);
    for (const [feature, weight] of counts) {
      const h = fnv(feature);
      v[h % dims]! += (h & 0x80000000 ? -1 : 1) * Math.log1p(weight);
    }
    return l2normalize(v);
  }

  it('gives the very vectors of its first version, so that stored vectors stay comparable', async () => {
    const words =
      'Heizungsanlage Wärmepumpe Straße grüßen Ölkessel über Füße çava niño ёлка йод їжак ґанок'.split(' ');
    const texts = [
      '',
      'a',
      'Die Wärmepumpe im Keller wird jährlich gewartet, der Filter alle drei Monate gereinigt.',
      'الكهرباء والماء في المبنى، إِصلاح المضخة',
      'Ремонт насоса: йод, ёлка, їжак і ґанок',
      'Emoji 😀 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ﬁnal ligature',
      // A long text: thousands of features, more than the embedder's first table holds.
      Array.from({ length: 600 }, (_, i) => `${words[i % words.length]}${i}`).join(' '),
    ];
    const vectors = await embedder.embed(texts, 'passage');
    expect(vectors).toEqual(texts.map((text) => firstVersion(text, 384)));
  });
});

describe('openai-compatible embedder', () => {
  let fake: FakeOpenAi;
  beforeAll(async () => {
    fake = await startFakeOpenAi(16);
  });
  afterAll(() => fake.close());

  it('sends the model and key, batches inputs and keeps their order', async () => {
    const embedder = new OpenAiEmbedder(fake.url, 'text-embedding-3-small', 'sk-test');
    const texts = Array.from({ length: 70 }, (_, i) => `Text Nummer ${i}`);
    const vectors = await embedder.embed(texts, 'passage');
    expect(vectors).toHaveLength(70);
    expect(vectors[69]).toEqual(new BuiltinEmbedder(16).embedOne('Text Nummer 69'));
    expect(fake.requests.map((r) => r.body.input.length)).toEqual([64, 6]);
    expect(fake.requests[0]).toMatchObject({ path: '/v1/embeddings', authorization: 'Bearer sk-test' });
    expect(fake.requests[0]!.body.model).toBe('text-embedding-3-small');
    expect(await embedder.dimension()).toBe(16);
    expect(embedder.signature).toBe(`openai:text-embedding-3-small@${new URL(fake.url).host}`);
  });

  it("obeys the outbound policy, under which the operator's own EMBEDDER_URL host is allowed", async () => {
    const config = { OUTBOUND_ALLOW_PRIVATE: false };
    const denied = createOutboundFetch(outboundPolicy(config));
    const operator = createOutboundFetch(outboundPolicy(config, [hostEntryOf(fake.url)]));
    try {
      const before = fake.requests.length;
      const refused = new OpenAiEmbedder(fake.url, 'm', 'sk-test', { fetch: denied.fetch });
      const error = await refused.embed(['x'], 'query').catch((e: unknown) => e);
      expect(isBlockedByPolicy(error)).toBe(true);
      expect(fake.requests.length).toBe(before);
      const allowed = new OpenAiEmbedder(fake.url, 'm', 'sk-test', { fetch: operator.fetch });
      expect(await allowed.embed(['x'], 'query')).toHaveLength(1);
      expect(fake.requests.length).toBe(before + 1);
    } finally {
      await denied.close();
      await operator.close();
    }
  });

  it('reports an endpoint error with its status', async () => {
    fake.failWith = 503;
    try {
      await expect(new OpenAiEmbedder(fake.url, 'm', undefined).embed(['x'], 'query')).rejects.toThrow(
        /answered 503/,
      );
    } finally {
      fake.failWith = null;
    }
  });
});

describe('transformers embedder', () => {
  it('runs a local pipeline with mean pooling, and E5 prefixes where the model wants them', async () => {
    const seen: string[][] = [];
    const embedder = new TransformersEmbedder('Xenova/multilingual-e5-small', async (model) => {
      expect(model).toBe('Xenova/multilingual-e5-small');
      return async (texts, options) => {
        expect(options).toEqual({ pooling: 'mean', normalize: true });
        seen.push(texts);
        return { tolist: () => texts.map((t) => [t.length, 1, 0]) };
      };
    });
    const [vector] = await embedder.embed(['Heizung'], 'query');
    expect(seen[0]).toEqual(['query: Heizung']);
    expect(vector![0]).toBeCloseTo(14 / Math.hypot(14, 1), 6);
    await embedder.embed(['Heizung'], 'passage');
    expect(seen[1]).toEqual(['passage: Heizung']);
  });

  it('says clearly how to install the optional package when it is absent', async () => {
    await expect(loadTransformersPipeline('Xenova/multilingual-e5-small')).rejects.toThrow(
      TRANSFORMERS_MISSING,
    );
  });
});
