import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { formatPhone, languageOfPhone, toE164 } from '../phone.ts';
import { registerBodySchema } from './auth.contract.ts';
import {
  countryField,
  e164PhoneField,
  emailField,
  givenPasswordField,
  languageField,
  multiLineText,
  passwordField,
  phoneField,
  requiredText,
  singleLineText,
} from './fields.ts';

/** The messages (locale keys) of a failed parse; fails the test when the value was accepted. */
function messagesOf(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  if (result.success) throw new Error(`expected ${JSON.stringify(value)} to be rejected`);
  return result.error.issues.map((issue) => issue.message);
}

describe('passwordField', () => {
  it.each(['sicher-Pass-1', 'abcdefg ', 'ümlaut!!x', 'abcdefg1', 'pass word'])('accepts %j', (password) => {
    expect(passwordField.parse(password)).toBe(password);
  });

  it.each([
    ['ABCDEFG1', 'validation.passwordLowercase'],
    ['abcdefgh', 'validation.passwordNumberOrSymbol'],
    ['ab1', 'validation.passwordMinLength'],
    ['ÄÖÜ12345', 'validation.passwordLowercase'],
  ])('rejects %j with %s', (password, message) => {
    expect(messagesOf(passwordField, password)).toEqual([message]);
  });

  it('reports every broken rule of the policy', () => {
    expect(messagesOf(passwordField, 'ABC').sort()).toEqual(
      [
        'validation.passwordLowercase',
        'validation.passwordMinLength',
        'validation.passwordNumberOrSymbol',
      ].sort(),
    );
  });

  it('rejects passwords longer than 128 characters', () => {
    expect(messagesOf(passwordField, `a1${'x'.repeat(127)}`)).toEqual(['validation.tooLong']);
    expect(passwordField.parse(`a1${'x'.repeat(126)}`)).toHaveLength(128);
  });

  it('rejects a missing password as required', () => {
    expect(messagesOf(passwordField, undefined)).toEqual(['validation.required']);
  });
});

describe('emailField', () => {
  it('trims and lower-cases', () => {
    expect(emailField.parse('  Max.Muster@Example.COM ')).toBe('max.muster@example.com');
  });

  it.each([
    ['not-an-email', 'validation.email'],
    ['max@', 'validation.email'],
    ['', 'validation.required'],
    ['   ', 'validation.required'],
  ])('rejects %j with %s', (email, message) => {
    expect(messagesOf(emailField, email)).toEqual([message]);
  });

  it('rejects addresses longer than 254 characters', () => {
    expect(messagesOf(emailField, `${'a'.repeat(250)}@x.de`)).toEqual(['validation.tooLong']);
  });
});

describe('phoneField', () => {
  it.each(['+49 30 1234567', '030/123 456-7', '+49 (30) 1234567', '(030) 1234567'])('accepts %j', (phone) => {
    expect(phoneField.parse(phone)).toBe(phone);
  });

  it.each(['abc', '+49', '12'])('rejects %j', (phone) => {
    expect(messagesOf(phoneField, phone)).toEqual(['validation.phone']);
  });
});

describe('e164PhoneField', () => {
  it.each([
    ['+49 0151 23456789', '+49015123456789'],
    ['0049 151 23456789', '+4915123456789'],
    ['+49 (30) 123-4567', '+49301234567'],
  ])('compacts %j to %j (the server reads it into E.164)', (typed, compact) => {
    expect(e164PhoneField.parse(typed)).toBe(compact);
  });

  it('asks for the country code of a national number', () => {
    expect(messagesOf(e164PhoneField, '0151 23456789')).toEqual(['validation.phoneCountryCode']);
  });

  it.each(['abc', '+49', '+49 12', 'call me'])('rejects %j', (phone) => {
    expect(messagesOf(e164PhoneField, phone)).toEqual(['validation.phone']);
  });
});

describe('phone numbers', () => {
  it.each([
    ['+49 01512 3456789', '+4915123456789'],
    ['+49015123456789', '+4915123456789'],
    ['0049 151 23456789', '+4915123456789'],
    ['+39 06 1234 5678', '+390612345678'],
  ])('stores %j as %j', (typed, stored) => {
    expect(toE164(typed)).toBe(stored);
  });

  it('refuses a number of no country', () => {
    expect(toE164('+1 555 0100')).toBeNull();
  });

  it('reads a national number in its country and formats E.164 internationally', () => {
    expect(toE164('0151 23456789', 'de')).toBe('+4915123456789');
    expect(toE164('0151 23456789')).toBeNull();
    expect(formatPhone('+4915123456789')).toBe('+49 1512 3456789');
    expect(formatPhone('030 1234567')).toBe('030 1234567');
  });

  it('guesses a language from the country code', () => {
    expect(languageOfPhone('48512345678')).toBe('pl');
    expect(languageOfPhone('+380501234567')).toBe('uk');
    expect(languageOfPhone('+966501234567')).toBe('ar');
    expect(languageOfPhone('+81312345678')).toBeNull();
  });
});

