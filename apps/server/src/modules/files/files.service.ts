import type { Action, FileStatus, KnowledgeFile, Language } from '@werkwissen/shared';
import { and, asc, count, desc, eq, ilike, isNull, sql } from 'drizzle-orm';
import { divisionAccess } from '../../access/division.access.ts';
import { fileAccess } from '../../access/file.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { removeStored } from '../../core/remove-stored.ts';
import { containsPattern } from '../../db/like.ts';
import { companies, divisions, files, users } from '../../db/schema/index.ts';
import { queueKnowledgeAnalysis } from '../processing/analyze.job.ts';
import { deleteUnpublished, finishSteps, isFinal } from '../processing/file-state.ts';
import { extractFileJob, sendFileStep } from '../processing/process-file.jobs.ts';
import { notifyIfUploadFinished } from '../processing/upload-mail.ts';
import { FILE_SORTS, fileColumns, presentAdminFile, presentFile } from './files.presenter.ts';

interface ListQuery {
  page: number;
  pageSize: number;
  q?: string;
  sort?: string;
  status?: FileStatus;
}

function orderOf(sort: string | undefined) {
  const key = (sort?.replace(/^-/, '') ?? 'createdAt') as keyof typeof FILE_SORTS;
  const column = FILE_SORTS[key] ?? FILE_SORTS.createdAt;
  return sort ? (sort.startsWith('-') ? desc(column) : asc(column)) : desc(FILE_SORTS.createdAt);
}

export async function listFiles(
  ctx: AppContext,
  actor: Actor,
  divisionId: string,
  query: ListQuery,
  lang: Language,
) {
  const [division] = await ctx.db
    .select({ id: divisions.id })
    .from(divisions)
    .where(and(eq(divisions.id, divisionId), divisionAccess.where(actor, 'read')));
  if (!division) throw notFound();
  const where = and(
    eq(files.divisionId, divisionId),
    fileAccess.where(actor, 'read'),
    query.status ? eq(files.status, query.status) : undefined,
    query.q ? ilike(files.name, containsPattern(query.q)) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select(fileColumns)
      .from(files)
      .innerJoin(divisions, eq(divisions.id, files.divisionId))
      .leftJoin(users, eq(users.id, files.uploadedBy))
      .where(where)
      .orderBy(orderOf(query.sort), asc(files.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    ctx.db.select({ n: count() }).from(files).where(where),
  ]);
  return {
    items: rows.map((r) => presentFile(r, lang)),
    total: total?.n ?? 0,
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
  const like = query.q ? containsPattern(query.q) : undefined;
  const where = and(
    fileAccess.isolated(actor),
    query.status ? eq(files.status, query.status) : undefined,
    like ? sql`(${files.name} ilike ${like} or ${companies.name} ilike ${like})` : undefined,
  );
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({ ...fileColumns, companyName: companies.name })
      .from(files)
      .innerJoin(divisions, eq(divisions.id, files.divisionId))
      .innerJoin(companies, eq(companies.id, files.companyId))
      .leftJoin(users, eq(users.id, files.uploadedBy))
      .where(where)
      .orderBy(orderOf(query.sort), asc(files.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    ctx.db
      .select({ n: count() })
      .from(files)
      .innerJoin(companies, eq(companies.id, files.companyId))
      .where(where),
  ]);
  return {
    items: rows.map((r) => presentAdminFile(r, lang)),
    total: total?.n ?? 0,
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
  const [row] = await ctx.db
    .select(fileColumns)
    .from(files)
    .innerJoin(divisions, eq(divisions.id, files.divisionId))
    .leftJoin(users, eq(users.id, files.uploadedBy))
    .where(and(eq(files.id, fileId), fileAccess.where(actor, action)));
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
  const [row] = await ctx.db
    .update(files)
    .set({
      status: 'queued',
      progress: 0,
      errorCode: null,
      errorDetail: null,
      steps: {},
      processingGeneration: sql`${files.processingGeneration} + 1`,
      updatedAt: new Date(),
    })
    .where(and(eq(files.id, fileId), eq(files.status, file.status)))
    .returning({ generation: files.processingGeneration });
  if (!row) throw new AppError('FILE_NOT_RETRYABLE');
  await sendFileStep(ctx, extractFileJob, fileId, row.generation);
  return getFile(ctx, actor, fileId, lang);
}

/** Stops a run: the job notices between steps and batches; what it wrote is removed here at once. */
export async function cancelFile(ctx: AppContext, actor: Actor, fileId: string, lang: Language) {
  const { file } = await loadVisibleFile(ctx, actor, fileId, 'update');
  if (isFinal(file.status)) throw new AppError('FILE_NOT_CANCELLABLE');
  const cancelled = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(files)
      .set({ status: 'cancelled', steps: finishSteps(file.steps), updatedAt: new Date() })
      .where(and(eq(files.id, fileId), sql`${files.status} not in ('ready', 'failed', 'cancelled')`))
      .returning({ id: files.id });
    if (row) await deleteUnpublished(tx, fileId);
    return row !== undefined;
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
  const [row] = await ctx.db
    .delete(files)
    .where(and(eq(files.id, fileId), eq(files.companyId, file.companyId), isNull(files.connectorId)))
    .returning({ key: files.storageKey });
  if (!row) throw notFound();
  await removeStored(ctx, [row.key], 'original of a deleted file');
  await notifyIfUploadFinished(ctx, file.uploadId);
  await queueKnowledgeAnalysis(ctx);
}
