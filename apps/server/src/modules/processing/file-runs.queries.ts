import { FINAL_FILE_STATUSES, type FileFailureCode, type FileStatus } from '@werkwissen/shared';
import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { files, type StepTimes } from '../../db/schema/index.ts';
import { jobWaiting } from '../../db/waiting-job.ts';

/** A file as its processing sees it. */
export type FileRow = typeof files.$inferSelect;

/** A run of a file: the file and the generation it processes. */
export interface FileRun {
  id: string;
  processingGeneration: number;
}

/** The final statuses as a list of parameters, for raw statements on an aliased `files`. */
export const finalFileStatuses = sql.join(
  FINAL_FILE_STATUSES.map((status) => sql`${status}`),
  sql`, `,
);
const queued: FileStatus = 'queued';

/** The row of this run while it is still running (not cancelled, deleted, or replaced by a newer run). */
const activeRun = (run: FileRun) =>
  and(
    eq(files.id, run.id),
    eq(files.processingGeneration, run.processingGeneration),
    notInArray(files.status, [...FINAL_FILE_STATUSES]),
  );

export async function fileById(db: DbOrTx, fileId: string): Promise<FileRow | undefined> {
  const [file] = await db.select().from(files).where(eq(files.id, fileId));
  return file;
}

/** Writes a running run's state: whether the run was still running. */
export async function updateActiveRun(
  db: DbOrTx,
  run: FileRun,
  values: Partial<
    Pick<
      FileRow,
      'status' | 'progress' | 'steps' | 'pageCount' | 'language' | 'ocrPages' | 'ocrConfidence' | 'updatedAt'
    >
  >,
): Promise<boolean> {
  const [row] = await db.update(files).set(values).where(activeRun(run)).returning({ id: files.id });
  return row !== undefined;
}

/** Ends a running run as failed with its reason: whether it was still running. */
export async function failActiveRun(
  db: DbOrTx,
  run: FileRun,
  failure: { code: FileFailureCode; detail: string | null; steps: StepTimes },
): Promise<boolean> {
  const [row] = await db
    .update(files)
    .set({
      status: 'failed',
      errorCode: failure.code,
      errorDetail: failure.detail,
      steps: failure.steps,
      updatedAt: new Date(),
    })
    .where(activeRun(run))
    .returning({ id: files.id });
  return row !== undefined;
}

/** Cancels the file's run while it is not final: whether it did. */
export async function cancelRunningFile(db: DbOrTx, fileId: string, steps: StepTimes): Promise<boolean> {
  const [row] = await db
    .update(files)
    .set({ status: 'cancelled', steps, updatedAt: new Date() })
    .where(and(eq(files.id, fileId), notInArray(files.status, [...FINAL_FILE_STATUSES])))
    .returning({ id: files.id });
  return row !== undefined;
}

/**
 * Starts a new run of a file still in the (final) status it was read in: queued afresh under the next generation,
 * which it returns; null when its status changed meanwhile.
 */
export async function restartFile(
  db: DbOrTx,
  fileId: string,
  fromStatus: FileStatus,
): Promise<number | null> {
  const [row] = await db
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
    .where(and(eq(files.id, fileId), eq(files.status, fromStatus)))
    .returning({ generation: files.processingGeneration });
  return row?.generation ?? null;
}

/** How many unfinished files of the file's company were uploaded before it. */
export async function unfinishedFilesAhead(db: DbOrTx, fileId: string): Promise<number> {
  const { rows } = await db.execute<{ ahead: number }>(sql`
    select count(*)::int as ahead from files f join files o on o.company_id = f.company_id
    where f.id = ${fileId} and (o.created_at, o.id) < (f.created_at, f.id)
      and o.status not in (${finalFileStatuses})`);
  return rows[0]?.ahead ?? 0;
}

