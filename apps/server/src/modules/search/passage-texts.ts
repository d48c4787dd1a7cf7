import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';

/**
 * The text of published passages by id, within one company. A passage of a deleted or replaced file is absent, so
 * a citation that outlived its file shows no text.
 */
export async function livePassageTexts(
  db: DbOrTx,
  companyId: string,
  passageIds: Iterable<string | null | undefined>,
): Promise<Map<string, string>> {
  const ids = [...new Set([...passageIds].filter((id): id is string => Boolean(id)))];
  if (ids.length === 0) return new Map();
  const { rows } = await db.execute<{ id: string; text: string }>(sql`select p.id, p.text from passages p
    join files f on f.id = p.file_id and f.active_generation = p.generation
    where p.id = any(${sql.param(ids)}::uuid[]) and p.company_id = ${companyId}`);
  return new Map(rows.map((p) => [p.id, p.text]));
}
