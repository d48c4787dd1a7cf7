import { describe, expect, it } from 'vitest';
import { questionLanguage } from './question-language.ts';

describe('the language an answer is framed in', () => {
  it('tells short German questions by their words and letters, not by a guess of franc', () => {
    // Each of these was framed in French, English or Portuguese before.
    expect(questionLanguage('Entkalker ins Auge bekommen was tun', 'en')).toBe('de');
    expect(questionLanguage('Artikelnummer vom Thermostatkopf mit Fernfühler', 'en')).toBe('de');
    expect(questionLanguage('Heizkörper Typ 22 600x1000 Preis', 'en')).toBe('de');
  });

  it('answers the other interface languages in their own', () => {
    expect(questionLanguage('How much is the call-out charge?', 'de')).toBe('en');
    expect(questionLanguage('Ile kosztuje godzina pracy czeladnika?', 'de')).toBe('pl');
    expect(questionLanguage('Сколько стоит час работы мастера?', 'de')).toBe('ru');
    expect(questionLanguage('Скільки коштує година роботи майстра?', 'de')).toBe('uk');
    expect(questionLanguage('كم سعر ساعة العمل؟', 'de')).toBe('ar');
  });

  it("falls back to the asker's language for a language the product does not speak, or a question it cannot tell", () => {
    expect(questionLanguage('Kalfalık saatlik ücreti ne kadar?', 'de')).toBe('de');
    expect(questionLanguage('Kalfalık saatlik ücreti ne kadar?', 'en')).toBe('en');
    expect(questionLanguage('F28', 'it')).toBe('it');
  });
});
