import type { Language } from '@werkwissen/shared';
import { COUNTRY_OF_LANGUAGE, toE164 } from '@werkwissen/shared/phone';
import type { AppContext } from '../app-context.ts';
import { translate } from '../i18n/translator.ts';
import type { Actor } from './actor.ts';
import { AppError } from './app-error.ts';
import { storedCountry } from './users.queries.ts';

/**
 * A person's phone number as it is stored: E.164 as libphonenumber-js reads the contract's "+digits" ("+49015123456789"
 * becomes "+4915123456789", the number WhatsApp reports), null and absent as they are. A number of no country is
 * refused on the `phone` field, in `lang`.
 */
export function storedPhone<T extends string | null | undefined>(phone: T, lang: Language): T | string {
  if (!phone) return phone;
  const e164 = toE164(phone);
  if (e164) return e164;
  throw new AppError('VALIDATION_FAILED', {
    in: 'body',
    fields: [{ field: 'phone', code: 'validation.phone', message: translate(lang, 'validation.phone') }],
  });
}

/**
 * The country a national phone number typed by this actor is read in ("0151 23456789" in a German company): their
 * company's (its master data), else their own, else their language's.
 */
export async function phoneCountryOf(ctx: AppContext, actor: Actor): Promise<string> {
  const country = await storedCountry(ctx.db, actor);
  return country ?? COUNTRY_OF_LANGUAGE[actor.language];
}

/** A phone number of an import row in E.164 when it reads as one in `country`; else as typed, for the schema to refuse. */
export const importedPhone = (phone: string | undefined, country: string) =>
  phone ? (toE164(phone, country) ?? phone) : undefined;
