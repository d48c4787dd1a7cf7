import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { textConfigFor } from '../search/language.ts';
import { type ScopeLanguage, scopeLanguages } from '../search/scope-languages.ts';
import type { SearchScope } from '../search/search-scope.ts';
import { fold } from './word-match.ts';

/**
 * How common each word of a question is in the company's published passages: the share of them that hold it (its
 * term frequencies, counted by the knowledge.analyze job), read in the text configurations of the scope's files. The
 * built-in answerer weighs a question's words by it: a word the company writes everywhere (its own name, "Gerät")
 * says little about which sentence answers, one it writes in three passages says much. Keyed by the folded word
 * (`fold`); a word the counts do not hold is in at most one passage. Empty when the company's passages are not
 * counted yet (the answerer then weighs by the retrieved text alone).
 */
export async function wordRarity(
  db: DbOrTx,
  scope: SearchScope,
  words: string[],
  /** The scope's languages when the caller read them already (`scopeLanguages`). */
  known?: ScopeLanguage[],
): Promise<Map<string, number>> {
  const unique = [...new Set(words.map((w) => w.toLowerCase()))];
  if (unique.length === 0) return new Map();
  const languages = known ?? (await scopeLanguages(db, scope));
  const configs = [...new Set(languages.map((l) => textConfigFor(l.language ?? 'und')))];
  if (configs.length === 0) return new Map();
  const { rows } = await db.execute<{ word: string; share: number | null }>(sql`
    with counted as (select passages from term_frequency_counts where company_id = ${scope.companyId})
    select w.word, max(coalesce(tf.passages, 1)::float8 / counted.passages) as share
    from counted
    cross join unnest(${sql.param(unique)}::text[]) as w(word)
    cross join unnest(${sql.param(configs)}::text[]) as c(cfg)
    cross join lateral unnest(tsvector_to_array(to_tsvector(c.cfg::regconfig, w.word))) as t(lexeme)
    left join term_frequencies tf on tf.company_id = ${scope.companyId} and tf.lexeme = t.lexeme
    where counted.passages > 0
    group by w.word`);
  const out = new Map<string, number>();
  for (const r of rows) if (r.share !== null) out.set(fold(r.word), Math.min(1, Number(r.share)));
  return out;
}
