import type { Embedder, EmbedPurpose } from './embedder.ts';

/**
 * Any OpenAI-compatible embeddings endpoint (OpenAI, Mistral, Ollama, vLLM): `POST {baseUrl}/embeddings`, through the
 * given `fetch` (the server passes one that applies the outbound policy).
 */
export class OpenAiEmbedder implements Embedder {
  readonly kind = 'openai' as const;
  readonly signature: string;
  readonly minSimilarity = 0;
  private dims: number | null = null;
  private readonly timeoutMs: number;
  private readonly fetch: typeof globalThis.fetch;

  private readonly baseUrl: string;
  readonly model: string;
  private readonly apiKey: string | undefined;
  constructor(
    baseUrl: string,
    model: string,
    apiKey: string | undefined,
    options: { timeoutMs?: number; fetch?: typeof globalThis.fetch } = {},
  ) {
    this.baseUrl = baseUrl;
    this.model = model;
    this.apiKey = apiKey;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.fetch = options.fetch ?? globalThis.fetch;
    this.signature = `openai:${model}@${new URL(baseUrl).host}`;
  }

  async dimension(): Promise<number> {
    this.dims ??= (await this.embed(['dimension probe'], 'query'))[0]!.length;
    return this.dims;
  }

  async embed(texts: string[], _purpose: EmbedPurpose): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += 64) {
      const batch = texts.slice(i, i + 64);
      const res = await this.fetch(`${this.baseUrl.replace(/\/$/, '')}/embeddings`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: this.model, input: batch, encoding_format: 'float' }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!res.ok) {
        const body = await res.text().catch(() => '');
        throw new Error(`embeddings endpoint answered ${res.status}: ${body.slice(0, 300)}`);
      }
      const json = (await res.json()) as { data?: Array<{ index: number; embedding: number[] }> };
      if (!Array.isArray(json.data) || json.data.length !== batch.length) {
        throw new Error('embeddings endpoint answered without one embedding per input');
      }
      const sorted = [...json.data].sort((a, b) => a.index - b.index);
      out.push(...sorted.map((d) => d.embedding));
    }
    return out;
  }
}
