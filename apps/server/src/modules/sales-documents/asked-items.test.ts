import { describe, expect, it } from 'vitest';
import { askedItems } from './asked-items.ts';

const read = (job: string) => askedItems(job).map(({ quantity, words }) => ({ quantity, words }));

describe('the items a job asks for', () => {
  it('splits the job at commas and "und", with the quantity each names in digits or words', () => {
    expect(
      read(
        'Jährliche Wartung des Gas-Brennwertkessels, zwei Heizkörper Typ 22 tauschen, vier Thermostatköpfe einbauen, 3 Monteurstunden Geselle und Anfahrtspauschale',
      ),
    ).toEqual([
      { quantity: null, words: ['jährliche', 'wartung', 'gas-brennwertkessels'] },
      { quantity: 2, words: ['heizkörper', 'typ', '22', 'tauschen'] },
      { quantity: 4, words: ['thermostatköpfe', 'einbauen'] },
      { quantity: 3, words: ['monteurstunden', 'geselle'] },
      { quantity: null, words: ['anfahrtspauschale'] },
    ]);
  });

  it('reads quantities before a unit and decimal commas, and no size or model number as one', () => {
    expect(read('Anfahrt 25 km; 2,5 Stunden Helfer')).toEqual([
      { quantity: 25, words: ['anfahrt', 'km'] },
      { quantity: 2.5, words: ['stunden', 'helfer'] },
    ]);
    expect(read('Heizkörper Typ 22 tauschen')).toEqual([
      { quantity: null, words: ['heizkörper', 'typ', '22', 'tauschen'] },
    ]);
    expect(read('Kupferrohr 15 mm verlegen')[0]!.quantity).toBeNull();
    expect(read('Rohr verlegen 12 m')[0]!.quantity).toBe(12);
  });

  it('reads jobs in the other languages of the product', () => {
    expect(read('Replace two type 22 radiators and three hours of a journeyman')).toEqual([
      { quantity: 2, words: ['replace', 'type', '22', 'radiators'] },
      { quantity: 3, words: ['hours', 'journeyman'] },
    ]);
    expect(read('Remplacer deux radiateurs et trois heures')).toEqual([
      { quantity: 2, words: ['remplacer', 'radiateurs'] },
      { quantity: 3, words: ['heures'] },
    ]);
    expect(read('Заменить два радиатора и четыре термостата')).toEqual([
      { quantity: 2, words: ['заменить', 'радиатора'] },
      { quantity: 4, words: ['термостата'] },
    ]);
    expect(read('Wymiana dwóch grzejników oraz ٣ godziny pracy')).toEqual([
      { quantity: 2, words: ['wymiana', 'grzejników'] },
      { quantity: 3, words: ['godziny', 'pracy'] },
    ]);
    expect(read('تغيير ثلاثة مشعات، صيانة الغلاية')).toEqual([
      { quantity: 3, words: ['تغيير', 'مشعات'] },
      { quantity: null, words: ['صيانه', 'الغلايه'] },
    ]);
  });

  it('reads halves as quantities, in digits and in words, and does not split a count at its "and"', () => {
    expect(
      read('1,5 Std Geselle; anderthalb Stunden Meister, zweieinhalb Stunden Helfer').map((i) => i.quantity),
    ).toEqual([1.5, 1.5, 2.5]);
    expect(read('two and a half hours journeyman and half an hour master')).toEqual([
      { quantity: 2.5, words: ['hours', 'journeyman'] },
      { quantity: 0.5, words: ['hour', 'master'] },
    ]);
    expect(read('deux heures et demie de compagnon')).toEqual([
      { quantity: 2.5, words: ['heures', 'compagnon'] },
    ]);
    expect(read('due ore e mezza di lavoro')).toEqual([{ quantity: 2.5, words: ['ore', 'lavoro'] }]);
    expect(read('полтора часа работы, два с половиной часа мастера').map((i) => i.quantity)).toEqual([
      1.5, 2.5,
    ]);
    expect(read('півтори години роботи')[0]!.quantity).toBe(1.5);
    expect(read('dwie i pół godziny pracy')[0]!.quantity).toBe(2.5);
    expect(read('ساعتان ونصف عمل')).toEqual([{ quantity: 2.5, words: ['ساعتان', 'عمل'] }]);
  });

  it('reads a half written into its noun, and leaves words that only begin like one', () => {
    expect(read('полчаса работы мастера')).toEqual([{ quantity: 0.5, words: ['часа', 'работы', 'мастера'] }]);
    expect(read('півгодини роботи')).toEqual([{ quantity: 0.5, words: ['години', 'роботи'] }]);
    expect(read("mezz'ora di lavoro")).toEqual([{ quantity: 0.5, words: ['ora', 'lavoro'] }]);
    expect(read('une demi-heure de compagnon')).toEqual([{ quantity: 0.5, words: ['heure', 'compagnon'] }]);
    expect(read('полка для инструмента')[0]!.quantity).toBeNull();
    expect(read('укладка плитки на пол ванной')[0]!.quantity).toBeNull();
  });

  it('reads a count in the case its noun asks for, and a model number after an inflected or Arabic "type"', () => {
    expect(read('замена двух радиаторов типа 22')).toEqual([
      { quantity: 2, words: ['замена', 'радиаторов', 'типа', '22'] },
    ]);
    expect(read('заміна двох радіаторів типу 22')).toEqual([
      { quantity: 2, words: ['заміна', 'радіаторів', 'типу', '22'] },
    ]);
    expect(read('установка четырёх головок')[0]!.quantity).toBe(4);
    expect(read('встановлення чотирьох головок')[0]!.quantity).toBe(4);
  });

  it('reads the Arabic dual as two, and no plural as one', () => {
    expect(read('تبديل مشعين من النوع 22')).toEqual([
      { quantity: 2, words: ['تبديل', 'مشعين', 'النوع', '22'] },
    ]);
    expect(read('ساعتين عمل')[0]!.quantity).toBe(2);
    expect(read('صيانة الغلاية')[0]!.quantity).toBeNull();
    expect(read('ساعات عمل فنيين')[0]!.quantity).toBeNull();
  });

  it('takes no function word for a count and no empty part for an item', () => {
    expect(read('Kessel tauschen due to a leak, und ,')).toEqual([
      { quantity: null, words: ['kessel', 'tauschen', 'due', 'leak'] },
    ]);
  });
});
