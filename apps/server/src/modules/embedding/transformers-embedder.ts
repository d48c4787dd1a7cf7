import { type Embedder, type EmbedPurpose, l2normalize } from './embedder.ts';

/** The part of a transformers.js feature-extraction pipeline we use. */
export type FeaturePipeline = (
  texts: string[],
  options: { pooling: 'mean'; normalize: boolean },
) => Promise<{ tolist(): number[][] }>;

export type PipelineLoader = (model: string) => Promise<FeaturePipeline>;

export const TRANSFORMERS_MISSING =
  'The transformers embedder needs the optional package @huggingface/transformers. Install it with ' +
  '`ONNXRUNTIME_NODE_INSTALL=skip npm install -w apps/server @huggingface/transformers`, or choose EMBEDDER=builtin or openai.';

/** Loads @huggingface/transformers only when this embedder is chosen (it is not part of the default install). */
export const loadTransformersPipeline: PipelineLoader = async (model) => {
  let transformers: {
    env: { allowRemoteModels: boolean; localModelPath: string };
    pipeline: (task: string, model: string) => Promise<FeaturePipeline>;
  };
  try {
    const name = '@huggingface/transformers';
    transformers = await import(/* @vite-ignore */ name);
  } catch {
    throw new Error(TRANSFORMERS_MISSING);
  }
  const isFolder = model.startsWith('/') || model.startsWith('.');
  if (isFolder) transformers.env.allowRemoteModels = false;
  try {
    return await transformers.pipeline('feature-extraction', model);
  } catch (error) {
    throw new Error(
      `The embedding model "${model}" could not be loaded (${(error as Error).message}). Give a model id that can be downloaded on this machine, or a local folder with the ONNX model.`,
    );
  }
};

/** A local ONNX sentence model through transformers.js, by model id or folder. */
export class TransformersEmbedder implements Embedder {
  readonly kind = 'transformers' as const;
  readonly signature: string;
  readonly minSimilarity = 0;
  private pipe: Promise<FeaturePipeline> | null = null;
  private dims: number | null = null;

  readonly model: string;
  private readonly load: PipelineLoader = loadTransformersPipeline;
  constructor(model: string, load: PipelineLoader = loadTransformersPipeline) {
    this.model = model;
    this.load = load;
    this.signature = `transformers:${model}`;
  }

  private pipeline(): Promise<FeaturePipeline> {
    this.pipe ??= this.load(this.model).catch((error) => {
      this.pipe = null;
      throw error;
    });
    return this.pipe;
  }

  async dimension(): Promise<number> {
    this.dims ??= (await this.embed(['dimension probe'], 'query'))[0]!.length;
    return this.dims;
  }

  async embed(texts: string[], purpose: EmbedPurpose): Promise<number[][]> {
    const pipe = await this.pipeline();
    // E5 models expect their prefixes; other sentence models take plain text.
    const prefixed = /e5/i.test(this.model) ? texts.map((t) => `${purpose}: ${t}`) : texts;
    const out: number[][] = [];
    for (let i = 0; i < prefixed.length; i += 16) {
      const tensor = await pipe(prefixed.slice(i, i + 16), { pooling: 'mean', normalize: true });
      out.push(...tensor.tolist().map((v) => l2normalize(v)));
    }
    return out;
  }
}
