import { describe, expect, it } from 'vitest';
import { numberWordsAt, numberWordValue } from './number-words.ts';

describe('number words', () => {
  it('reads the counts a job names in each of the nine languages', () => {
    const two = [
      'zwei',
      'two',
      'deux',
      'due',
      'dois',
      'duas',
      'dwa',
      'dwie',
      'два',
      'две',
      'дві',
      'اثنين',
      'اثنان',
    ];
    for (const word of two) expect(numberWordValue(word), word).toBe(2);
    const four = [
      'vier',
      'four',
      'quatre',
      'quattro',
      'quatro',
      'cztery',
      'четыре',
      'чотири',
      'أربعة',
      'اربع',
    ];
    for (const word of four) expect(numberWordValue(word), word).toBe(4);
    expect(numberWordValue('Drei')).toBe(3);
    expect(numberWordValue('einen')).toBe(1);
    expect(numberWordValue('zwölf')).toBe(12);
    expect(numberWordValue('пʼять')).toBe(5);
    expect(numberWordValue("п'ять")).toBe(5);
    expect(numberWordValue('ثلاثة')).toBe(3);
    expect(numberWordValue('وثلاث')).toBe(3);
  });

  it('reads tens and the numbers made of a ten and a unit', () => {
    expect(numberWordValue('zwanzig')).toBe(20);
    expect(numberWordValue('fünfundzwanzig')).toBe(25);
    expect(numberWordValue('einundzwanzig')).toBe(21);
    expect(numberWordValue('vingt-cinq')).toBe(25);
    expect(numberWordValue('twenty-five')).toBe(25);
    expect(numberWordsAt(['twenty', 'five', 'metres'], 0)).toEqual({ value: 25, length: 2 });
    expect(numberWordsAt(['двадцать', 'пять', 'метров'], 0)).toEqual({ value: 25, length: 2 });
    expect(numberWordsAt(['a', 'single', 'valve'], 0)).toEqual({ value: 1, length: 2 });
    expect(numberWordsAt(['three', 'hours'], 0)).toEqual({ value: 3, length: 1 });
  });

  it('reads the cases a count takes in Russian, Ukrainian and Polish', () => {
    for (const word of ['двух', 'двумя', 'двох', 'двома', 'dwóch', 'dwoma'])
      expect(numberWordValue(word), word).toBe(2);
    for (const word of ['трёх', 'трех', 'трьох', 'trzech']) expect(numberWordValue(word), word).toBe(3);
    for (const word of ['четырёх', 'четырьмя', 'чотирьох', 'чотирма', 'czterech'])
      expect(numberWordValue(word), word).toBe(4);
  });

  it('reads halves: alone, as one and a half, and after a count', () => {
    expect(numberWordsAt(['anderthalb', 'Stunden'], 0)).toEqual({ value: 1.5, length: 1 });
    expect(numberWordsAt(['eineinhalb', 'Stunden'], 0)).toEqual({ value: 1.5, length: 1 });
    expect(numberWordsAt(['zweieinhalb', 'Stunden'], 0)).toEqual({ value: 2.5, length: 1 });
    expect(numberWordsAt(['eine', 'halbe', 'Stunde'], 0)).toEqual({ value: 0.5, length: 2 });
    expect(numberWordsAt(['half', 'an', 'hour'], 0)).toEqual({ value: 0.5, length: 2 });
    expect(numberWordsAt(['one', 'and', 'a', 'half', 'hours'], 0)).toEqual({ value: 1.5, length: 4 });
    expect(numberWordsAt(['полтора', 'часа'], 0)).toEqual({ value: 1.5, length: 1 });
    expect(numberWordsAt(['півтори', 'години'], 0)).toEqual({ value: 1.5, length: 1 });
    expect(numberWordsAt(['półtora', 'godziny'], 0)).toEqual({ value: 1.5, length: 1 });
    expect(numberWordsAt(['два', 'с', 'половиной', 'часа'], 0)).toEqual({ value: 2.5, length: 3 });
    expect(numberWordsAt(['dwie', 'i', 'pół', 'godziny'], 0)).toEqual({ value: 2.5, length: 3 });
    expect(numberWordsAt(['نصف', 'ساعة'], 0)).toEqual({ value: 0.5, length: 1 });
    expect(numberWordsAt(['two', 'and', 'three'], 0)).toEqual({ value: 2, length: 1 });
  });

  it('reads no number into other words', () => {
    for (const word of ['Heizkörper', 'a', 'Typ', 'twentyfive', 'zwanzigund', 'وحدة', '22', '']) {
      expect(numberWordValue(word), word).toBeNull();
    }
    expect(numberWordsAt(['Wartung'], 0)).toBeNull();
    expect(numberWordsAt([], 0)).toBeNull();
  });
});
