import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { writeDictd } from '../../../../test/support/dictd-files.ts';
import { ApertiumLemmas } from './apertium-lemmas.ts';
import { Dictionaries } from './dictionaries.ts';
import { translateByDictionaries } from './dictionary-translation.ts';
import { Lexicon } from './lexicon.ts';
import {
  isFunctionWord,
  lookupForms,
  normalizeWord,
  transliterateCyrillic,
  wordsOf,
} from './question-words.ts';
import { sourceLanguage } from './source-language.ts';
import type { QueryTranslation } from './translation.ts';

const dir = mkdtempSync(join(tmpdir(), 'ww-dicts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const entry = (headword: string, ...lines: string[]) => ({ headword, body: [headword, ...lines].join('\n') });

// English-German, looked up through its index (a dictzip file).
writeDictd(
  dir,
  'freedict-eng-deu',
  [
    entry('apply', 'anwenden, gelten, zuführen'),
    entry('apply for sth', 'etw. beantragen <v, trans>', '         Note: bei jdm.'),
    entry('boiler', 'Heizkessel <masc>, Kessel <masc>'),
    entry('call', 'Anruf <masc>, Ruf <masc>'),
    entry('heavy', 'schwer, stark'),
    entry('hour', 'Stunde <fem>'),
    entry('old', 'alt'),
    entry('pay', 'zahlen, bezahlen'),
    entry('pay for sth', 'etw. erkaufen <v, trans>'),
    entry('year', 'Jahr <neut>'),
    entry('charge', 'Gebühr <fem>'),
    entry('charge', 'Ladung <fem>, Anklage <fem>'),
    entry('invoice', 'Rechnung <fem>, Faktura <fem>'),
    entry('keep', 'aufbewahren, behalten'),
    entry('sick note', 'Krankschreibung <fem>'),
    entry('sunday', 'Sonntag <masc>'),
    entry('the', 'der, die, das'),
    entry('water', 'Wasser <neut>'),
  ].sort((a, b) => a.headword.localeCompare(b.headword)),
  { chunkLength: 48 },
);
// German-Russian, reversed for Russian questions.
writeDictd(dir, 'freedict-deu-rus', [
  entry('Kessel', '1. котёл, бак', 'Behälter zum Erhitzen von Flüssigkeiten'),
  entry('Rechnung', '1. счёт', 'schriftliche Aufstellung über eine Zahlung', '2. расчёт, вычисление'),
  entry('Wasser', 'вода'),
]);
// Arabic-English for the pivot through English.
writeDictd(dir, 'freedict-ara-eng', [
  entry('ال', 'the'),
  entry('الساعة', 'hour'),
  entry('فاتورة', '1. invoice', '2. bill'),
  entry('ماء', 'water'),
]);

// The dictionaries' own behaviour, without the trade glossary (tested on its own below).
const noGlossary = () => null;
const dictionaries = new Dictionaries(dir, noGlossary);

const alternatives = (t: QueryTranslation | null, word: string) =>
  t?.words.find((w) => w.word === word)?.alternatives.map((a) => a.text);

describe('the lexicon', () => {
  const lexicon = Lexicon.fromPairs(
    [
      ['faktura', 'Rechnung'],
      ['okno', 'Fenster'],
      ['kot', 'Katze'],
    ],
    'pol',
  );
  const turkish = Lexicon.fromPairs(
    [
      ['fatura', 'Rechnung'],
      ['saklamak', 'aufbewahren'],
    ],
    'tur',
  );

  it('finds inflected words by the headword that shares their longest prefix', () => {
    expect(lexicon.word('faktury').map((m) => m.key)).toEqual(['faktura']);
    expect(lexicon.word('faktura')[0]).toMatchObject({ exact: true, translations: ['Rechnung'] });
    // A short word may differ in its last letter only.
    expect(lexicon.word('okna').map((m) => m.key)).toEqual(['okno']);
    // Turkish stacks longer endings.
    expect(turkish.word('Faturaları').map((m) => m.key)).toEqual(['fatura']);
    expect(turkish.word('saklamamız').map((m) => m.key)).toEqual(['saklamak']);
    expect(lexicon.word('fakturami').map((m) => m.key)).toEqual(['faktura']);
    // Sharing "fakt" is too little of "faktorem".
    expect(lexicon.word('faktorem')).toEqual([]);
  });

  it('finds a derived word by the headword it begins with, and a short noun only before an adjective’s ending', () => {
    const french = Lexicon.fromPairs(
      [
        ['thermostat', 'Thermostat'],
        ['gaz', 'Gas'],
      ],
      'fra',
    );
    expect(french.derivedFrom('thermostatiques').map((m) => m.key)).toEqual(['thermostat']);
    expect(french.derivedFrom('gazeux')).toEqual([]);
    const russian = Lexicon.fromPairs(
      [
        ['газ', 'Gas'],
        ['термостат', 'Thermostat'],
      ],
      'rus',
    );
    expect(russian.derivedFrom('газовый').map((m) => m.key)).toEqual(['газ']);
    expect(russian.derivedFrom('термостатических').map((m) => m.key)).toEqual(['термостат']);
    expect(russian.derivedFrom('газета')).toEqual([]);
    const polish = Lexicon.fromPairs([['gaz', 'Gas']], 'pol');
    expect(polish.derivedFrom('gazowego').map((m) => m.key)).toEqual(['gaz']);
    expect(Lexicon.fromPairs([['مشع', 'radiant']], 'ara').derivedFrom('مشعاع')).toEqual([]);
  });

  it('finds Arabic words only as they are (after their clitics), never by a prefix', () => {
    const arabic = Lexicon.fromPairs([['ساعد', 'assist']], 'ara');
    expect(arabic.word('ساعة')).toEqual([]);
    expect(arabic.word('ساعد')[0]?.translations).toEqual(['assist']);
  });

  it('does not guess from a short or small share of a word', () => {
    // "kot" shares only three letters with "kotłem": too little to tell.
    expect(lexicon.word('kotłem')).toEqual([]);
    expect(lexicon.word('fa')).toEqual([]);
  });
});

describe('word-by-word translation', () => {
  it('translates through a dictionary of the question’s direction, keeping the senses as alternatives', () => {
    const t = translateByDictionaries(dictionaries, 'How much is the charge for the boiler?', 'eng', 'deu');
    expect(t).toMatchObject({ source: 'eng', target: 'deu', via: 'dictionary' });
    // Function words are not translated; every sense of "charge" is an alternative, the first ones weigh most.
    expect(t?.words.map((w) => w.word)).toEqual(['charge', 'boiler']);
    expect(alternatives(t, 'charge')).toEqual(['Gebühr', 'Ladung', 'Anklage']);
    // Below the question's own words (1), the best translation first.
    const weights = t!.words[0]!.alternatives.map((a) => a.weight);
    expect(weights[0]).toBeCloseTo(0.8);
    expect(weights[1]!).toBeLessThan(weights[0]!);
  });

  it('translates a two-word phrase the dictionary lists as one word', () => {
    const t = translateByDictionaries(dictionaries, 'When do I need a sick note?', 'eng', 'deu');
    expect(alternatives(t, 'sick note')).toEqual(['Krankschreibung']);
  });

  it('reverses the dictionary of the other direction, and finds an inflected word by its prefix', () => {
    // "счета" (plural) against "счёт"; "котла" (genitive) against "котёл" is too far: the prefix "кот" is short.
    const t = translateByDictionaries(dictionaries, 'Сколько нужно хранить счета?', 'rus', 'deu');
    expect(alternatives(t, 'счета')).toEqual(['Rechnung']);
    expect(alternatives(translateByDictionaries(dictionaries, 'вода', 'rus', 'deu'), 'вода')).toEqual([
      'Wasser',
    ]);
  });

  it('goes through English where no dictionary connects the languages, with Arabic clitics split off', () => {
    const t = translateByDictionaries(dictionaries, 'قديش لازم نحتفظ بالفاتورة؟', 'ara', 'deu');
    expect(alternatives(t, 'بالفاتورة')?.sort()).toEqual(['Faktura', 'Rechnung']);
    expect(t!.words[0]!.alternatives[0]!.weight).toBeCloseTo(0.8);
    expect(lookupForms('بالفواتير', 'ara')).toContain('فواتير');
  });

  it('finds an Arabic word under its headword with the article, and a feminine plural under its singular', () => {
    // "ساعات" (hours) is listed only as "الساعة" (the hour).
    const t = translateByDictionaries(dictionaries, 'ثماني ساعات', 'ara', 'deu');
    expect(alternatives(t, 'ساعات')).toEqual(['Stunde']);
    expect(lookupForms('يوم', 'ara')).toEqual(['يوم', 'اليوم']);
  });

  it('does not translate an Arabic clitic written apart before a German word', () => {
    // "الـ Geselle": the article is no word of its own (the test dictionary lists it, as FreeDict's does).
    expect(
      translateByDictionaries(dictionaries, 'ساعات الـ Geselle', 'ara', 'deu')?.words.map((w) => w.word),
    ).toEqual(['ساعات']);
  });

  it('spells a Cyrillic word that no dictionary knows in Latin letters, for German terms written as heard', () => {
    const t = translateByDictionaries(dictionaries, 'іспит на гезелле', 'ukr', 'deu');
    expect(alternatives(t, 'гезелле')).toEqual(['geselle']);
    expect(t!.words.find((w) => w.word === 'гезелле')!.alternatives[0]!.weight).toBeLessThan(1);
    expect(transliterateCyrillic('азубі')).toBe('asubi');
    expect(transliterateCyrillic('Azubi')).toBeNull();
  });

  it('translates the words of a hyphenated word with a figure, and a hyphenated word no dictionary lists by its parts', () => {
    const t = translateByDictionaries(dictionaries, 'Can a 17-year-old work 8-hour days?', 'eng', 'deu');
    expect(alternatives(t, 'year')).toEqual(['Jahr']);
    expect(alternatives(t, 'old')).toEqual(['alt']);
    expect(alternatives(t, 'hour')).toEqual(['Stunde']);
    expect(
      alternatives(translateByDictionaries(dictionaries, 'the call-out charge', 'eng', 'deu'), 'call'),
    ).toEqual(['Anruf', 'Ruf']);
  });

  it('leaves the adjective of "how heavy" untranslated: it asks for an amount, as in the search’s own words', () => {
    const t = translateByDictionaries(dictionaries, 'How heavy is the boiler?', 'eng', 'deu');
    expect(t?.words.map((w) => w.word)).toEqual(['boiler']);
  });

  it('looks a Turkish word up by its stem before a headword that only shares its prefix', () => {
    const turkish = mkdtempSync(join(tmpdir(), 'ww-dicts-tur-'));
    try {
      writeDictd(turkish, 'freedict-tur-deu', [
        entry('süre', 'Dauer <fem>'),
        entry('süresiz', 'unbefristet'),
        entry('talep', 'Antrag <masc>'),
      ]);
      const t = translateByDictionaries(
        new Dictionaries(turkish, noGlossary),
        'süresinde talebini',
        'tur',
        'deu',
      );
      expect(alternatives(t, 'süresinde')).toEqual(['Dauer']);
      expect(alternatives(t, 'talebini')).toEqual(['Antrag']);
      // A stem that keeps too little of the word is another word ("bakımı" is no "bak").
      expect(lookupForms('bakımı', 'tur')).toEqual(['bakımı']);
    } finally {
      rmSync(turkish, { recursive: true, force: true });
    }
  });

  it('leaves the forms of "to be" and the modal verbs of a Polish question untranslated', () => {
    // "jestem" went to German as "geschehen", "abkommen", "abgeben": senses of a word that asks nothing.
    for (const word of ['jestem', 'Byłem', 'będę', 'możemy', 'muszą'])
      expect(isFunctionWord(word, 'pol')).toBe(true);
    expect(isFunctionWord('chory', 'pol')).toBe(false);
  });

  it('gives nothing when no word can be translated', () => {
    expect(translateByDictionaries(dictionaries, 'How much is it?', 'eng', 'deu')).toBeNull();
    expect(translateByDictionaries(dictionaries, 'Flurbelwanze', 'eng', 'deu')).toBeNull();
  });

  it('reads the lexicons a question needs ahead, asynchronously, with the same translations', async () => {
    const ahead = new Dictionaries(dir, noGlossary);
    await Promise.all([
      ahead.prepare('ara', 'deu'),
      ahead.prepare('rus', 'deu'),
      ahead.prepare('ara', 'deu'),
    ]);
    for (const [question, source] of [
      ['فاتورة ماء', 'ara'],
      ['счёт за воду', 'rus'],
      ['Where is the invoice for the boiler?', 'eng'],
    ] as const)
      expect(translateByDictionaries(ahead, question, source, 'deu')).toEqual(
        translateByDictionaries(dictionaries, question, source, 'deu'),
      );
  });

  it('goes through French for the languages that are no go-between, and never for English', () => {
    const hub = join(dir, 'hub');
    mkdirSync(hub);
    writeDictd(hub, 'freedict-eng-deu', [entry('water', 'Wasser <neut>')]);
    writeDictd(hub, 'freedict-eng-fra', [entry('water', 'eau <fem>')]);
    writeDictd(hub, 'freedict-fra-deu', [entry('eau', 'Wasser <neut>, Gewässer <neut>')]);
    writeDictd(hub, 'freedict-fra-eng', [entry('eau', 'water')]);
    writeDictd(hub, 'freedict-pol-fra', [entry('woda', 'eau <fem>')]);
    const hubs = new Dictionaries(hub, noGlossary);
    const via = (source: 'eng' | 'fra' | 'pol') => [
      ...new Set(hubs.routes(source, 'deu').pivot.map((r) => r.pivot)),
    ];
    expect(via('eng')).toEqual([]);
    expect(via('fra')).toEqual(['eng']);
    expect(via('pol')).toEqual(['fra']);
  });

  it('translates a capitalised English word that the dictionary lists, and keeps a name as it is', () => {
    const t = translateByDictionaries(
      dictionaries,
      'Is the invoice paid on Sundays at Calora?',
      'eng',
      'deu',
    );
    expect(alternatives(t, 'Sundays')).toEqual(['Sonntag']);
    expect(t?.words.map((w) => w.word)).toEqual(['invoice', 'Sundays']);
  });

  it('ranks the senses a dictionary labels colloquial, slang or dated after the plain ones', () => {
    const ding = join(dir, 'registers');
    mkdirSync(ding);
    // As Ding lists them: the labels after a word are its own, those before the first word or in a note the sense's.
    writeDictd(ding, 'freedict-eng-deu', [
      // "boss" is colloquial English, "Chef" plain German: a label before the first word is the headword's.
      entry('boss', ' [coll.] Chef <masc>, Boss <masc> [ugs.]'),
      entry('boss', 'Bosse <fem> [constr.]'),
      entry('now', 'jetzt, itzt <adv> [obs.] , nun'),
      entry('rest', 'kurze Pause <fem> [selten] , Pause <fem>'),
      entry('rest', 'Rest <masc>'),
      entry('sick', ' [Br.]  [coll.] Erbrochenes <neut>, Kotze <fem> [slang]'),
      entry('sick', ' [Br.] geil, krass, fett', '         Note: Jugendsprache für toll'),
      entry('sick', 'krank <adj> [med.]'),
    ]);
    const labelled = new Dictionaries(ding, noGlossary);
    const t = translateByDictionaries(labelled, 'sick now boss rest', 'eng', 'deu');
    // A label is its own translation's, not that of every translation it holds ("Pause" in "kurze Pause").
    expect(alternatives(t, 'rest')).toEqual(['Pause', 'Rest', 'kurze Pause']);
    expect(alternatives(t, 'boss')).toEqual(['Chef', 'Bosse', 'Boss']);
    expect(alternatives(t, 'sick')?.[0]).toBe('krank');
    expect(alternatives(t, 'sick')?.sort()).toEqual([
      'Erbrochenes',
      'Kotze',
      'fett',
      'geil',
      'krank',
      'krass',
    ]);
    expect(alternatives(t, 'now')).toEqual(['jetzt', 'nun', 'itzt']);
  });

  it('lists the installed pairs and the languages they translate from', () => {
    expect(dictionaries.pairs.sort()).toEqual(['ara-eng', 'deu-rus', 'eng-deu']);
    // Ukrainian, which has no dictionary, through the Russian ones.
    expect([...dictionaries.sourcesFor('deu')].sort()).toEqual(['ara', 'eng', 'rus', 'ukr']);
    expect(new Dictionaries(join(dir, 'missing')).available).toBe(false);
  });
});

describe('a verb with its preposition', () => {
  it('is translated as the dictionary lists the two, with its object, the verb’s first sense weaker beside it', () => {
    const t = translateByDictionaries(dictionaries, 'How do I apply for holiday?', 'eng', 'deu');
    // "apply for sth": "beantragen" first; the verb's first sense only as a weaker literal reading.
    expect(t?.words.find((w) => w.word === 'apply for')?.alternatives).toEqual([
      { text: 'beantragen', weight: 0.8 },
      { text: 'gelten', weight: 0.4 },
    ]);
    expect(
      alternatives(translateByDictionaries(dictionaries, 'Who pays for the exam?', 'eng', 'deu'), 'pays for'),
    ).toBeUndefined();
    expect(
      alternatives(translateByDictionaries(dictionaries, 'Do I pay for the exam?', 'eng', 'deu'), 'pay for'),
    ).toEqual(['erkaufen', 'zahlen']);
  });
});

describe('the trade glossary', () => {
  // No dictionary installed: what the glossary alone carries into German.
  const glossaryOnly = new Dictionaries(join(dir, 'none'));
  const alternatives = (question: string, source: string) =>
    Object.fromEntries(
      (translateByDictionaries(glossaryOnly, question, source, 'deu')?.words ?? []).map((w) => [
        w.word,
        w.alternatives.map((a) => a.text),
      ]),
    );

  it('knows the ranks and charges of a craft business that dictionaries lack', () => {
    expect(alternatives('tre ore di operaio qualificato e trasferta', 'ita')).toMatchObject({
      'operaio qualificato': ['Geselle'],
      trasferta: ['Anfahrt', 'Anfahrtspauschale'],
    });
    // An inflected word by its headword, Ukrainian in its own words (not through Russian's dictionaries).
    expect(alternatives('часа подмастерья и выезд', 'rus')).toMatchObject({
      подмастерья: ['Geselle'],
      выезд: ['Anfahrt', 'Anfahrtspauschale'],
    });
    expect(alternatives('години підмайстра та виїзд', 'ukr')).toMatchObject({ підмайстра: ['Geselle'] });
  });

  it('weighs each of a concept’s words as its best, however long or rare in the dictionaries', () => {
    // "Anfahrtspauschale" is longer and in fewer dictionary entries than "Anfahrt": no rarer sense of "call-out".
    const weights = (t: QueryTranslation | null) =>
      t?.words.map((w) => [w.word, w.alternatives.map((a) => [a.text, a.weight])]);
    expect(weights(translateByDictionaries(glossaryOnly, 'call-out charge', 'eng', 'deu'))).toEqual([
      [
        'call-out charge',
        [
          ['Anfahrt', 0.8],
          ['Anfahrtspauschale', 0.8],
        ],
      ],
    ]);
    const withDictionary = translateByDictionaries(
      new Dictionaries(dir),
      'Was kostet die Anfahrt?',
      'deu',
      'eng',
    );
    expect(weights(withDictionary)?.[0]?.[1]).toEqual(expect.arrayContaining([['call-out', 0.8]]));
  });

  it('finds a two-word entry through the clitics of its words', () => {
    expect(alternatives('ساعات عمل لعامل ماهر ورسوم الانتقال', 'ara')).toMatchObject({
      'ساعات عمل': expect.arrayContaining(['Arbeitsstunde', 'Monteurstunde']),
      'لعامل ماهر': ['Geselle'],
      'ورسوم الانتقال': ['Anfahrt', 'Anfahrtspauschale'],
    });
  });
});

describe('a Turkish name with its suffix', () => {
  it('is searched as written, first in the question too', () => {
    const own = mkdtempSync(join(tmpdir(), 'ww-dicts-tur-'));
    try {
      writeDictd(own, 'freedict-tur-deu', [entry('gün', 'Tag <masc>'), entry('schule', 'Schule <fem>')]);
      const t = translateByDictionaries(
        new Dictionaries(own, noGlossary),
        'Schulz’da kaç gün?',
        'tur',
        'deu',
      );
      expect(t?.words.map((w) => w.word)).toEqual(['gün']);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });
});

describe('the question’s language', () => {
  const all = ['ara', 'deu', 'eng', 'fra', 'ita', 'pol', 'por', 'rus', 'tur', 'ukr'];
  it.each([
    ['How much is the call-out charge within the city?', 'eng'],
    ['Wie hoch ist die Anfahrtspauschale?', 'deu'],
    ['Ile wynosi ryczałt za dojazd na terenie miasta?', 'pol'],
    ['Şehir içi yol ücreti ne kadar?', 'tur'],
    ['kombinin altında ne kadar boşluk lazım', 'tur'],
    ['Сколько стоит выезд в пределах города?', 'rus'],
    ['Скільки коштує виїзд у межах міста?', 'ukr'],
    ['قديش رسوم المشوار جوا المدينة؟', 'ara'],
  ])('%s is %s', (question, language) => {
    expect(sourceLanguage(question, all)).toBe(language);
  });

  it('weighs a letter two languages share for both: "ö" is no German letter beside Turkish "ı"', () => {
    expect(sourceLanguage('Tip 33 radyatör ağırlığı', all)).toBe('tur');
    expect(sourceLanguage('Müller Heizöl Lieferung', all)).toBe('deu');
  });

  it('answers only among the candidates', () => {
    expect(sourceLanguage('Сколько стоит выезд?', ['deu', 'eng'])).toBeNull();
    expect(normalizeWord('Счёт')).toBe('счет');
  });
});

// Debian's FreeDict dictionaries and Apertium's Russian-Ukrainian data, as the README's apt line and .ci/run install
// them: a question about a window's key, in each language, finds the German words.
describe('with the installed dictionaries', () => {
  const installed = new Dictionaries('/usr/share/dictd');
  const lemmas = new ApertiumLemmas('/usr/share/apertium', pino({ level: 'silent' }));

  it.each([
    ['Where is the key to the window?', 'eng'],
    ['Где ключ от окна?', 'rus'],
    ['Де ключ від вікна?', 'ukr'],
    ['Gdzie jest klucz do okna?', 'pol'],
    ['Pencerenin anahtarı nerede?', 'tur'],
    ['أين مفتاح النافذة؟', 'ara'],
    ['Où est la clé de la fenêtre ?', 'fra'],
  ])('%s', async (question, language) => {
    expect(installed.pairs, 'apt-get install dict-freedict-eng-deu dict-freedict-deu-rus ...').toContain(
      'eng-deu',
    );
    const hints = await lemmas.hints(wordsOf(question), language);
    const t = translateByDictionaries(installed, question, language, 'deu', hints);
    const all = t?.words.flatMap((w) => w.alternatives.map((a) => a.text)) ?? [];
    expect(all).toContain('Fenster');
    if (language !== 'ara') expect(all).toContain('Schlüssel');
  });
});
