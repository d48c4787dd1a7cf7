import type { TAG_COLORS, Tag } from '@werkwissen/shared';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { feedback, tags } from '../../db/schema/index.ts';

export type TagColor = (typeof TAG_COLORS)[number];

/** A tag as stored, with how much feedback carries it. */
export type TagRecord = Omit<Tag, 'createdAt'> & { createdAt: Date };

// Qualified: inside a subquery an interpolated column would render unqualified ("id").
const feedbackCount = sql<number>`(select count(*) from ${feedback} f where f.tag_id = "tags"."id")`.mapWith(
  Number,
);

const columns = {
  id: tags.id,
  name: tags.name,
  color: tags.color,
  createdAt: tags.createdAt,
  feedbackCount,
};

const record = (r: {
  id: string;
  name: string;
  color: string;
  createdAt: Date;
  feedbackCount: number;
}): TagRecord => ({
  ...r,
  color: r.color as TagColor,
});

/** The tags `access` (a compiled Tag rule) lets through, by name; one of them when `tagId` is given. */
export async function tagList(db: DbOrTx, access: SQL, tagId?: string): Promise<TagRecord[]> {
  const rows = await db
    .select(columns)
    .from(tags)
    .where(and(tagId ? eq(tags.id, tagId) : undefined, access))
    .orderBy(asc(sql`lower(${tags.name})`), asc(tags.id));
  return rows.map(record);
}

/** Stores a tag (a unique violation when the company has one of that name, in any case). */
export async function insertTag(
  db: DbOrTx,
  tag: { companyId: string; name: string; color: TagColor },
): Promise<TagRecord> {
  const [row] = await db.insert(tags).values(tag).returning();
  return record({ ...row!, feedbackCount: 0 });
}

/** Changes the tag if `access` lets it through; whether it did. */
export async function updateTagRow(
  db: DbOrTx,
  tagId: string,
  access: SQL,
  changes: { name?: string; color?: TagColor },
): Promise<boolean> {
  const [row] = await db
    .update(tags)
    .set(changes)
    .where(and(eq(tags.id, tagId), access))
    .returning({ id: tags.id });
  return row !== undefined;
}

/** Deletes the tag if `access` lets it through; whether it did. */
export async function deleteTagRow(db: DbOrTx, tagId: string, access: SQL): Promise<boolean> {
  const [row] = await db
    .delete(tags)
    .where(and(eq(tags.id, tagId), access))
    .returning({ id: tags.id });
  return row !== undefined;
}
