import { type FakeLlm, startFakeLlm } from './fake-llm.ts';

/**
 * The embeddings part of the fake language-model server (`fake-llm.ts`), under its historical name: a local server
 * speaking OpenAI's documented embeddings protocol (`POST /v1/embeddings` → `{ data: [{ index, embedding }], model,
 * usage }`), so that the openai embedder is tested over real HTTP. Its vectors are meaningful (hashed features of the
 * input) so that search over them finds things. `failWith` answers every request with that status. The same server
 * also answers chat completions, model listings and transcriptions (see `FakeLlm`).
 */
export type FakeOpenAi = FakeLlm;

export function startFakeOpenAi(dimension = 16): Promise<FakeOpenAi> {
  return startFakeLlm({ embeddingDimension: dimension });
}
