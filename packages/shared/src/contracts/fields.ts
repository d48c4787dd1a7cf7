import { z } from 'zod';
import { LANGUAGES, normalizeLanguage } from '../i18n/languages.ts';

/** Field schemas shared by the API and the browser's forms; messages are locale keys (`validation.*`). */

export const requiredText = (max = 200) =>
  z
    .string({ message: 'validation.required' })
    .trim()
    .min(1, { message: 'validation.required' })
    .max(max, { message: 'validation.tooLong' });

export const emailField = z
  .string({ message: 'validation.required' })
  .trim()
  .min(1, { message: 'validation.required' })
  .max(254, { message: 'validation.tooLong' })
  .pipe(z.email({ message: 'validation.email' }))
  .transform((e) => e.toLowerCase());

/** Spec section 5: at least 8 characters, one lowercase letter, and one number, symbol or whitespace. */
export const passwordField = z
  .string({ message: 'validation.required' })
  .min(8, { message: 'validation.passwordMinLength' })
  .max(128, { message: 'validation.tooLong' })
  .regex(/\p{Ll}/u, { message: 'validation.passwordLowercase' })
  .regex(/[\d\s\p{P}\p{S}]/u, { message: 'validation.passwordNumberOrSymbol' });

export const phoneField = z
  .string({ message: 'validation.required' })
  .trim()
  .min(1, { message: 'validation.required' })
  .max(25, { message: 'validation.tooLong' })
  // At least five digits; may start with +, a digit or an opening bracket: "+49 30 1234567", "(030) 1234567".
  .regex(/^(?=(?:\D*\d){5})(\+|\(?\d)[\d ()./-]{4,24}$/, { message: 'validation.phone' });

export const languageField = z.preprocess(
  (v) => (typeof v === 'string' ? (normalizeLanguage(v) ?? v) : v),
  z.enum(LANGUAGES, { message: 'validation.language' }),
);

export const countryField = z
  .string({ message: 'validation.required' })
  .trim()
  .regex(/^[A-Za-z]{2}$/, { message: 'validation.country' })
  .transform((c) => c.toUpperCase());

/** Adds the "passwords match" rule to an object with `password` and `confirmPassword`. */
export function withPasswordConfirmation<
  T extends z.ZodObject<{ password: z.ZodType; confirmPassword: z.ZodType }>,
>(schema: T) {
  return schema.refine((v) => v.password === v.confirmPassword, {
    message: 'validation.passwordMismatch',
    path: ['confirmPassword'],
    // Also checked while other fields are still wrong, so that a form shows every problem at once.
    when: (payload) => {
      const v = payload.value as { password?: unknown; confirmPassword?: unknown } | null;
      return typeof v?.password === 'string' && typeof v.confirmPassword === 'string';
    },
  });
}

/** A bot check's answer: an ALTCHA payload (base64) or a reCAPTCHA / Turnstile token. */
export const botCheckField = z
  .string()
  .max(4000)
  .regex(/^[\w+/=.:-]*$/, { message: 'validation.invalid' });
