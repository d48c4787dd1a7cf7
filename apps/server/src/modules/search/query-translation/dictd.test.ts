import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { writeDictd } from '../../../../test/support/dictd-files.ts';
import { DictdText, decodeDictdNumber, dictdFiles, readDictd, readDictdIndex } from './dictd.ts';
import { headwordOf, translationsOf } from './entry-translations.ts';

const dir = mkdtempSync(join(tmpdir(), 'ww-dictd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const entries = Array.from({ length: 40 }, (_, i) => ({
  headword: `word${i}`,
  body: `word${i} /wɜːd/\nWort${i} <neut>, Vokabel${i} <fem>`,
}));

it('decodes dictd base-64 numbers', () => {
  expect(decodeDictdNumber('A')).toBe(0);
  expect(decodeDictdNumber('B')).toBe(1);
  expect(decodeDictdNumber('BA')).toBe(64);
  expect(decodeDictdNumber('CDjMZ')).toBe(2 * 64 ** 4 + 3 * 64 ** 3 + 35 * 64 ** 2 + 12 * 64 + 25);
  expect(() => decodeDictdNumber('A-')).toThrow(/not a dictd number/);
});

it('reads single entries of a dictzip file chunk by chunk, and the same text whole', () => {
  writeDictd(dir, 'freedict-eng-deu', entries, { chunkLength: 64 });
  const files = dictdFiles(dir, 'freedict-eng-deu')!;
  expect(files.dict.endsWith('.dict.dz')).toBe(true);
  const index = readDictdIndex(files.index);
  // The dictionary's own description is no entry.
  expect(index.map((l) => l.headword)).toEqual(entries.map((e) => e.headword));
  const text = new DictdText(files.dict);
  try {
    // Entries that cross chunk borders (64 bytes each) read whole; the last one too.
    for (const i of [0, 7, 23, 39]) {
      const { offset, length } = index[i]!;
      expect(text.read(offset, length)).toBe(`${entries[i]!.body}\n`);
    }
  } finally {
    text.close();
  }
  expect(readDictd(files).map((e) => e.body.trim())).toEqual(entries.map((e) => e.body));
});

it('reads an uncompressed .dict file the same way', () => {
  writeDictd(dir, 'freedict-deu-rus', entries.slice(0, 3));
  const files = dictdFiles(dir, 'freedict-deu-rus')!;
  const [, second] = readDictdIndex(files.index);
  const text = new DictdText(files.dict);
  expect(text.read(second!.offset, second!.length)).toBe(`${entries[1]!.body}\n`);
  text.close();
  expect(dictdFiles(dir, 'freedict-xxx-yyy')).toBeNull();
});

it('takes the translations of each kind of FreeDict entry, and leaves definitions, notes and examples out', () => {
  // Ding (English-German): one sense per entry, notes and examples after the translations.
  expect(
    translationsOf(
      'invoice /ˈɪnvɔɪs/\nRechnung <fem>, Faktur <fem>, Faktura <fem> [Ös.]  [econ.]\n' +
        '         Note: über einen Betrag\n      "issue an invoice"  - eine Rechnung ausstellen\n see: {item}',
    ),
  ).toEqual(['Rechnung', 'Faktur', 'Faktura']);
  // Ding writes a translation's abbreviation or symbol after its grammar tag: the word is what comes before.
  expect(translationsOf('copper /kˈɒpə/\nKupfer <neut> [chem.] Cu,  /kˈuː/\n see: {blister copper}')).toEqual(
    ['Kupfer'],
  );
  // A verb's object is a placeholder ("etw.", "jdm."), no word of its translation.
  expect(
    translationsOf('apply for sth. /ɐplˈaɪ/\netw. beantragen <v, trans>\n         Note: bei jdm.'),
  ).toEqual(['beantragen']);
  expect(translationsOf('care for sb. /kˈeə/\nsich um jdn. kümmern, jds. Pflege übernehmen')).toEqual([
    'sich um kümmern',
    'Pflege übernehmen',
  ]);
  expect(
    translationsOf('departure /dɪpˈɑːtʃə/\nAbfahrt <fem>Abf.,  /ˈabf/ , Abflug <masc> [transp.]'),
  ).toEqual(['Abfahrt', 'Abflug']);
  // TEI (German-Russian): numbered senses, each followed by a German definition; the script keeps those out too.
  expect(
    translationsOf(
      'Abbau /ˈapˌbaʊ̯/ <n, masc>\n1. демонтаж, разборка, снос\ndie Beseitigung, der Rückbau von Anlagen\n' +
        '2. добыча, разработка\nBergbau: die Gewinnung von Rohstoffen',
      /\p{Script=Cyrillic}/u,
    ),
  ).toEqual(['демонтаж', 'разборка', 'снос', 'добыча', 'разработка']);
  // Polish-German: a sense number glued to the end of the first translation, then a Polish definition.
  expect(
    translationsOf(
      'faktura /fakˈtura/ <n>\n1. Rechnung, Faktura\n(ekonomia) rodzaj dokumentu będącego dowodem transakcji;',
    ),
  ).toEqual(['Rechnung', 'Faktura']);
  expect(
    translationsOf('Alberta /alˈbɛrta/ <pn>\nAlberta 2.\n(geografia) jedna z prowincji;\n 3.\nimię żeńskie;'),
  ).toEqual(['Alberta']);
  // English-Polish: Roman-numbered parts of speech.
  expect(
    translationsOf(
      'access /ˈækses/\nI.  <N> 1.  [form]  dojście (to - do)\n 2.  dostęp\nII.  <V>  wydobywać',
    ),
  ).toEqual(['dojście', 'dostęp', 'wydobywać']);
  // Long definitions are no translations.
  expect(
    translationsOf('x\n1. nâmevcut, yok, gaip absent-minded dalgın absent without leave vaktinde'),
  ).toEqual(['nâmevcut', 'yok']);
  expect(headwordOf('Rechnung /ˈʁɛçnʊŋ/ <n, fem>\nсчёт', 'rechnung')).toBe('Rechnung');
});
