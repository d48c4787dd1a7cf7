import type { Division } from '@werkwissen/shared';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { divisionAccess } from '../../access/division.access.ts';
import { homeCompany } from '../../access/resource-access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { removeStored } from '../../core/remove-stored.ts';
import { isUniqueViolation } from '../../db/constraint-violation.ts';
import { divisions, employeeDivisions, files } from '../../db/schema/index.ts';
import { companyLimit } from '../billing/company-plan.ts';
import { takeLimitSlot } from '../billing/limit-slot.ts';
import { storageUsage } from '../billing/storage-usage.ts';
import { queueKnowledgeAnalysis } from '../processing/analyze.job.ts';
import { attachDefaultDocument } from './default-document-copy.ts';

const employeeCount =
  sql<number>`(select count(*) from ${employeeDivisions} ed where ed.division_id = ${divisions.id})`.mapWith(
    Number,
  );

const fileCount = sql<number>`(select count(*) from files f where f.division_id = "divisions"."id")`.mapWith(
  Number,
);
const sizeBytes =
  sql<number>`(select coalesce(sum(f.size_bytes), 0) from files f where f.division_id = "divisions"."id")`.mapWith(
    Number,
  );

interface DivisionRow {
  id: string;
  name: string;
  employeeCount: number;
  fileCount?: number;
  sizeBytes?: number;
  createdAt: Date;
}

const present = (row: DivisionRow): Division => ({
  id: row.id,
  name: row.name,
  employeeCount: row.employeeCount,
  fileCount: row.fileCount ?? 0,
  sizeBytes: row.sizeBytes ?? 0,
  createdAt: row.createdAt.toISOString(),
});

/** The divisions the actor may read (their roles' Division rules in SQL; an employee's assigned ones by default). */
export async function listDivisions(ctx: AppContext, actor: Actor) {
  const storage = await storageUsage(ctx, actor.companyId);
  const limit = actor.companyId
    ? ((await companyLimit(ctx, actor.companyId, 'divisions')).max ?? Number.MAX_SAFE_INTEGER)
    : 0;
  const rows = await ctx.db
    .select({
      id: divisions.id,
      name: divisions.name,
      createdAt: divisions.createdAt,
      employeeCount,
      fileCount,
      sizeBytes,
    })
    .from(divisions)
    .where(divisionAccess.where(actor, 'read'))
    .orderBy(asc(sql`lower(${divisions.name})`));
  return { items: rows.map(present), limit, storage };
}

/**
 * Adds a division within the plan's divisions limit (its slot taken in the insert's transaction, so that parallel
 * requests never pass it); names are unique per company, whatever their case.
 */
export async function createDivision(ctx: AppContext, actor: Actor, name: string): Promise<Division> {
  const companyId = homeCompany(actor);
  divisionAccess.assertCan(actor, 'create', { companyId, name });
  try {
    const row = await ctx.db.transaction(async (tx) => {
      await takeLimitSlot(ctx, tx, { companyId, limit: 'divisions', language: actor.language });
      const [row] = await tx.insert(divisions).values({ companyId, name }).returning();
      return row!;
    });
    await attachDefaultDocument(ctx, actor, companyId, row.id);
    return present({ ...row, employeeCount: 0 });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('DIVISION_EXISTS', { field: 'name' });
    throw error;
  }
}

export async function renameDivision(ctx: AppContext, actor: Actor, divisionId: string, name: string) {
  await divisionAccess.authorize(ctx.db, actor, 'update', divisionId);
  try {
    const [row] = await ctx.db
      .update(divisions)
      .set({ name, updatedAt: new Date() })
      .where(and(eq(divisions.id, divisionId), divisionAccess.where(actor, 'update')))
      .returning({ id: divisions.id, name: divisions.name, createdAt: divisions.createdAt });
    if (!row) throw notFound();
    const [withCount] = await ctx.db
      .select({ n: count() })
      .from(employeeDivisions)
      .where(eq(employeeDivisions.divisionId, divisionId));
    const [files] = await ctx.db
      .select({ fileCount, sizeBytes })
      .from(divisions)
      .where(eq(divisions.id, divisionId));
    return present({ ...row, employeeCount: withCount?.n ?? 0, ...files });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('DIVISION_EXISTS', { field: 'name' });
    throw error;
  }
}

/**
 * Deletes a division; its employee assignments, files and their passages go with it in one transaction (the
 * foreign keys cascade), and the stored originals are removed once it has committed.
 */
export async function deleteDivision(ctx: AppContext, actor: Actor, divisionId: string): Promise<void> {
  await divisionAccess.authorize(ctx.db, actor, 'delete', divisionId);
  const keys = await ctx.db.transaction(async (tx) => {
    const stored = await tx
      .select({ key: files.storageKey })
      .from(files)
      .where(eq(files.divisionId, divisionId));
    const [row] = await tx
      .delete(divisions)
      .where(and(eq(divisions.id, divisionId), divisionAccess.where(actor, 'delete')))
      .returning({ id: divisions.id });
    if (!row) throw notFound();
    return stored.map((s) => s.key);
  });
  await removeStored(ctx, keys, 'stored file of a deleted division');
  await queueKnowledgeAnalysis(ctx);
}
