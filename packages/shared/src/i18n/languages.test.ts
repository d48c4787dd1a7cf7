import { describe, expect, it } from 'vitest';
import { isRtl, LANGUAGES, languageFromAcceptHeader, normalizeLanguage } from './languages.ts';

describe('normalizeLanguage', () => {
  it.each([
    ['de', 'de'],
    ['de-AT', 'de'],
    ['DE-de', 'de'],
    ['ua', 'uk'],
    ['uk-UA', 'uk'],
    ['pt_BR', 'pt'],
    [' fr ', 'fr'],
    ['ar-EG', 'ar'],
  ])('%j → %s', (tag, expected) => {
    expect(normalizeLanguage(tag)).toBe(expected);
  });

  it.each(['xx', 'es', 'english', '*', '', null, undefined])('%j → undefined', (tag) => {
    expect(normalizeLanguage(tag)).toBeUndefined();
  });

  it('maps every supported language to itself', () => {
    for (const lang of LANGUAGES) expect(normalizeLanguage(lang)).toBe(lang);
  });
});

describe('languageFromAcceptHeader', () => {
  it('takes the first supported language when there are no q-values', () => {
    expect(languageFromAcceptHeader('fr-CH, de')).toBe('fr');
  });

  it('orders by q-value, not by position', () => {
    expect(languageFromAcceptHeader('en;q=0.5, de;q=0.9, fr;q=0.7')).toBe('de');
    expect(languageFromAcceptHeader('it;q=0.1, pl')).toBe('pl');
  });

  it('keeps header order among equal q-values', () => {
    expect(languageFromAcceptHeader('ru;q=0.8, uk;q=0.8')).toBe('ru');
    expect(languageFromAcceptHeader('uk;q=0.8, ru;q=0.8')).toBe('uk');
  });

  it('skips unsupported languages and wildcards', () => {
    expect(languageFromAcceptHeader('es-ES, ja;q=0.9, *;q=0.8, pt-BR;q=0.5')).toBe('pt');
    expect(languageFromAcceptHeader('es, ja;q=0.9')).toBeUndefined();
  });

  it('never picks a language marked q=0 (not acceptable)', () => {
    expect(languageFromAcceptHeader('de;q=0, fr;q=0.1')).toBe('fr');
    expect(languageFromAcceptHeader('de;q=0')).toBeUndefined();
  });

  it('accepts ua as uk', () => {
    expect(languageFromAcceptHeader('ua, en;q=0.5')).toBe('uk');
  });

  it('tolerates whitespace around parameters', () => {
    expect(languageFromAcceptHeader('en ; q=0.2 , ar ; q=0.6')).toBe('ar');
  });

  it('returns undefined without a header', () => {
    expect(languageFromAcceptHeader(undefined)).toBeUndefined();
    expect(languageFromAcceptHeader('')).toBeUndefined();
  });
});

describe('isRtl', () => {
  it('is true for Arabic only', () => {
    expect(LANGUAGES.filter(isRtl)).toEqual(['ar']);
  });
});
