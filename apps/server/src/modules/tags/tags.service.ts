import type { Tag } from '@werkwissen/shared';
import { homeCompany } from '../../access/resource-access.ts';
import { tagAccess } from '../../access/tag.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { isUniqueViolation } from '../../db/constraint-violation.ts';
import {
  deleteTagRow,
  insertTag,
  type TagColor,
  type TagRecord,
  tagList,
  updateTagRow,
} from './tags.queries.ts';

const present = (r: TagRecord): Tag => ({ ...r, createdAt: r.createdAt.toISOString() });

const tagExists = () => new AppError('TAG_EXISTS', { field: 'name' });

async function loadTag(ctx: AppContext, actor: Actor, tagId: string): Promise<Tag> {
  const [row] = await tagList(ctx.db, tagAccess.where(actor, 'read'), tagId);
  if (!row) throw notFound();
  return present(row);
}

/** The tags the actor may read (by default their company's), by name, each with how much feedback carries it. */
export async function listTags(ctx: AppContext, actor: Actor): Promise<{ items: Tag[] }> {
  const rows = await tagList(ctx.db, tagAccess.where(actor, 'read'));
  return { items: rows.map(present) };
}

/** Adds a tag; names are unique per company, whatever their case (TAG_EXISTS). */
export async function createTag(
  ctx: AppContext,
  actor: Actor,
  input: { name: string; color: TagColor },
): Promise<Tag> {
  const companyId = homeCompany(actor);
  tagAccess.assertCan(actor, 'create', { companyId });
  try {
    return present(await insertTag(ctx.db, { companyId, name: input.name, color: input.color }));
  } catch (error) {
    if (isUniqueViolation(error)) throw tagExists();
    throw error;
  }
}

/** Renames or recolours one of the company's tags; another company's is not found. */
export async function updateTag(
  ctx: AppContext,
  actor: Actor,
  tagId: string,
  input: { name?: string; color?: TagColor },
): Promise<Tag> {
  await tagAccess.authorize(ctx.db, actor, 'update', tagId);
  const changes = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.color !== undefined ? { color: input.color } : {}),
  };
  if (Object.keys(changes).length > 0) {
    try {
      if (!(await updateTagRow(ctx.db, tagId, tagAccess.where(actor, 'update'), changes))) throw notFound();
    } catch (error) {
      if (isUniqueViolation(error)) throw tagExists();
      throw error;
    }
  }
  return loadTag(ctx, actor, tagId);
}

/** Deletes one of the company's tags; the feedback that carried it keeps no tag (the foreign key sets it null). */
export async function deleteTag(ctx: AppContext, actor: Actor, tagId: string): Promise<void> {
  await tagAccess.authorize(ctx.db, actor, 'delete', tagId);
  if (!(await deleteTagRow(ctx.db, tagId, tagAccess.where(actor, 'delete')))) throw notFound();
}
