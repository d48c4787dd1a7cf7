import { z } from 'zod';
import { LANGUAGES, normalizeLanguage } from '../i18n/languages.ts';

/** Field schemas shared by the API and the browser's forms; messages are locale keys (`validation.*`). */

/**
 * Control characters have no place in text a person types: a NUL byte cannot even be stored by PostgreSQL. One-line
 * fields refuse every C0 control and DEL; multi-line fields (a question, a comment, CSV) keep tab, CR and LF.
 */
const isControl = (code: number) => code < 0x20 || code === 0x7f;
const isLineControl = (code: number) => isControl(code) && code !== 0x09 && code !== 0x0a && code !== 0x0d;
function has(text: string, test: (code: number) => boolean): boolean {
  for (let i = 0; i < text.length; i++) if (test(text.charCodeAt(i))) return true;
  return false;
}
const singleLine = (v: string) => !has(v, isControl);
const controlCharacters = { message: 'validation.controlCharacters' };

/** Bidi embeddings, overrides and isolates, LRM and RLM: they can disguise what a name shows (as in file names). */
const BIDI_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/**
 * Spaces and characters that show nothing, at the start or end: removed, so that a name made only of them is empty
 * (missing). Inside text they stay (ZWJ and ZWNJ join emoji and shape Arabic or Persian words).
 */
const EDGE_INVISIBLE = /^[\s\u200b-\u200d\u2060\ufeff]+|[\s\u200b-\u200d\u2060\ufeff]+$/gu;

/** Any string without control characters (tokens, keys, passwords at sign-in): nothing is changed. */
export const plainText = (max: number) =>
  z
    .string({ message: 'validation.required' })
    .max(max, { message: 'validation.tooLong' })
    .refine(singleLine, controlCharacters);

/** A password given to sign in or to confirm: only NUL is refused, so that no password set earlier is locked out. */
export const givenPasswordField = (max = 1024) =>
  z
    .string({ message: 'validation.required' })
    .min(1, { message: 'validation.required' })
    .max(max, { message: 'validation.tooLong' })
    .refine((v) => !has(v, (code) => code === 0), controlCharacters);

/**
 * One line of text a person types (names, models, addresses): trimmed, without control characters, bidi controls
 * removed, invisible characters at the edges removed. May be empty; see `requiredText`.
 */
export const singleLineText = (max = 200) =>
  z
    .string({ message: 'validation.required' })
    .overwrite((v) => v.replace(BIDI_CONTROLS, '').replace(EDGE_INVISIBLE, ''))
    .max(max, { message: 'validation.tooLong' })
    .refine(singleLine, controlCharacters);

/** One line of text that must show something: empty, blank or invisible-only text is missing. */
export const requiredText = (max = 200) => singleLineText(max).min(1, { message: 'validation.required' });

/** Text of several lines (a question, a comment, CSV): trimmed; tab, CR and LF are the only controls allowed. */
export const multiLineText = (max: number) =>
  z
    .string({ message: 'validation.required' })
    .trim()
    .max(max, { message: 'validation.tooLong' })
    .refine((v) => !has(v, isLineControl), controlCharacters);

export const emailField = z
  .string({ message: 'validation.required' })
  .trim()
  .min(1, { message: 'validation.required' })
  .max(254, { message: 'validation.tooLong' })
  .refine(singleLine, controlCharacters)
  .pipe(z.email({ message: 'validation.email' }))
  .transform((e) => e.toLowerCase());

/**
 * Spec section 5: at least 8 characters, one lowercase letter, and one number, symbol or whitespace. No control
 * characters (a new password; signing in only refuses NUL, so that no older password is locked out).
 */
export const passwordField = z
  .string({ message: 'validation.required' })
  .refine(singleLine, controlCharacters)
  .min(8, { message: 'validation.passwordMinLength' })
  .max(128, { message: 'validation.tooLong' })
  .regex(/\p{Ll}/u, { message: 'validation.passwordLowercase' })
  .regex(/[\d\s\p{P}\p{S}]/u, { message: 'validation.passwordNumberOrSymbol' });

/** A password of another system (a mailbox's), kept exactly as typed: one line, no control characters. */
export const foreignSecretField = (max = 1024) =>
  z
    .string({ message: 'validation.required' })
    .max(max, { message: 'validation.tooLong' })
    .refine(singleLine, controlCharacters);

/** A contact number printed as typed (a company's, a customer's): people's own phones are `e164PhoneField`. */
export const phoneField = z
  .string({ message: 'validation.required' })
  .trim()
  .min(1, { message: 'validation.required' })
  .max(25, { message: 'validation.tooLong' })
  // At least five digits; may start with +, a digit or an opening bracket: "+49 30 1234567", "(030) 1234567".
  .regex(/^(?=(?:\D*\d){5})(\+|\(?\d)[\d ()./-]{4,24}$/, { message: 'validation.phone' });

/**
 * A person's phone number (their WhatsApp identity: users, employees, public visitors), given with its country code
 * ("+49 0151 23456789", "0049 151 23456789"): compacted to "+" and digits. The server then stores it in E.164 as
 * libphonenumber-js reads it (`phone.ts`: the trunk zero dropped, so that it matches the number WhatsApp reports),
 * refusing a number of no country; that library stays out of the contracts, which every page loads. A number
 * without a country code is refused (`validation.phoneCountryCode`): forms add the country the person chose or
 * lives in, imports the company's.
 */
export const e164PhoneField = z
  .string({ message: 'validation.required' })
  .trim()
  .min(1, { message: 'validation.required' })
  .max(30, { message: 'validation.tooLong' })
  .refine(singleLine, { ...controlCharacters, abort: true })
  .transform((value, ctx) => {
    const compact = value.replace(/[\s()./-]/g, '').replace(/^00(?=[1-9])/, '+');
    if (/^\+[1-9]\d{4,16}$/.test(compact)) return compact;
    const national = /^\(?0?[1-9]/.test(value) && /^[\d\s()./-]{5,}$/.test(value);
    ctx.addIssue({ code: 'custom', message: national ? 'validation.phoneCountryCode' : 'validation.phone' });
    return z.NEVER;
  });

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
