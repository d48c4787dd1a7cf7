import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { removeStored } from '../../core/remove-stored.ts';
import type { TextConfig } from '../../db/schema/index.ts';
import { defineJob, type JobRun } from '../../jobs/job-definition.ts';
import { defineSweepJob } from '../../jobs/sweep-job.ts';
import { currentIndex } from '../embedding/embedding-index.ts';
import { queueGraphJob } from '../embedding/graph.job.ts';
import { detectLanguage, textConfigFor } from '../search/language.ts';
import { queueKnowledgeAnalysis } from './analyze.job.ts';
import { type Chunk, chunkBlocks } from './chunker.ts';
import { ExtractionError } from './extract/blocks.ts';
import {
  deleteFileOfCompany,
  filesWithoutJob,
  publishRun,
  unfinishedFilesAhead,
} from './file-runs.queries.ts';
import { enterStep, type FileRow, failRun, finishSteps, loadRun, setProgress } from './file-state.ts';
import { companyOcrPacks } from './ocr-languages.ts';
import { deleteOtherGenerations, nextOrdinal } from './passage-batches.queries.ts';
import { indexText, PASSAGE_FORMAT, writePassageBatch } from './passage-writer.ts';
import { notifyIfUploadFinished } from './upload-mail.ts';

const payload = z.object({ fileId: z.uuid(), generation: z.number().int() });
/**
 * Passages per statement: large enough that statements are few (on PGlite 512 per statement wrote 1,536 passages
 * about a third faster than 128), small enough that other files' writes get their turn.
 */
export const PASSAGE_BATCH = 512;
/** Passages per embedder call (an embeddings API takes a limited number of inputs per request). */
const EMBED_BATCH = 128;

async function embedAll(ctx: AppContext, texts: string[]): Promise<number[][]> {
  const vectors: number[][] = [];
  for (let i = 0; i < texts.length; i += EMBED_BATCH) {
    vectors.push(...(await ctx.embedder.embed(texts.slice(i, i + EMBED_BATCH), 'passage')));
  }
  return vectors;
}

interface ChunkArtifact {
  textConfig: TextConfig;
  chunks: Chunk[];
}

/**
 * Queues a step of a file's run, fairly between companies: pg-boss takes higher priorities first, and a file's
 * priority is minus the number of its own company's unfinished files ahead of it. So the first file of every company
 * ranks alike, and one company's large upload queues behind itself instead of in front of everyone else.
 */
export async function sendFileStep(
  ctx: AppContext,
  job: typeof extractFileJob | typeof indexFileJob,
  fileId: string,
  generation: number,
): Promise<void> {
  // Called once the file's state is committed: a failed send is the files' sweep's (`resumeFilesJob`).
  await ctx.jobs.sendAfterCommit(
    job,
    { fileId, generation },
    async () => ({ priority: -(await unfinishedFilesAhead(ctx.db, fileId)) }),
    { fileId },
  );
}

const artifactKey = (file: { id: string; processingGeneration: number }) =>
  `work/${file.id}-${file.processingGeneration}.chunks.json`;

/** Ends a run that cannot succeed: reason codes from the parser at once, anything else after the last retry. */
async function handleFailure(ctx: AppContext, file: FileRow, error: unknown, run: JobRun): Promise<void> {
  // Handed back by a stopping worker (its parser killed, its pool closing): the run goes on elsewhere.
  if (run.signal.aborted) return;
  if (error instanceof ExtractionError) {
    await failRun(ctx, file, error.code, error.message);
  } else if (run.isFinalAttempt) {
    await failRun(ctx, file, 'FILE_PROCESSING_FAILED', (error as Error)?.message);
  } else throw error;
  await removeStored(ctx, [artifactKey(file)], 'processing work file');
  await notifyIfUploadFinished(ctx, file.uploadId);
}

/** Step 1 and 2: text and structure from the parser process, then passages cut along the structure. */
export const extractFileJob = defineJob({
  name: 'file.extract',
  schema: payload,
  // One file per parser process at a time.
  concurrency: (ctx) => ctx.parser.size,
  retryLimit: 3,
  retryDelaySeconds: 5,
  expireInSeconds: 15 * 60,
  async handler({ fileId, generation }, ctx, run) {
    const file = await loadRun(ctx, fileId, generation);
    if (!file) return;
    try {
      if (!(await enterStep(ctx, file, 'extracting', 5))) return;
      const languages = await companyOcrPacks(ctx, file.companyId);
      const extracted = await ctx.storage.withLocalFile(file.storageKey, (path) =>
        ctx.parser.extract(path, file.kind, {
          ocr: {
            tesseractPath: ctx.config.OCR_TESSERACT_PATH,
            pdftoppmPath: ctx.config.OCR_PDFTOPPM_PATH,
            languages,
            maxPages: ctx.config.OCR_MAX_PAGES,
            // Below the parser's own limit, so that an OCR program is stopped before the parser is.
            timeoutMs: Math.round(ctx.config.PARSER_TIMEOUT_SECONDS * 900),
          },
          // OCR reports each page: the extracting step runs from 5 to 25 percent.
          onProgress: (done, total) => {
            setProgress(ctx, file, 5 + Math.floor((20 * done) / Math.max(1, total))).catch(() => {});
          },
        }),
      );
      const sample = extracted.blocks
        .map((b) => (b.kind === 'table' ? b.rows.flat().join(' ') : b.text))
        .join('\n')
        .slice(0, 20_000);
      const language = detectLanguage(sample);
      const ocr = {
        ocrPages: extracted.ocr?.pages ?? null,
        ocrConfidence: extracted.ocr?.meanConfidence ?? null,
      };
      if (!(await enterStep(ctx, file, 'chunking', 25, { pageCount: extracted.pageCount, language, ...ocr })))
        return;
      const chunks = chunkBlocks(extracted.blocks);
      const artifact: ChunkArtifact = { textConfig: textConfigFor(language), chunks };
      await ctx.storage.writeJson(artifactKey(file), artifact);
      if (!(await enterStep(ctx, file, 'embedding', 30))) return;
      await sendFileStep(ctx, indexFileJob, fileId, generation);
    } catch (error) {
      await handleFailure(ctx, file, error, run);
    }
  },
});

