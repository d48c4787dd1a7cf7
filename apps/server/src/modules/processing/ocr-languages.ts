import type { Language } from '@werkwissen/shared';
import type { AppContext } from '../../app-context.ts';
import { companyLanguages } from './file-runs.queries.ts';

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
  const languages = await companyLanguages(ctx.db, companyId);
  const packs = languages.map(packOf).filter((p): p is string => p !== undefined);
  return [...new Set(packs)];
}