/** How many published files of an older passage format than `format` are being processed again. */
export async function reformatsRunning(db: DbOrTx, format: number): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from files
    where passage_format < ${format} and active_generation is not null
      and status not in (${finalFileStatuses})`);
  return rows[0]!.n;
}

/**
 * Starts new runs of up to `limit` ready files of an older passage format than `format`, those ready longest first
 * (skipping rows locked by others): each file and its new generation.
 */
export async function restartOlderFormats(
  db: DbOrTx,
  format: number,
  limit: number,
): Promise<{ id: string; generation: number }[]> {
  const ready: FileStatus = 'ready';
  const { rows } = await db.execute<{ id: string; generation: number }>(sql`
    update files f set status = ${queued}, progress = 0, error_code = null, error_detail = null, steps = '{}'::jsonb,
      processing_generation = f.processing_generation + 1, updated_at = now()
    from (select id from files where status = ${ready} and passage_format < ${format}
          order by ready_at nulls first, id limit ${limit} for update skip locked) old
    where f.id = old.id and f.status = ${ready}
    returning f.id, f.processing_generation as generation`);
  return rows;
}

/**
 * Publishes a run that reached `indexing`: the file becomes ready with its generation's passages counted (and
 * `format`, the passage format they were written in); whether it did.
 */
export async function publishRun(
  db: DbOrTx,
  run: FileRun,
  steps: StepTimes,
  format: number,
): Promise<boolean> {
  const ready: FileStatus = 'ready';
  const indexing: FileStatus = 'indexing';
  const { rows } = await db.execute<{ id: string }>(sql`
    update files f set status = ${ready}, progress = 100, active_generation = ${run.processingGeneration},
      ready_at = now(), updated_at = now(), error_code = null, error_detail = null, steps = ${JSON.stringify(steps)}::jsonb,
      passage_count = s.n, token_count = s.tokens, passage_format = ${format}
    from (select count(*)::int as n, coalesce(sum(token_count), 0)::bigint as tokens from passages
          where file_id = ${run.id} and generation = ${run.processingGeneration}) s
    where f.id = ${run.id} and f.processing_generation = ${run.processingGeneration} and f.status = ${indexing}
    returning f.id`);
  return rows.length > 0;
}

/** Deletes one of the company's files (its passages cascade): its storage key, or null when it was gone. */
export async function deleteFileOfCompany(
  db: DbOrTx,
  companyId: string,
  fileId: string,
): Promise<string | null> {
  const [row] = await db
    .delete(files)
    .where(and(eq(files.id, fileId), eq(files.companyId, companyId)))
    .returning({ key: files.storageKey });
  return row?.key ?? null;
}

/** Unfinished files with no extract or index job queued or running for them: each with its status and generation. */
export async function filesWithoutJob(
  db: DbOrTx,
  jobNames: string[],
  settledSeconds = 0,
): Promise<{ id: string; status: FileStatus; generation: number }[]> {
  const { rows } = await db.execute<{ id: string; status: FileStatus; generation: number }>(sql`
    select f.id, f.status, f.processing_generation as generation from files f
    where f.status not in (${finalFileStatuses})
      and f.updated_at <= now() - make_interval(secs => ${settledSeconds})
      and not ${jobWaiting(jobNames, sql`j.data->>'fileId' = f.id::text`)}`);
  return rows;
}

/**
 * The company's languages, the most used first: those of its people, then those its published files were detected
 * in.
 */
export async function companyLanguages(db: DbOrTx, companyId: string): Promise<string[]> {
  const ready: FileStatus = 'ready';
  const { rows } = await db.execute<{ language: string }>(sql`
    select language from (
      select language, count(*) as n, 0 as source from users where company_id = ${companyId} group by language
      union all
      select language, count(*) as n, 1 as source from files
       where company_id = ${companyId} and status = ${ready} and language is not null group by language
    ) l order by source, n desc, language`);
  return rows.map((r) => r.language);
}

/** Refreshes the planner's statistics of the knowledge tables and merges the full-text indexes' new entries. */
export async function analyzeKnowledgeTables(db: DbOrTx): Promise<void> {
  await db.execute(sql`analyze files, passages, passage_embeddings`);
  // GIN takes new entries into an unsorted pending list, which every full-text search reads whole until a vacuum
  // merges it into the index's tree (PGlite runs no autovacuum; PostgreSQL's may be minutes away): merged here, for
  // the indexes this role may clean (their owner's; a database migrated by another role leaves it to autovacuum).
  await db.execute(sql`
    select gin_clean_pending_list(i.indexrelid)
    from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am am on am.oid = c.relam
    where i.indrelid = 'passages'::regclass and am.amname = 'gin'
      and pg_has_role(current_user, c.relowner, 'USAGE')`);
}