describe('languageField', () => {
  it("accepts 'ua' as 'uk'", () => {
    expect(languageField.parse('ua')).toBe('uk');
  });

  it('normalises regional tags', () => {
    expect(languageField.parse('de-AT')).toBe('de');
  });

  it('rejects unsupported languages', () => {
    expect(messagesOf(languageField, 'xx')).toEqual(['validation.language']);
  });
});

describe('countryField', () => {
  it('upper-cases two letters', () => {
    expect(countryField.parse(' de ')).toBe('DE');
  });

  it.each(['DEU', 'D', '12'])('rejects %j', (country) => {
    expect(messagesOf(countryField, country)).toEqual(['validation.country']);
  });
});

describe('registerBodySchema', () => {
  const body = {
    email: 'Anna@Example.com',
    firstName: 'Anna',
    lastName: 'Muster',
    phone: '+49 30 1234567',
    password: 'sicher-Pass-1',
    confirmPassword: 'sicher-Pass-1',
    language: 'ua',
    country: 'de',
    companyName: 'Muster GmbH',
    acceptTerms: true,
  };

  it('accepts a complete body and normalises it', () => {
    expect(registerBodySchema.parse(body)).toEqual({
      ...body,
      email: 'anna@example.com',
      phone: '+49301234567',
      language: 'uk',
      country: 'DE',
    });
  });

  it.each([false, undefined, 'true'])('requires acceptTerms to be true (got %j)', (acceptTerms) => {
    const result = registerBodySchema.safeParse({ ...body, acceptTerms });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['acceptTerms', 'validation.termsRequired'],
    ]);
  });

  it('requires the passwords to match', () => {
    const result = registerBodySchema.safeParse({ ...body, confirmPassword: 'sicher-Pass-2' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['confirmPassword', 'validation.passwordMismatch'],
    ]);
  });

  it('rejects unknown keys', () => {
    const result = registerBodySchema.safeParse({ ...body, isAdmin: true });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys', keys: ['isAdmin'] }),
    ]);
  });

  it('applies the password policy', () => {
    const result = registerBodySchema.safeParse({
      ...body,
      password: 'abcdefgh',
      confirmPassword: 'abcdefgh',
    });
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['password', 'validation.passwordNumberOrSymbol'],
    ]);
  });
});

describe('control characters', () => {
  const controls = ['\u0000', '\u0001', '\u0007', '\u001b', '\u007f'];

  it.each(controls)('one-line text refuses %j anywhere', (c) => {
    expect(messagesOf(requiredText(80), `Hei${c}zung`)).toEqual(['validation.controlCharacters']);
    expect(messagesOf(singleLineText(80), `Hei${c}zung`)).toEqual(['validation.controlCharacters']);
  });

  it.each(['\t', '\n', '\r'])('one-line text refuses %j inside, and trims it at the edges', (c) => {
    expect(messagesOf(requiredText(80), `Hei${c}zung`)).toEqual(['validation.controlCharacters']);
    expect(requiredText(80).parse(`${c}Heizung${c}`)).toBe('Heizung');
  });

  it('multi-line text keeps tab, CR and LF and refuses the other controls', () => {
    expect(multiLineText(100).parse(' Zeile 1\r\n\tZeile 2 ')).toBe('Zeile 1\r\n\tZeile 2');
    for (const c of controls) {
      expect(messagesOf(multiLineText(100), `Zeile${c}`)).toEqual(['validation.controlCharacters']);
    }
  });

  it('e-mail addresses and new passwords refuse them; a password to sign in only refuses NUL', () => {
    expect(messagesOf(emailField, 'anna\u0000@example.com')).toEqual(['validation.controlCharacters']);
    expect(messagesOf(passwordField, 'sicher-\u0001Pass-1')).toEqual(['validation.controlCharacters']);
    expect(messagesOf(givenPasswordField(), 'sicher-\u0000Pass-1')).toEqual(['validation.controlCharacters']);
    expect(givenPasswordField().parse('alt\u0001es-Passwort')).toBe('alt\u0001es-Passwort');
  });
});

describe('invisible and bidi characters in names', () => {
  it.each(['\u202e', '\u202a', '\u202d', '\u2066', '\u2069', '\u200e', '\u200f'])(
    'removes the bidi control %j',
    (c) => {
      expect(requiredText(80).parse(`${c}Rechnung${c}fdp.exe`)).toBe('Rechnungfdp.exe');
    },
  );

  it.each(['\u200b', '\u200c\u200d', ' \u2060 ', '\ufeff', '\u200b \u200b', '\u202e'])(
    'treats %j alone as missing',
    (value) => {
      expect(messagesOf(requiredText(80), value)).toEqual(['validation.required']);
    },
  );

  it('removes invisible characters at the edges but keeps ZWJ and ZWNJ inside text', () => {
    expect(requiredText(80).parse('\u200bVertrieb\ufeff')).toBe('Vertrieb');
    expect(requiredText(80).parse('👩\u200d💻 Team')).toBe('👩\u200d💻 Team');
    expect(requiredText(80).parse('می\u200cخواهم')).toBe('می\u200cخواهم');
    expect(requiredText(80).parse('مبيعات')).toBe('مبيعات');
  });

  it('may leave optional one-line text empty', () => {
    expect(singleLineText(80).optional().parse('\u200b ')).toBe('');
  });
});
