/**
 * OCR figures: `npm run bench:ocr` (`-- --pages N` pages per language, default 2; `--dpi N` of the scans, default
 * 200). For German, English, Arabic and Russian it sets known text (DejaVu Sans, 14 pt) on A4 pages, renders them to
 * pixels with pdftoppm and wraps them into a PDF without a text layer (as a scanner does), then reads the scan through
 * the product's extraction (pdftoppm page renders, Tesseract) twice: with the company's language given, and with no
 * company language (the script detection alone picks the packs). It prints, per language and way, the pages per
 * second and the character accuracy (1 - edit distance / length of the known text, white space collapsed) and the
 * mean word confidence Tesseract reported. Needs Tesseract with the language packs and poppler-utils.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractDocument } from '../src/modules/processing/extract/extract-document.ts';
import { DEFAULT_OCR_OPTIONS } from '../src/modules/processing/extract/ocr.ts';
import { makeScannedTextPdf } from '../test/support/scans.ts';
import { fmt, intFlag, machineLine, printTable, revisionLine, since } from './support/bench-kit.ts';

const TEXTS: { language: string; pack: string; rtl?: boolean; paragraphs: string[] }[] = [
  {
    language: 'German',
    pack: 'deu',
    paragraphs: [
      'Lieferschein Nr. 4711 vom 12. März 2026',
      'Die Heizkörper Typ 22 wurden vollständig geliefert und auf der Baustelle in der Schulstraße geprüft.',
      'Der Brenner wird jährlich im Herbst gewartet. Nach der Wartung muss der Wasserdruck 1,5 bar betragen.',
      'Bitte prüfen Sie die Lieferung und melden Sie Schäden innerhalb von drei Werktagen schriftlich.',
    ],
  },
  {
    language: 'English',
    pack: 'eng',
    paragraphs: [
      'Delivery note No. 4711 of 12 March 2026',
      'The type 22 radiators were delivered in full and inspected on the building site in School Street.',
      'The burner is serviced every autumn. After servicing, the water pressure must be 1.5 bar.',
      'Please check the delivery and report any damage in writing within three working days.',
    ],
  },
  {
    language: 'Arabic',
    pack: 'ara',
    rtl: true,
    paragraphs: [
      'إشعار تسليم رقم 4711',
      'تم تسليم المشعات بالكامل وفحصها في موقع البناء في شارع المدرسة.',
      'تتم صيانة الموقد كل خريف. بعد الصيانة يجب أن يكون ضغط الماء واحد ونصف بار.',
      'يرجى فحص الشحنة والإبلاغ عن أي ضرر كتابيا خلال ثلاثة أيام عمل.',
    ],
  },
  {
    language: 'Russian',
    pack: 'rus',
    paragraphs: [
      'Накладная № 4711 от 12 марта 2026 года',
      'Радиаторы типа 22 поставлены полностью и проверены на стройке на Школьной улице.',
      'Горелку обслуживают каждую осень. После обслуживания давление воды должно быть 1,5 бар.',
      'Пожалуйста, проверьте поставку и сообщите о повреждениях письменно в течение трёх рабочих дней.',
    ],
  },
];

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Levenshtein distance over code points, in two rows. */
function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++)
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[y.length]!;
}

const pagesPerLanguage = intFlag('pages', 2);
const dpi = intFlag('dpi', 200);
const dir = mkdtempSync(join(tmpdir(), 'ww-bench-ocr-'));
console.log(machineLine());
console.log(revisionLine());
console.log(`${pagesPerLanguage} scanned A4 pages per language at ${dpi} dpi, 14 pt DejaVu Sans\n`);
const rows: string[][] = [];
const totals = { pages: 0, seconds: 0 };
try {
  for (const text of TEXTS) {
    const pages = Array.from({ length: pagesPerLanguage }, () => text.paragraphs);
    const path = join(dir, `${text.pack}.pdf`);
    writeFileSync(path, await makeScannedTextPdf(pages, { rtl: text.rtl, dpi }));
    const truth = collapse(pages.map((p) => p.join(' ')).join(' '));
    for (const [way, languages] of [
      ['company language', [text.pack]],
      ['script detection', []],
    ] as const) {
      const start = performance.now();
      const result = await extractDocument(path, 'pdf', {
        ocr: { ...DEFAULT_OCR_OPTIONS, languages: [...languages] },
      });
      const seconds = since(start);
      totals.pages += pagesPerLanguage;
      totals.seconds += seconds;
      const read = collapse(result.blocks.map((b) => ('text' in b ? b.text : '')).join(' '));
      const accuracy = Math.max(0, 1 - editDistance(read, truth) / [...truth].length);
      rows.push([
        text.language,
        way,
        String(pagesPerLanguage),
        fmt(seconds, 1),
        fmt(pagesPerLanguage / seconds, 2),
        `${fmt(100 * accuracy, 1)} %`,
        fmt(result.ocr?.meanConfidence ?? 0, 1),
      ]);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
printTable(
  ['language', 'packs chosen by', 'pages', 'seconds', 'pages/s', 'char accuracy', 'mean conf.'],
  rows,
  [0, 1],
);
console.log(
  `\noverall: ${totals.pages} pages in ${fmt(totals.seconds, 1)} s = ${fmt(totals.pages / totals.seconds, 2)} pages/s`,
);
