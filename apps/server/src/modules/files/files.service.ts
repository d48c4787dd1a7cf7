import type { Action, FileStatus, KnowledgeFile, Language } from '@werkwissen/shared';
import { divisionAccess } from '../../access/division.access.ts';
import { fileAccess } from '../../access/file.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { removeStored } from '../../core/remove-stored.ts';
import { containsPattern } from '../../db/like.ts';
import { queueKnowledgeAnalysis } from '../processing/analyze.job.ts';
import { cancelRunningFile, restartFile } from '../processing/file-runs.queries.ts';
import { finishSteps, isFinal } from '../processing/file-state.ts';
import { deleteUnpublished } from '../processing/passage-batches.queries.ts';
import { extractFileJob, sendFileStep } from '../processing/process-file.jobs.ts';
import { notifyIfUploadFinished } from '../processing/upload-mail.ts';
import { presentAdminFile, presentFile } from './files.presenter.ts';
import {
  adminFilePage,
  deleteUploadedFile,
  divisionFilePage,
  type FileFilter,
  fileWithNames,
  readableDivision,
} from './files.queries.ts';

interface ListQuery {
  page: number;
  pageSize: number;
  q?: string;
  sort?: string;
  status?: FileStatus;
}

const filterOf = (query: ListQuery): FileFilter => ({
  status: query.status,
  pattern: query.q ? containsPattern(query.q) : undefined,
  sort: query.sort,
  page: query.page,
  pageSize: query.pageSize,
});

export async function listFiles(
  ctx: AppContext,
  actor: Actor,
  divisionId: string,
  query: ListQuery,
  lang: Language,
) {
  if (!(await readableDivision(ctx.db, divisionId, divisionAccess.where(actor, 'read')))) throw notFound();
  const { items, total } = await divisionFilePage(
    ctx.db,
    divisionId,
    fileAccess.where(actor, 'read'),
    filterOf(query),
  );
  return {
    items: items.map((r) => presentFile(r, lang)),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/**
 * The processing table: every company's files, for the back office (its route needs `read admin`). It shows what is
 * being processed where, not the files themselves, so File rules do not narrow it; company isolation still does (a
 * company user granted the back office sees their own company's files only).
 */
export async function adminListFiles(ctx: AppContext, actor: Actor, query: ListQuery, lang: Language) {
  const { items, total } = await adminFilePage(ctx.db, fileAccess.isolated(actor), filterOf(query));
  return {
    items: items.map((r) => presentAdminFile(r, lang)),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/**
 * One file the actor may `action` (by default read): 404 when they may not read it (another company's, a division
 * they may not read), 403 when they may read but not `action` it.
 */
export async function loadVisibleFile(
  ctx: AppContext,
  actor: Actor,
  fileId: string,
  action: Action = 'read',
) {
  if (action !== 'read') await fileAccess.authorize(ctx.db, actor, action, fileId);
  const row = await fileWithNames(ctx.db, fileId, fileAccess.where(actor, action));
  if (!row) throw notFound();
  return row;
}

export async function getFile(
  ctx: AppContext,
  actor: Actor,
  fileId: string,
  lang: Language,
): Promise<KnowledgeFile> {
  return presentFile(await loadVisibleFile(ctx, actor, fileId), lang);
}

/**
 * Starts a new run of a file: a failed or cancelled file is processed again; a ready file is reprocessed while its
 * published passages keep answering until the new run is published.
 */
export async function retryFile(ctx: AppContext, actor: Actor, fileId: string, lang: Language) {
  const { file } = await loadVisibleFile(ctx, actor, fileId, 'update');
  if (!isFinal(file.status)) throw new AppError('FILE_NOT_RETRYABLE');
  const generation = await restartFile(ctx.db, fileId, file.status);
  if (generation === null) throw new AppError('FILE_NOT_RETRYABLE');
  await sendFileStep(ctx, extractFileJob, fileId, generation);
  return getFile(ctx, actor, fileId, lang);
}

/** Stops a run: the job notices between steps and batches; what it wrote is removed here at once. */
export async function cancelFile(ctx: AppContext, actor: Actor, fileId: string, lang: Language) {
  const { file } = await loadVisibleFile(ctx, actor, fileId, 'update');
  if (isFinal(file.status)) throw new AppError('FILE_NOT_CANCELLABLE');
  const cancelled = await ctx.db.transaction(async (tx) => {
    const done = await cancelRunningFile(tx, fileId, finishSteps(file.steps));
    if (done) await deleteUnpublished(tx, fileId);
    return done;
  });
  if (!cancelled) throw new AppError('FILE_NOT_CANCELLABLE');
  await notifyIfUploadFinished(ctx, file.uploadId);
  return getFile(ctx, actor, fileId, lang);
}

/** Deletes a file and, in the same statement, all its passages and vectors (cascade); then its original. */
export async function deleteFile(ctx: AppContext, actor: Actor, fileId: string): Promise<void> {
  const { file } = await loadVisibleFile(ctx, actor, fileId, 'delete');
  // It would come back with the next sync: deleted at its source instead.
  if (file.connectorId) throw new AppError('FILE_SYNCED');
  const key = await deleteUploadedFile(ctx.db, file.companyId, fileId);
  if (key === null) throw notFound();
  await removeStored(ctx, [key], 'original of a deleted file');
  await notifyIfUploadFinished(ctx, file.uploadId);
  await queueKnowledgeAnalysis(ctx);
}
