import type { Division } from '@werkwissen/shared';
import { divisionAccess } from '../../access/division.access.ts';
import { homeCompany } from '../../access/resource-access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { removeStored } from '../../core/remove-stored.ts';
import { isUniqueViolation } from '../../db/constraint-violation.ts';
import { companyLimit } from '../billing/company-plan.ts';
import { takeLimitSlot } from '../billing/limit-slot.ts';
import { storageUsage } from '../billing/storage-usage.ts';
import { queueKnowledgeAnalysis } from '../processing/analyze.job.ts';
import { attachDefaultDocument } from './default-document-copy.ts';
import {
  type DivisionRecord,
  deleteDivisionRow,
  divisionById,
  divisionList,
  insertDivision,
  renameDivisionRow,
  storageKeysOfDivision,
} from './divisions.queries.ts';

const present = (row: DivisionRecord): Division => ({ ...row, createdAt: row.createdAt.toISOString() });

/** The divisions the actor may read (their roles' Division rules in SQL; an employee's assigned ones by default). */
export async function listDivisions(ctx: AppContext, actor: Actor) {
  const storage = await storageUsage(ctx, actor.companyId);
  const limit = actor.companyId
    ? ((await companyLimit(ctx, actor.companyId, 'divisions')).max ?? Number.MAX_SAFE_INTEGER)
    : 0;
  const rows = await divisionList(ctx.db, divisionAccess.where(actor, 'read'));
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
    const division = await ctx.db.transaction(async (tx) => {
      await takeLimitSlot(ctx, tx, { companyId, limit: 'divisions', language: actor.language });
      return insertDivision(tx, { companyId, name });
    });
    await attachDefaultDocument(ctx, actor, companyId, division.id);
    return present(division);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('DIVISION_EXISTS', { field: 'name' });
    throw error;
  }
}

export async function renameDivision(ctx: AppContext, actor: Actor, divisionId: string, name: string) {
  await divisionAccess.authorize(ctx.db, actor, 'update', divisionId);
  try {
    if (!(await renameDivisionRow(ctx.db, divisionId, divisionAccess.where(actor, 'update'), name)))
      throw notFound();
    const division = await divisionById(ctx.db, divisionId);
    if (!division) throw notFound();
    return present(division);
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
    const keys = await storageKeysOfDivision(tx, divisionId);
    if (!(await deleteDivisionRow(tx, divisionId, divisionAccess.where(actor, 'delete')))) throw notFound();
    return keys;
  });
  await removeStored(ctx, keys, 'stored file of a deleted division');
  await queueKnowledgeAnalysis(ctx);
}
