import type { Division } from '@werkwissen/shared';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { divisions, employeeDivisions } from '../../db/schema/index.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import { type Actor, requireCompany } from '../auth/actor.ts';

const employeeCount =
  sql<number>`(select count(*) from ${employeeDivisions} ed where ed.division_id = ${divisions.id})`.mapWith(
    Number,
  );

const present = (row: { id: string; name: string; employeeCount: number; createdAt: Date }): Division => ({
  id: row.id,
  name: row.name,
  employeeCount: row.employeeCount,
  createdAt: row.createdAt.toISOString(),
});

/** The company's divisions; an employee's list holds only the divisions assigned to them (filtered in SQL). */
export async function listDivisions(ctx: AppContext, actor: Actor) {
  if (!actor.companyId) return { items: [], limit: ctx.config.DIVISIONS_LIMIT };
  const assignedOnly =
    actor.kind === 'Employee'
      ? sql`exists (select 1 from employee_divisions ed where ed.division_id = "divisions"."id" and ed.user_id = ${actor.userId})`
      : undefined;
  const rows = await ctx.db
    .select({ id: divisions.id, name: divisions.name, createdAt: divisions.createdAt, employeeCount })
    .from(divisions)
    .where(and(eq(divisions.companyId, actor.companyId), assignedOnly))
    .orderBy(asc(sql`lower(${divisions.name})`));
  return { items: rows.map(present), limit: ctx.config.DIVISIONS_LIMIT };
}

function isUniqueViolation(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string }; code?: string }) ?? {};
  return cause.code === '23505' || cause.cause?.code === '23505';
}

/** Adds a division within the plan's divisions limit; names are unique per company, whatever their case. */
export async function createDivision(ctx: AppContext, actor: Actor, name: string): Promise<Division> {
  const companyId = requireCompany(actor);
  const [existing] = await ctx.db
    .select({ n: count() })
    .from(divisions)
    .where(eq(divisions.companyId, companyId));
  if ((existing?.n ?? 0) >= ctx.config.DIVISIONS_LIMIT) {
    throw new AppError('LIMIT_REACHED', { limit: ctx.config.DIVISIONS_LIMIT });
  }
  try {
    const [row] = await ctx.db.insert(divisions).values({ companyId, name }).returning();
    return present({ ...row!, employeeCount: 0 });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('DIVISION_EXISTS', { field: 'name' });
    throw error;
  }
}

export async function renameDivision(ctx: AppContext, actor: Actor, divisionId: string, name: string) {
  const companyId = requireCompany(actor);
  try {
    const [row] = await ctx.db
      .update(divisions)
      .set({ name, updatedAt: new Date() })
      .where(and(eq(divisions.id, divisionId), eq(divisions.companyId, companyId)))
      .returning({ id: divisions.id, name: divisions.name, createdAt: divisions.createdAt });
    if (!row) throw notFound();
    const [withCount] = await ctx.db
      .select({ n: count() })
      .from(employeeDivisions)
      .where(eq(employeeDivisions.divisionId, divisionId));
    return present({ ...row, employeeCount: withCount?.n ?? 0 });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('DIVISION_EXISTS', { field: 'name' });
    throw error;
  }
}

/** Deletes a division; its employee assignments go with it (and its files, once the knowledge capability has them). */
export async function deleteDivision(ctx: AppContext, actor: Actor, divisionId: string): Promise<void> {
  const companyId = requireCompany(actor);
  const [row] = await ctx.db
    .delete(divisions)
    .where(and(eq(divisions.id, divisionId), eq(divisions.companyId, companyId)))
    .returning({ id: divisions.id });
  if (!row) throw notFound();
}
