import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { type SearchScope, scopeFilesSql } from './search-scope.ts';

/** The languages of a scope's published files (ISO 639-3 as detected; null when not detected), with their passages. */
export interface ScopeLanguage {
  language: string | null;
  passages: number;
}

/**
 * The published files of a scope by language, largest first: in one statement what answering a question asks of the
 * scope before it searches (whether it holds a ready file at all, which languages a question is translated into, in
 * which text configurations its words' rarity is read), which were three.
 */
export async function scopeLanguages(db: DbOrTx, scope: SearchScope): Promise<ScopeLanguage[]> {
  const { rows } = await db.execute<{ language: string | null; passages: number }>(sql`
    select f.language, sum(f.passage_count)::float8 as passages
    from files f join (${scopeFilesSql(scope)}) s on s.id = f.id
    group by f.language order by passages desc, f.language`);
  return rows.map((r) => ({ language: r.language, passages: Number(r.passages) }));
}
