import type { Division } from '@werkwissen/shared';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { divisions, employeeDivisions, files } from '../../db/schema/index.ts';

/** A division as stored, with its employees, files and their bytes counted. */
export type DivisionRecord = Omit<Division, 'createdAt'> & { createdAt: Date };

const employeeCount =
  sql<number>`(select count(*) from ${employeeDivisions} ed where ed.division_id = ${divisions.id})`.mapWith(
    Number,
  );
// Qualified by hand: inside a subquery an interpolated column of the selected table renders unqualified ("id").
const fileCount = sql<number>`(select count(*) from files f where f.division_id = "divisions"."id")`.mapWith(
  Number,
);
const sizeBytes =
  sql<number>`(select coalesce(sum(f.size_bytes), 0) from files f where f.division_id = "divisions"."id")`.mapWith(
    Number,
  );

const columns = {
  id: divisions.id,
  name: divisions.name,
  createdAt: divisions.createdAt,
  employeeCount,
  fileCount,
  sizeBytes,
};

/** The divisions `access` (a compiled Division rule) lets through, by name. */
export async function divisionList(db: DbOrTx, access: SQL): Promise<DivisionRecord[]> {
  return db
    .select(columns)
    .from(divisions)
    .where(access)
    .orderBy(asc(sql`lower(${divisions.name})`));
}

export async function divisionById(db: DbOrTx, divisionId: string): Promise<DivisionRecord | undefined> {
  const [row] = await db.select(columns).from(divisions).where(eq(divisions.id, divisionId));
  return row;
}

/** Stores a new, empty division (a unique violation when the company has one of that name, in any case). */
export async function insertDivision(
  db: DbOrTx,
  division: { companyId: string; name: string },
): Promise<DivisionRecord> {
  const [row] = await db
    .insert(divisions)
    .values(division)
    .returning({ id: divisions.id, name: divisions.name, createdAt: divisions.createdAt });
  return { ...row!, employeeCount: 0, fileCount: 0, sizeBytes: 0 };
}

/** Renames the division if `access` lets it through; whether it did. */
export async function renameDivisionRow(
  db: DbOrTx,
  divisionId: string,
  access: SQL,
  name: string,
): Promise<boolean> {
  const [row] = await db
    .update(divisions)
    .set({ name, updatedAt: new Date() })
    .where(and(eq(divisions.id, divisionId), access))
    .returning({ id: divisions.id });
  return row !== undefined;
}

/** The storage keys of the division's files. */
export async function storageKeysOfDivision(db: DbOrTx, divisionId: string): Promise<string[]> {
  const stored = await db
    .select({ key: files.storageKey })
    .from(files)
    .where(eq(files.divisionId, divisionId));
  return stored.map((s) => s.key);
}

/** Deletes the division if `access` lets it through (its assignments and files cascade); whether it did. */
export async function deleteDivisionRow(db: DbOrTx, divisionId: string, access: SQL): Promise<boolean> {
  const [row] = await db
    .delete(divisions)
    .where(and(eq(divisions.id, divisionId), access))
    .returning({ id: divisions.id });
  return row !== undefined;
}