/**
 * Step 3 and 4: vectors and passages written in batches under the run's generation (a retry continues after the
 * last whole batch), then published at once: the file's active generation flips, older passages go, and an older
 * version of the same file is deleted in the same transaction.
 */
export const indexFileJob = defineJob({
  name: 'file.index',
  schema: payload,
  concurrency: (ctx) => ctx.config.INDEX_WORKERS,
  retryLimit: 5,
  retryDelaySeconds: 5,
  expireInSeconds: 10 * 60,
  async handler({ fileId, generation }, ctx, run) {
    const file = await loadRun(ctx, fileId, generation);
    if (!file) return;
    try {
      const artifact = await ctx.storage.readJson<ChunkArtifact>(artifactKey(file));
      if (!artifact) {
        // The chunks were lost (e.g. a restore without the work folder): extract again.
        await sendFileStep(ctx, extractFileJob, fileId, generation);
        return;
      }
      if (file.status !== 'embedding' && file.status !== 'indexing') {
        if (!(await enterStep(ctx, file, 'embedding', 30))) return;
      }
      const index = await currentIndex(ctx);
      const chunks = artifact.chunks;
      for (
        let start = await nextOrdinal(ctx.db, fileId, generation);
        start < chunks.length;
        start += PASSAGE_BATCH
      ) {
        const batch = chunks.slice(start, start + PASSAGE_BATCH);
        const vectors = index ? await embedAll(ctx, batch.map(indexText)) : null;
        // Between batches: stop when the file was cancelled or deleted meanwhile, or the job was handed back.
        const still = await loadRun(ctx, fileId, generation);
        if (!still || run.signal.aborted) return;
        await writePassageBatch(ctx.db, {
          fileId,
          companyId: file.companyId,
          divisionId: file.divisionId,
          generation,
          textConfig: artifact.textConfig,
          firstOrdinal: start,
          chunks: batch,
          embeddings: index && vectors ? { indexId: index.id, vectors } : undefined,
        });
        await setProgress(
          ctx,
          file,
          30 + Math.round((60 * Math.min(chunks.length, start + batch.length)) / Math.max(1, chunks.length)),
        );
      }
      if (!(await enterStep(ctx, file, 'indexing', 95))) return;
      const published = await publish(ctx, file);
      if (!published) return;
      await removeStored(ctx, [artifactKey(file)], 'processing work file');
      await removeStored(ctx, [published.replacedKey], 'original of a replaced file');
      await notifyIfUploadFinished(ctx, file.uploadId);
      await queueKnowledgeAnalysis(ctx);
      await queueGraphJob(ctx);
    } catch (error) {
      await handleFailure(ctx, file, error, run);
    }
  },
});

async function publish(ctx: AppContext, file: FileRow): Promise<{ replacedKey: string | null } | null> {
  return ctx.db.transaction(async (tx) => {
    const steps = finishSteps(file.steps);
    if (!(await publishRun(tx, file, steps, PASSAGE_FORMAT))) return null;
    await deleteOtherGenerations(tx, file.id, file.processingGeneration);
    const replacedKey = file.replacesFileId
      ? await deleteFileOfCompany(tx, file.companyId, file.replacesFileId)
      : null;
    return { replacedKey };
  });
}

/**
 * Re-queues files whose next step was never queued (the process stopped between a state change and the send, or the
 * send failed). `settledSeconds`: only files unchanged that long, so that a file whose step is being queued right now
 * is not queued twice (the sweep); at start, every one. Returns how many.
 */
export async function resumeStrandedFiles(ctx: AppContext, settledSeconds = 0): Promise<number> {
  const rows = await filesWithoutJob(ctx.db, [extractFileJob.name, indexFileJob.name], settledSeconds);
  for (const row of rows) {
    const job = row.status === 'embedding' || row.status === 'indexing' ? indexFileJob : extractFileJob;
    await sendFileStep(ctx, job, row.id, row.generation);
  }
  return rows.length;
}

/** The sweep takes a file without a job once its state has not changed for this long. */
export const SETTLED_SECONDS = 60;

/** The files' sweep, so that a file whose step was not queued does not wait for a restart. */
export const resumeFilesJob = defineSweepJob(
  'file.resume',
  (ctx) => resumeStrandedFiles(ctx, SETTLED_SECONDS),
  'queued file steps again whose job was missing',
);
