import type { Language } from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';

/** Tesseract's language pack of each interface language. */
export const TESSERACT_PACK: Record<Language, string> = {
  ar: 'ara',
  de: 'deu',
  en: 'eng',
  fr: 'fra',
  it: 'ita',
  pl: 'pol',
  pt: 'por',
  ru: 'rus',
  uk: 'ukr',
};

const PACKS = new Set(Object.values(TESSERACT_PACK));
/** A person's language (de) or a file's detected language (ISO 639-3: deu; Arabic is arb) as a pack. */
const packOf = (language: string) =>
  TESSERACT_PACK[language as Language] ??
  (language === 'arb' ? 'ara' : PACKS.has(language) ? language : undefined);

/**
 * The company's languages as Tesseract packs, the most used first: the languages of its people, then those its
 * published files were detected in.
 */
export async function companyOcrPacks(ctx: AppContext, companyId: string): Promise<string[]> {
  const { rows } = await ctx.db.execute<{ language: string }>(sql`
    select language from (
      select language, count(*) as n, 0 as source from users where company_id = ${companyId} group by language
      union all
      select language, count(*) as n, 1 as source from files
       where company_id = ${companyId} and status = 'ready' and language is not null group by language
    ) l order by source, n desc, language`);
  const packs = rows.map((r) => packOf(r.language)).filter((p): p is string => p !== undefined);
  return [...new Set(packs)];
}
