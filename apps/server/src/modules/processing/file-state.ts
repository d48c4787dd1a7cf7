import type { FileFailureCode, FileStatus, ProcessingStep } from '@werkwissen/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { files, type StepTimes } from '../../db/schema/index.ts';

export type FileRow = typeof files.$inferSelect;

/** The file as a step of one run sees it, or null when the run is stale (deleted, cancelled or superseded). */
export async function loadRun(ctx: AppContext, fileId: string, generation: number): Promise<FileRow | null> {
  const [file] = await ctx.db.select().from(files).where(eq(files.id, fileId));
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
  const [row] = await ctx.db
    .update(files)
    .set({ status: step, progress, steps, updatedAt: new Date(), ...extra })
    .where(activeRun(file))
    .returning({ id: files.id });
  if (row) {
    file.status = step;
    file.steps = steps;
  }
  return row !== undefined;
}

export async function setProgress(ctx: AppContext, file: FileRow, progress: number): Promise<void> {
  await ctx.db.update(files).set({ progress }).where(activeRun(file));
}

/** The row of this run while it is still running (not cancelled, deleted, or replaced by a newer run). */
export function activeRun(file: { id: string; processingGeneration: number }) {
  return and(
    eq(files.id, file.id),
    eq(files.processingGeneration, file.processingGeneration),
    sql`${files.status} not in ('ready', 'failed', 'cancelled')`,
  );
}

/** Ends a run as failed with its reason; the passages it had written (never published) are removed. */
export async function failRun(
  ctx: AppContext,
  file: FileRow,
  code: FileFailureCode,
  detail: string | undefined,
): Promise<void> {
  const finished = finishSteps(file.steps);
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(files)
      .set({
        status: 'failed',
        errorCode: code,
        errorDetail: detail?.slice(0, 1000) ?? null,
        steps: finished,
        updatedAt: new Date(),
      })
      .where(activeRun(file))
      .returning({ id: files.id });
    if (row) await deleteUnpublished(tx, file.id);
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

/** Passages of a file that are not its published generation. */
export async function deleteUnpublished(
  db: Pick<AppContext['db'], 'execute'>,
  fileId: string,
): Promise<void> {
  await db.execute(sql`
    delete from passages p using files f
    where p.file_id = ${fileId} and f.id = p.file_id
      and (f.active_generation is null or p.generation <> f.active_generation)`);
}

export const isFinal = (status: FileStatus) =>
  status === 'ready' || status === 'failed' || status === 'cancelled';
