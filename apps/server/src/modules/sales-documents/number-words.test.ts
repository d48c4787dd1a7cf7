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

  it('reads no number into other words', () => {
    for (const word of ['Heizkörper', 'a', 'Typ', 'twentyfive', 'zwanzigund', 'وحدة', '22', '']) {
      expect(numberWordValue(word), word).toBeNull();
    }
    expect(numberWordsAt(['Wartung'], 0)).toBeNull();
    expect(numberWordsAt([], 0)).toBeNull();
  });
});
