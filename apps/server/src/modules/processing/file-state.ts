import type { FileFailureCode, FileStatus, ProcessingStep } from '@werkwissen/shared';
import type { AppContext } from '../../app-context.ts';
import type { StepTimes } from '../../db/schema/index.ts';
import { type FileRow, failActiveRun, fileById, updateActiveRun } from './file-runs.queries.ts';
import { deleteUnpublished } from './passage-batches.queries.ts';

export type { FileRow };

/** The file as a step of one run sees it, or null when the run is stale (deleted, cancelled or superseded). */
export async function loadRun(ctx: AppContext, fileId: string, generation: number): Promise<FileRow | null> {
  const file = await fileById(ctx.db, fileId);
  if (!file || file.processingGeneration !== generation) return null;
  if (file.status === 'cancelled' || file.status === 'failed' || file.status === 'ready') return null;
  return file;
}

/** Moves a run to a step: records when the step started and when the previous one finished. */
export async function enterStep(
  ctx: AppContext,
  file: FileRow,
  step: ProcessingStep,
  progress: number,
  extra: Partial<Pick<FileRow, 'pageCount' | 'language' | 'ocrPages' | 'ocrConfidence'>> = {},
): Promise<boolean> {
  const now = new Date().toISOString();
  const steps: StepTimes = { ...file.steps };
  for (const [name, times] of Object.entries(steps)) {
    if (times && !times.finishedAt && name !== step) times.finishedAt = now;
  }
  if (!steps[step] || steps[step]!.finishedAt) steps[step] = { startedAt: now, finishedAt: null };
  const entered = await updateActiveRun(ctx.db, file, {
    status: step,
    progress,
    steps,
    updatedAt: new Date(),
    ...extra,
  });
  if (entered) {
    file.status = step;
    file.steps = steps;
  }
  return entered;
}

export async function setProgress(ctx: AppContext, file: FileRow, progress: number): Promise<void> {
  await updateActiveRun(ctx.db, file, { progress });
}

/** Ends a run as failed with its reason; the passages it had written (never published) are removed. */
export async function failRun(
  ctx: AppContext,
  file: FileRow,
  code: FileFailureCode,
  detail: string | undefined,
): Promise<void> {
  const steps = finishSteps(file.steps);
  await ctx.db.transaction(async (tx) => {
    const failed = await failActiveRun(tx, file, { code, detail: detail?.slice(0, 1000) ?? null, steps });
    if (failed) await deleteUnpublished(tx, file.id);
  });
}

export function finishSteps(steps: StepTimes): StepTimes {
  const now = new Date().toISOString();
  const out: StepTimes = {};
  for (const [name, times] of Object.entries(steps) as Array<[ProcessingStep, StepTimes[ProcessingStep]]>) {
    if (times) out[name] = { startedAt: times.startedAt, finishedAt: times.finishedAt ?? now };
  }
  return out;
}

export const isFinal = (status: FileStatus) =>
  status === 'ready' || status === 'failed' || status === 'cancelled';
