import type { ServerConfig } from '../../config/load-config.ts';
import { BuiltinEmbedder } from './builtin-embedder.ts';
import type { Embedder } from './embedder.ts';
import { OpenAiEmbedder } from './openai-embedder.ts';
import { TransformersEmbedder } from './transformers-embedder.ts';

/** The installation's embedder, from EMBEDDER and its settings; `fetch` applies the outbound policy. */
export function createEmbedder(
  config: ServerConfig,
  fetch: typeof globalThis.fetch = globalThis.fetch,
): Embedder {
  switch (config.EMBEDDER) {
    case 'openai':
      return new OpenAiEmbedder(config.EMBEDDER_URL!, config.EMBEDDER_MODEL!, config.EMBEDDER_API_KEY, {
        fetch,
      });
    case 'transformers':
      return new TransformersEmbedder(config.EMBEDDER_MODEL!);
    default:
      return new BuiltinEmbedder(config.EMBEDDER_DIMENSIONS);
  }
}
