import type { FileKind, FileStatus } from '@werkwissen/shared';
import { and, asc, count, desc, eq, ilike, isNull, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { companies, divisions, files, uploads, users } from '../../db/schema/index.ts';

/** A file with the names it is presented with: its division's, its uploader's and its connector's. */
export type FileWithNames = {
  file: typeof files.$inferSelect;
  divisionName: string | null;
  uploaderEmail: string | null;
  connectorName: string | null;
  connectorUrl: string | null;
};

/** The columns a file is presented with (its division's and uploader's names joined in). */
const fileColumns = {
  file: files,
  divisionName: divisions.name,
  uploaderEmail: users.email,
  /** The connector it is synced from: its name, and the address of its source. */
  connectorName: sql<string | null>`(select c.name from connectors c where c.id = files.connector_id)`,
  connectorUrl: sql<string | null>`(select c.url from connectors c where c.id = files.connector_id)`,
};

/** Sortable columns of file lists. */
const FILE_SORTS = {
  name: sql`lower(${files.name})`,
  sizeBytes: files.sizeBytes,
  status: files.status,
  createdAt: files.createdAt,
  mimeType: files.mimeType,
};

/** A sort as the list query names it (`name`, `-createdAt`, ...); newest first when none or an unknown one. */
function orderOf(sort: string | undefined) {
  const key = (sort?.replace(/^-/, '') ?? 'createdAt') as keyof typeof FILE_SORTS;
  const column = FILE_SORTS[key] ?? FILE_SORTS.createdAt;
  return sort ? (sort.startsWith('-') ? desc(column) : asc(column)) : desc(FILE_SORTS.createdAt);
}

/** A page of a file list: which status, which name (an ILIKE pattern), which sort. */
export interface FileFilter {
  status: FileStatus | undefined;
  pattern: string | undefined;
  sort: string | undefined;
  page: number;
  pageSize: number;
}

/** Statuses of a file whose content no longer counts (another with the same name or content may come). */
const GONE: FileStatus[] = ['failed', 'cancelled'];

/** The division, with its company, if `access` (a compiled Division rule) lets it through. */
export async function readableDivision(
  db: DbOrTx,
  divisionId: string,
  access: SQL,
): Promise<{ id: string; companyId: string } | undefined> {
  const [division] = await db
    .select({ id: divisions.id, companyId: divisions.companyId })
    .from(divisions)
    .where(and(eq(divisions.id, divisionId), access));
  return division;
}

/** A page of a division's files `access` (a compiled File rule) lets through, and how many there are. */
export async function divisionFilePage(
  db: DbOrTx,
  divisionId: string,
  access: SQL,
  filter: FileFilter,
): Promise<{ items: FileWithNames[]; total: number }> {
  const where = and(
    eq(files.divisionId, divisionId),
    access,
    filter.status ? eq(files.status, filter.status) : undefined,
    filter.pattern ? ilike(files.name, filter.pattern) : undefined,
  );
  const [items, [total]] = await Promise.all([
    db
      .select(fileColumns)
      .from(files)
      .innerJoin(divisions, eq(divisions.id, files.divisionId))
      .leftJoin(users, eq(users.id, files.uploadedBy))
      .where(where)
      .orderBy(orderOf(filter.sort), asc(files.id))
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize),
    db.select({ n: count() }).from(files).where(where),
  ]);
  return { items, total: total?.n ?? 0 };
}

/**
 * A page of every company's files that `isolation` (a company isolation condition) lets through, with their
 * companies' names, and how many there are; the pattern matches the file's or the company's name.
 */
export async function adminFilePage(
  db: DbOrTx,
  isolation: SQL,
  filter: FileFilter,
): Promise<{ items: (FileWithNames & { companyName: string | null })[]; total: number }> {
  const { pattern } = filter;
  const where = and(
    isolation,
    filter.status ? eq(files.status, filter.status) : undefined,
    pattern ? or(ilike(files.name, pattern), ilike(companies.name, pattern)) : undefined,
  );
  const [items, [total]] = await Promise.all([
    db
      .select({ ...fileColumns, companyName: companies.name })
      .from(files)
      .innerJoin(divisions, eq(divisions.id, files.divisionId))
      .innerJoin(companies, eq(companies.id, files.companyId))
      .leftJoin(users, eq(users.id, files.uploadedBy))
      .where(where)
      .orderBy(orderOf(filter.sort), asc(files.id))
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize),
    db
      .select({ n: count() })
      .from(files)
      .innerJoin(companies, eq(companies.id, files.companyId))
      .where(where),
  ]);
  return { items, total: total?.n ?? 0 };
}

/** The file with its names, if `access` (a compiled File rule) lets it through. */
export async function fileWithNames(
  db: DbOrTx,
  fileId: string,
  access: SQL,
): Promise<FileWithNames | undefined> {
  const [row] = await db
    .select(fileColumns)
    .from(files)
    .innerJoin(divisions, eq(divisions.id, files.divisionId))
    .leftJoin(users, eq(users.id, files.uploadedBy))
    .where(and(eq(files.id, fileId), access));
  return row;
}

/** Deletes one of the company's uploaded files (not a synced one; passages cascade): its storage key, or null. */
export async function deleteUploadedFile(
  db: DbOrTx,
  companyId: string,
  fileId: string,
): Promise<string | null> {
  const [row] = await db
    .delete(files)
    .where(and(eq(files.id, fileId), eq(files.companyId, companyId), isNull(files.connectorId)))
    .returning({ key: files.storageKey });
  return row?.key ?? null;
}

/** Whether the division holds a file of this content (SHA-256) that did not fail and was not cancelled. */
export async function divisionHoldsContent(db: DbOrTx, divisionId: string, sha256: string): Promise<boolean> {
  const [same] = await db
    .select({ id: files.id })
    .from(files)
    .where(and(eq(files.divisionId, divisionId), eq(files.sha256, sha256), notInArray(files.status, GONE)));
  return same !== undefined;
}

/** The newest file of this name (in any case) in the division that did not fail and was not cancelled. */
export async function latestFileNamed(db: DbOrTx, divisionId: string, name: string): Promise<string | null> {
  const [older] = await db
    .select({ id: files.id })
    .from(files)
    .where(
      and(
        eq(files.divisionId, divisionId),
        sql`lower(${files.name}) = lower(${name})`,
        notInArray(files.status, GONE),
      ),
    )
    .orderBy(desc(files.createdAt))
    .limit(1);
  return older?.id ?? null;
}

/** Stores an upload (the files of one request) by a user into a division: its id. */
export async function insertUpload(
  db: DbOrTx,
  upload: { companyId: string; divisionId: string; userId: string },
): Promise<string> {
  const [row] = await db.insert(uploads).values(upload).returning({ id: uploads.id });
  return row!.id;
}

/** Stores an uploaded file, queued for processing. */
export async function insertUploadedFile(
  db: DbOrTx,
  file: {
    id: string;
    companyId: string;
    divisionId: string;
    uploadId: string;
    uploadedBy: string;
    name: string;
    sizeBytes: number;
    mimeType: string;
    kind: FileKind;
    sha256: string;
    storageKey: string;
    replacesFileId: string | null;
  },
): Promise<void> {
  await db.insert(files).values(file);
}
