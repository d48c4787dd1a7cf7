import type { TAG_COLORS, Tag } from '@werkwissen/shared';
import { and, asc, eq, sql } from 'drizzle-orm';
import { homeCompany } from '../../access/resource-access.ts';
import { tagAccess } from '../../access/tag.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { isUniqueViolation } from '../../db/constraint-violation.ts';
import { tags } from '../../db/schema/index.ts';

type TagColor = (typeof TAG_COLORS)[number];

// Qualified: inside a subquery an interpolated column would render unqualified ("id").
const feedbackCount = sql<number>`(select count(*) from feedback f where f.tag_id = "tags"."id")`.mapWith(
  Number,
);

const columns = {
  id: tags.id,
  name: tags.name,
  color: tags.color,
  createdAt: tags.createdAt,
  feedbackCount,
};

const present = (r: {
  id: string;
  name: string;
  color: string;
  createdAt: Date;
  feedbackCount: number;
}): Tag => ({
  id: r.id,
  name: r.name,
  color: r.color as TagColor,
  feedbackCount: r.feedbackCount,
  createdAt: r.createdAt.toISOString(),
});

const tagExists = () => new AppError('TAG_EXISTS', { field: 'name' });

async function loadTag(ctx: AppContext, actor: Actor, tagId: string): Promise<Tag> {
  const [row] = await ctx.db
    .select(columns)
    .from(tags)
    .where(and(eq(tags.id, tagId), tagAccess.where(actor, 'read')));
  if (!row) throw notFound();
  return present(row);
}

/** The tags the actor may read (by default their company's), by name, each with how much feedback carries it. */
export async function listTags(ctx: AppContext, actor: Actor): Promise<{ items: Tag[] }> {
  const rows = await ctx.db
    .select(columns)
    .from(tags)
    .where(tagAccess.where(actor, 'read'))
    .orderBy(asc(sql`lower(${tags.name})`), asc(tags.id));
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
    const [row] = await ctx.db
      .insert(tags)
      .values({ companyId, name: input.name, color: input.color })
      .returning();
    return present({ ...row!, feedbackCount: 0 });
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
      const [row] = await ctx.db
        .update(tags)
        .set(changes)
        .where(and(eq(tags.id, tagId), tagAccess.where(actor, 'update')))
        .returning({ id: tags.id });
      if (!row) throw notFound();
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
  const [row] = await ctx.db
    .delete(tags)
    .where(and(eq(tags.id, tagId), tagAccess.where(actor, 'delete')))
    .returning({ id: tags.id });
  if (!row) throw notFound();
}
