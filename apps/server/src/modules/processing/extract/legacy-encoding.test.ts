import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { bestLegacyDecoding } from './legacy-encoding.ts';

const russian =
  'Счет на оплату № 17. Поставка радиаторов отопления, монтаж и пусконаладочные работы в котельной.';
const arabic = 'فاتورة رقم 17: توريد مشعات التدفئة وتركيبها في غرفة المرجل مع أعمال التشغيل.';
const polish = 'Zażółć gęślą jaźń. Faktura za montaż grzejników i usługi hydrauliczne w łazience.';

describe('decoding legacy-encoded text', () => {
  it.each([
    ['cp866', russian],
    ['koi8-r', 'Счет на оплату 17. Поставка радиаторов отопления, монтаж и пусконаладочные работы.'],
    ['windows-1251', 'Привіт, це рахунок за встановлення котла і ремонт труб у підвалі.'],
    ['windows-1256', arabic],
    ['iso-8859-6', arabic],
    ['windows-1250', polish],
    ['iso-8859-2', polish],
    ['windows-1252', 'Le chauffagiste a réparé la chaudière à côté de la fenêtre, très vite.'],
  ])('reads a short %s text as the text it was', (encoding, text) => {
    const decoded = bestLegacyDecoding(iconv.encode(text, encoding));
    expect(decoded?.text).toBe(text);
  });

  it('finds no encoding for bytes that are not text in any of them', () => {
    const bytes = Buffer.from(Array.from({ length: 600 }, (_, i) => 0x80 + ((i * 37) % 0x80)));
    expect(bestLegacyDecoding(bytes)).toBeNull();
  });
});
