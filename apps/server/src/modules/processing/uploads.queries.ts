import type { FileStatus, Language } from '@werkwissen/shared';
import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { divisions, files, users } from '../../db/schema/index.ts';
import { finalFileStatuses } from './file-runs.queries.ts';

/** An upload whose mail is due: who uploaded it, where to. */
export interface FinishedUpload {
  userId: string | null;
  divisionId: string | null;
  companyId: string;
}

/** How a file of an upload came out. */
export interface UploadedFileOutcome {
  name: string;
  status: FileStatus;
  errorCode: string | null;
  errorDetail: string | null;
  passageCount: number;
  division: string | null;
}

/**
 * Marks the upload notified once every file of it is final and no one marked it before: the upload, or null when
 * that was not so.
 */
export async function claimFinishedUpload(db: DbOrTx, uploadId: string): Promise<FinishedUpload | null> {
  const { rows } = await db.execute<{
    user_id: string | null;
    division_id: string | null;
    company_id: string;
  }>(sql`
    update uploads u set notified_at = now()
    where u.id = ${uploadId} and u.notified_at is null
      and not exists (select 1 from files f where f.upload_id = u.id and f.status not in (${finalFileStatuses}))
    returning u.user_id, u.division_id, u.company_id`);
  const row = rows[0];
  return row ? { userId: row.user_id, divisionId: row.division_id, companyId: row.company_id } : null;
}

/** The uploader as a mail addresses them. */
export async function uploader(
  db: DbOrTx,
  userId: string,
): Promise<{ email: string; firstName: string | null; language: Language } | undefined> {
  const [user] = await db
    .select({ email: users.email, firstName: users.firstName, language: users.language })
    .from(users)
    .where(eq(users.id, userId));
  return user;
}

/** The upload's files, in the order they came, with how each came out and its division's name. */
export async function uploadOutcomes(db: DbOrTx, uploadId: string): Promise<UploadedFileOutcome[]> {
  return db
    .select({
      name: files.name,
      status: files.status,
      errorCode: files.errorCode,
      errorDetail: files.errorDetail,
      passageCount: files.passageCount,
      division: divisions.name,
    })
    .from(files)
    .leftJoin(divisions, eq(divisions.id, files.divisionId))
    .where(eq(files.uploadId, uploadId))
    .orderBy(asc(files.createdAt), asc(files.name));
}
