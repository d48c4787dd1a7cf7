import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/database.ts';
import { configLiteral, targetConfig } from '../full-text-search.ts';
import type { QueryTranslation } from './translation.ts';

/**
 * A dictionary's senses of a word are many ("copper": Bulle, Braukessel, Polyp … Kupfer) and only the first `keep`
 * are searched. When none of those occurs in the company's passages (in the target language's text configuration,
 * every word of a phrase) but a later one does, the later ones that occur come first, each with its weight: the
 * sense the documents use is searched instead of senses that can find nothing. A word whose first senses include one
 * the documents use keeps them as they are: promoting more senses that occur brought in wrong ones (bench:answer,
 * Handwerk: two more wrong answers in Russian, one in Arabic). One statement for all the words.
 */
export async function preferUsedTranslations(
  db: DbOrTx,
  companyId: string,
  translation: QueryTranslation,
  keep: number,
): Promise<QueryTranslation> {
  const texts = [...new Set(translation.words.flatMap((w) => w.alternatives.map((a) => a.text)))];
  if (texts.length === 0) return translation;
  // The configuration as a literal: the planner proves from it which partial GIN index the probe may read.
  const config = configLiteral(targetConfig(translation));
  const { rows } = await db.execute<{ text: string }>(sql`
    select a.text from unnest(${sql.param(texts)}::text[]) as a(text)
    where numnode(plainto_tsquery(${config}::regconfig, a.text)) > 0
      and exists (
        select 1 from passages p
        where p.company_id = ${companyId} and p.text_config = ${config}
          and p.tsv @@ plainto_tsquery(${config}::regconfig, a.text))`);
  const used = new Set(rows.map((r) => r.text));
  return {
    ...translation,
    words: translation.words.map((w) => {
      const first = w.alternatives.slice(0, keep);
      if (first.some((a) => used.has(a.text))) return { ...w, alternatives: first };
      const found = w.alternatives.slice(keep).filter((a) => used.has(a.text));
      return { ...w, alternatives: [...found, ...first].slice(0, keep) };
    }),
  };
}
