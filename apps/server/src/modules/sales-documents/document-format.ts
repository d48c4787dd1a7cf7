import type { Language } from '@werkwissen/shared';
import { translate } from '../../i18n/translator.ts';

/**
 * A document's fixed texts (`documents.*`), amounts, numbers and dates in its language, as its PDF, its e-invoice's
 * texts and its mail write them. Arabic keeps Latin digits, as German business papers print them.
 */
export function documentFormat(lang: Language) {
  const locale = lang === 'ar' ? 'ar-u-nu-latn' : lang;
  return {
    t: (key: string, vars?: Record<string, unknown>) => translate(lang, `documents.${key}`, vars),
    money: (cents: number) =>
      new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(cents / 100),
    number: (n: number) => new Intl.NumberFormat(locale, { maximumFractionDigits: 3 }).format(n),
    date: (iso: string) =>
      new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(
        new Date(`${iso}T00:00:00Z`),
      ),
  };
}
export type DocumentFormat = ReturnType<typeof documentFormat>;
