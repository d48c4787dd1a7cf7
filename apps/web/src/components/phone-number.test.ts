import { describe, expect, it } from 'vitest';
import { formPhoneCountry, formPhoneField } from './phone-number.ts';

describe('a phone number typed in a form', () => {
  it('is sent in E.164, a national number read in the person’s country', () => {
    expect(formPhoneField('DE').parse('+49 0151 23456789')).toBe('+4915123456789');
    expect(formPhoneField('DE').parse('0151 23456789')).toBe('+4915123456789');
    expect(formPhoneField(formPhoneCountry(null, 'it')).parse('06 1234 5678')).toBe('+390612345678');
    expect(formPhoneField('DE').parse('  ')).toBe('');
  });

  it('is refused when it reads as no number', () => {
    const result = formPhoneField('DE').safeParse('ruf mich an');
    expect(result.error?.issues.map((i) => i.message)).toEqual(['validation.phone']);
  });
});
