import type { Language } from '@werkwissen/shared';
import { COUNTRY_OF_LANGUAGE, toE164 } from '@werkwissen/shared/phone';
import { z } from 'zod';

/** The country a national number typed in a form is read in: the person's own, else their language's. */
export const formPhoneCountry = (country: string | null | undefined, language: Language) =>
  country || COUNTRY_OF_LANGUAGE[language];

/**
 * A person's phone number field in a form: empty, or the number in E.164 ("0151 23456789" in Germany becomes
 * "+4915123456789"), which is what the server stores; a number that reads as none is refused as the server would.
 */
export const formPhoneField = (country: string) =>
  z
    .string()
    .trim()
    .max(30, { message: 'validation.tooLong' })
    .transform((value, ctx) => {
      if (!value) return '';
      const e164 = toE164(value, country);
      if (e164) return e164;
      ctx.addIssue({ code: 'custom', message: 'validation.phone' });
      return z.NEVER;
    });
