import type { SearchHit } from '@werkwissen/shared';
import { describe, expect, it } from 'vitest';
import type { QueryTranslation } from '../search/query-translation/translation.ts';
import { answerExtractively, scoreUnits, sentencesOf, withoutReferences } from './builtin-answerer.ts';
import { questionLanguage } from './question-language.ts';
import { askedWord, MATCH, matchWord, wordSet } from './word-match.ts';

const hit = (text: string, fileName = 'Handbuch.pdf', page: number | null = 3): SearchHit => ({
  passageId: crypto.randomUUID(),
  fileId: crypto.randomUUID(),
  fileName,
  mimeType: 'application/pdf',
  divisionId: crypto.randomUUID(),
  divisionName: 'Heizung',
  page,
  headingPath: [],
  text,
  score: 1,
});

describe('the built-in answerer', () => {
  it('quotes the sentence that answers the question, verbatim, and cites its passage', () => {
    const hits = [
      hit('Die Firma wurde 1998 gegründet. Sie hat heute zwölf Mitarbeiter.', 'Chronik.pdf'),
      hit(
        'Der Heizkörper wird mit einem Vierkantschlüssel entlüftet. Danach den Wasserdruck prüfen. Der Kessel steht im Keller.',
        'Wartung.pdf',
        7,
      ),
    ];
    const answer = answerExtractively('Womit wird der Heizkörper entlüftet?', hits, 'de');
    expect(answer.noAnswer).toBe(false);
    // A short answer brings the sentence after it along, for context.
    expect(answer.text).toContain(
      'Der Heizkörper wird mit einem Vierkantschlüssel entlüftet. Danach den Wasserdruck prüfen. [1]',
    );
    expect(answer.text.startsWith('Das steht dazu in Ihren Dokumenten:')).toBe(true);
    expect(answer.cited.map((c) => c.fileName)).toEqual(['Wartung.pdf']);
    expect(answer.text).not.toContain('1998');
  });

  it('quotes a whole sentence that the segmenter cut after an ordinal or an abbreviation', () => {
    const hits = [
      hit(
        'In der Heizperiode vom 1. Oktober bis 31. März können Mitarbeiter im Kundendienst höchstens 2 Wochen am Stück Urlaub nehmen. Anträge gehen an das Büro.',
      ),
      hit('Die Firma wurde 1998 gegründet.'),
    ];
    const answer = answerExtractively(
      'Wie viele Wochen Urlaub am Stück dürfen Mitarbeiter im Kundendienst nehmen?',
      hits,
      'de',
    );
    expect(answer.noAnswer).toBe(false);
    expect(answer.text).toContain(
      'In der Heizperiode vom 1. Oktober bis 31. März können Mitarbeiter im Kundendienst höchstens 2 Wochen am Stück Urlaub nehmen. [1]',
    );
  });

  it('reads a sentence across ordinals, dates, abbreviations and initials, and not across a sentence end', () => {
    const segmenter = new Intl.Segmenter('de', { granularity: 'sentence' });
    const sentences = (line: string) => [...new Set(sentencesOf(line, segmenter).map((s) => s.sentence))];
    expect(
      sentences(
        'Nach Vollendung des 50. Lebensjahres gilt das jährlich. Die Schichtzeit (§ 4 Abs. 2) beträgt z. B. 10 Stunden, gem. Nr. 3 inkl. Fahrt. Das kostet 21,50 EUR. Im Jahr 2019. Neu ist es nicht.',
      ),
    ).toEqual([
      'Nach Vollendung des 50. Lebensjahres gilt das jährlich.',
      'Die Schichtzeit (§ 4 Abs. 2) beträgt z. B. 10 Stunden, gem. Nr. 3 inkl. Fahrt.',
      'Das kostet 21,50 EUR.',
      'Im Jahr 2019.',
      'Neu ist es nicht.',
    ]);
  });

  it('says plainly that nothing was found when no passage covers the question', () => {
    const hits = [hit('Die Firma wurde 1998 gegründet.'), hit('Der Kessel steht im Keller.')];
    const answer = answerExtractively('What is the warranty period for solar panels?', hits, 'en');
    expect(answer.noAnswer).toBe(true);
    expect(answer.cited).toEqual([]);
    expect(answer.text).toMatch(/found nothing/);
  });

  it('answers from a passage that holds most of the question when no other passage comes close, not when one does', () => {
    const question = 'Wie lange dauert die Probezeit im Kundendienst?';
    const clear = answerExtractively(
      question,
      [hit('Die Probezeit der Monteure dauert sechs Monate.'), hit('Die Kantine ist mittags geöffnet.')],
      'de',
    );
    expect(clear.noAnswer).toBe(false);
    expect(clear.text).toContain('Die Probezeit der Monteure dauert sechs Monate. [1]');
    // Two passages that answer about as well and differently: which one is meant is not clear.
    const rivals = answerExtractively(
      question,
      [
        hit('Die Probezeit der Monteure dauert sechs Monate.'),
        hit('Die Probezeit der Helfer dauert drei Monate.'),
      ],
      'de',
    );
    expect(rivals.noAnswer).toBe(true);
  });

  it('refuses the price of an item no row names, though a row shares the head of its compound', () => {
    const prices =
      'Preisliste Kundendienst\nArt.-Nr. | Bezeichnung | Einheit | Preis netto EUR\n' +
      'L-110 | Monteurstunde Geselle | Std | 74,50\nL-111 | Monteurstunde Meister | Std | 89,00\n' +
      'L-140 | Entsorgung Altgerät | Stk | 48,00';
    const hits = [
      hit(prices, 'Preisliste.pdf'),
      hit('Die Arbeitszeit wird je angefangene 15 Minuten abgerechnet.'),
    ];
    // "-stunde" of "Elektrikerstunde" names another thing in "Monteurstunde"; the asked item is not on the list.
    expect(answerExtractively('Was kostet bei uns eine Elektrikerstunde?', hits, 'de').noAnswer).toBe(true);
    const asked = answerExtractively('Was kostet eine Monteurstunde?', hits, 'de');
    expect(asked.text).toContain('L-110 | Monteurstunde Geselle | Std | 74,50');
  });

  it('prepares a question word once, shared and unchangeable, and scores the same with it', () => {
    const hits = [hit('Die Gas-Brennwerttherme wird jährlich gewartet.'), hit('Der Kessel wiegt 38 kg.')];
    const first = scoreUnits('Wann wird die Gastherme gewartet?', hits, 'de');
    expect(askedWord('Gastherme')).toBe(askedWord('gastherme'));
    expect(Object.isFrozen(askedWord('Gastherme'))).toBe(true);
    expect(scoreUnits('Wann wird die Gastherme gewartet?', hits, 'de').map((u) => u.score)).toEqual(
      first.map((u) => u.score),
    );
  });

  it('answers with nothing found when there are no passages at all', () => {
    const answer = answerExtractively('Wo steht der Kessel?', [], 'de');
    expect(answer.noAnswer).toBe(true);
    expect(answer.text).toMatch(/nichts gefunden/);
  });

  it('numbers its citations in the order the quotes appear, across passages', () => {
    const hits = [
      hit('Der Kessel steht im Keller neben dem Öltank.', 'Plan.pdf'),
      hit('Die Wartung des Kessels erfolgt jährlich im Herbst durch den Kundendienst.', 'Vertrag.pdf'),
    ];
    const answer = answerExtractively('Wann erfolgt die Wartung des Kessels?', hits, 'de');
    expect(answer.cited[0]!.fileName).toBe('Vertrag.pdf');
    expect(answer.text).toContain('jährlich im Herbst durch den Kundendienst. [1]');
  });

  it('reads a short follow-up together with the previous question', () => {
    const hits = [
      hit('Die Wärmepumpe WP-200 kostet 12.400 Euro. Die Montage dauert zwei Tage.', 'Preise.pdf'),
      hit('Ein Gaskessel kostet 6.000 Euro.', 'Preise.pdf'),
    ];
    const answer = answerExtractively('Und die Montage?', hits, 'de', {
      context: 'Was kostet die Wärmepumpe WP-200?',
    });
    expect(answer.text).toContain('Die Montage dauert zwei Tage.');
  });

  it('works in Arabic and Russian text', () => {
    const ar = answerExtractively(
      'متى تأسست الشركة؟',
      [hit('تأسست الشركة في عام 1998 في برلين. يعمل فيها اليوم اثنا عشر موظفًا.')],
      'ar',
    );
    expect(ar.text).toContain('تأسست الشركة في عام 1998 في برلين.');
    const ru = answerExtractively(
      'Где находится котёл?',
      [hit('Котёл находится в подвале рядом с баком. Обслуживание проводится ежегодно.')],
      'ru',
    );
    expect(ru.text).toContain('Котёл находится в подвале рядом с баком.');
  });

  const PRICES =
    'Preisliste 2025\nLeistung | Preis\nArbeitsstunde | 58 €\nAnfahrt | 35 €\nNotdienstzuschlag | 45 €\n' +
    'Altgeräteentsorgung | 80 €';

  it('answers a price with its row of the price list, not the whole list', () => {
    const answer = answerExtractively('Was kostet die Anfahrt?', [hit(PRICES, 'Preise.pdf')], 'de');
    expect(answer.noAnswer).toBe(false);
    expect(answer.text).toContain('Anfahrt | 35 €');
    for (const other of ['58 €', '45 €', '80 €']) expect(answer.text).not.toContain(other);
    expect(answer.cited.map((c) => c.fileName)).toEqual(['Preise.pdf']);
  });

  it('matches German compounds by their parts', () => {
    const hits = [hit(PRICES, 'Preise.pdf'), hit('Der Kessel steht im Keller neben dem Öltank.')];
    // A compound's head alone names another thing: "Monteurstunde" is refused here (see the "Elektrikerstunde" test).
    for (const question of ['Was kostet eine Stunde?', 'Was kostet eine Stunde Arbeit?']) {
      const answer = answerExtractively(question, hits, 'de');
      expect(answer.noAnswer, question).toBe(false);
      expect(answer.text, question).toContain('Arbeitsstunde | 58 €');
      expect(answer.text, question).not.toContain('Anfahrt');
    }
  });

  it('refuses instead of quoting an unrelated passage', () => {
    const customers = hit(
      'Kundenliste\nKunde | Ort | Telefon\nAuto Schmidt GmbH | Bremen | 0421 123456\n' +
        'Müller Bau | Hamburg | 040 987654\nBecker Haustechnik | Kiel | 0431 555123',
      'Kunden.xlsx',
    );
    const answer = answerExtractively('Was kostet die Reparatur am Auto?', [customers], 'de');
    expect(answer.noAnswer).toBe(true);
    expect(answer.cited).toEqual([]);
  });

  it('frames the quote in the language of the question, and speaks of "the documents" to visitors', () => {
    const hits = [hit(PRICES, 'Preise.pdf')];
    const question = 'How much is the Anfahrt?';
    const asked = answerExtractively(question, hits, questionLanguage(question, 'de'));
    expect(asked.text.startsWith('Here is what your documents say:')).toBe(true);
    expect(asked.text).toContain('Anfahrt | 35 €');
    const visitor = answerExtractively('Was kostet die Anfahrt?', hits, 'de', { audience: 'visitor' });
    expect(visitor.text.startsWith('Das steht dazu in den Dokumenten:')).toBe(true);
    expect(visitor.text).toContain('Anfahrt | 35 €');
  });

  const CATALOGUE =
    'Heizkörper 2026\nArt.-Nr. | Bezeichnung | Preis netto EUR\nK-22 | Heizkörper Typ 22, 600 x 1000 mm | 189,00\n' +
    'K-33 | Heizkörper Typ 33, 600 x 1400 mm | 349,00';

  it('answers by the identifying figures of a question, and refuses when no row holds them all', () => {
    const hits = [hit(CATALOGUE, 'Material.xlsx')];
    const asked = answerExtractively('Was kostet ein Heizkörper Typ 22 600x1000?', hits, 'de');
    expect(asked.text).toContain('K-22 | Heizkörper Typ 22, 600 x 1000 mm | 189,00');
    expect(asked.text).not.toContain('349,00');
    // The Typ 33 exists, the 600 x 1000 too, but not together: no row answers this.
    expect(answerExtractively('Was kostet ein Heizkörper Typ 33 600x1000?', hits, 'de').noAnswer).toBe(true);
    expect(answerExtractively('Was kostet ein Heizkörper Typ 44?', hits, 'de').noAnswer).toBe(true);
  });

  it('asks a weight of a unit that holds one: any figure, or the device named, is no weight', () => {
    const manual = hit('Für die Geräte GB 20 C und GB 30 C gelten gesonderte Anleitungen.');
    expect(answerExtractively('Wie viel wiegt der GB 30 C?', [manual], 'de').noAnswer).toBe(true);
    const data = hit('Technische Daten GB 30 C\nAngabe | Wert\nHöhe | 840 mm\nGewicht | 41 kg');
    expect(answerExtractively('Wie viel wiegt der GB 30 C?', [manual, data], 'de').text).toContain(
      'Gewicht | 41 kg',
    );
  });

  it('asks an age of a unit that holds one: a sentence that only names the age is none', () => {
    const checkUp = hit('Der Arzt prüft, ob der Jugendliche dem Alter entsprechend entwickelt ist.');
    const law = hit('Jugendlicher ist, wer 15, aber noch nicht 18 Jahre alt ist.');
    expect(answerExtractively('Ab welchem Alter gilt man als Jugendlicher?', [checkUp], 'de').noAnswer).toBe(
      true,
    );
    expect(
      answerExtractively('Ab welchem Alter gilt man als Jugendlicher?', [checkUp, law], 'de').text,
    ).toContain('noch nicht 18 Jahre alt');
  });

  it('answers a translated question by its translations, its figures and the size it names', () => {
    const english = (words: Array<[string, string[]]>): QueryTranslation[] => [
      {
        source: 'eng',
        target: 'deu',
        via: 'dictionary',
        functionWords: ['a', 'of', 'the'],
        words: words.map(([word, texts]) => ({
          word,
          alternatives: texts.map((text, i) => ({ text, weight: 0.8 - i / 10 })),
        })),
      },
    ];
    const hits = [hit(CATALOGUE, 'Material.xlsx')];
    const translations = english([
      ['price', ['Kurs', 'Preis']],
      ['radiator', ['Kühler', 'Heizkörper']],
      ['type', ['Art', 'Typ']],
    ]);
    // "price" asks for an amount: found by the row's price, not by one of its translations.
    const asked = answerExtractively('Price of a type 22 radiator 600x1000', hits, 'en', { translations });
    expect(asked.text).toContain('K-22 | Heizkörper Typ 22, 600 x 1000 mm | 189,00');
    // "type 33" names the Typ 33, which is not in the size asked for.
    const other = answerExtractively('Price of a type 33 radiator 600x1000', hits, 'en', { translations });
    expect(other.noAnswer).toBe(true);
  });

  it('reads the spoken Arabic "how much" (قديش) as asking for an amount, not as a word a quote must hold', () => {
    const translations: QueryTranslation[] = [
      {
        source: 'ara',
        target: 'deu',
        via: 'dictionary',
        functionWords: ['قديش'],
        words: [{ word: 'الغرامة', alternatives: [{ text: 'Bußgeld', weight: 0.8 }] }],
      },
    ];
    const hits = [
      hit('Bei verspäteter Meldung wird ein Bußgeld von 50 Euro fällig.', 'Regeln.pdf'),
      hit('Die Kantine ist mittags geöffnet.'),
    ];
    // "how much is the fine at the factory": the word no dictionary knew weighs less, "how much" not at all.
    const answer = answerExtractively('قديش الغرامة بالمصنع؟', hits, 'ar', { translations });
    expect(answer.noAnswer).toBe(false);
    expect(answer.text).toContain('Bußgeld von 50 Euro');
  });

  it('explains a code by the table row it keys, with the column names, over a sentence that mentions it', () => {
    const hits = [
      hit(
        'Störungen zeigt das Display mit einem Code an (z. B. E12), die Anzeige blinkt.',
        'Anleitung.pdf',
        8,
      ),
      hit(
        'Code | Bedeutung | Abhilfe\nE11 | Wassermangel | Anlage füllen\nE12 | Kein Zündfunke | Elektrode prüfen',
        'Anleitung.pdf',
        9,
      ),
    ];
    const answer = answerExtractively('E12 was heißt das?', hits, 'de');
    expect(answer.text).toContain('Code | Bedeutung | Abhilfe\nE12 | Kein Zündfunke | Elektrode prüfen [1]');
    expect(answer.cited.map((c) => c.page)).toEqual([9]);
  });

  it('finds a row by its column names, and quotes a list with the line that introduces it', () => {
    const staff =
      'Gewicht und Maße des Geräts\nAngabe | Wert\nHöhe | 720 mm\nGewicht | 36,5 kg\nSo beantragst du Urlaub:\n' +
      '• Antrag in der App stellen.\n• Die Leitung genehmigt innerhalb einer Woche.';
    const heavy = answerExtractively('Wie schwer ist das Gerät?', [hit(staff)], 'de');
    expect(heavy.text).toContain('Gewicht | 36,5 kg');
    const holiday = answerExtractively('Wie beantrage ich Urlaub?', [hit(staff)], 'de');
    expect(holiday.text).toContain(
      'So beantragst du Urlaub:\n• Antrag in der App stellen.\n• Die Leitung genehmigt innerhalb einer Woche.',
    );
  });

  it('asks "how long" for a duration, and a paragraph or list number is no amount', () => {
    const hits = [
      hit(
        '§ 11 Die Kammer hat dem Betrieb die beabsichtigte Eintragung in das Register mitzuteilen.\n' +
          'Die Eintragung in das Register ist innerhalb von drei Monaten nach Eingang des Antrags vorzunehmen.',
        'Ordnung.pdf',
      ),
    ];
    const answer = answerExtractively(
      'Wie lange hat die Kammer Zeit für die Eintragung ins Register?',
      hits,
      'de',
      {
        minConfidence: 0,
      },
    );
    expect(answer.text).toContain('innerhalb von drei Monaten');
    expect(answer.text).not.toContain('§ 11');
    const stripped = withoutReferences('(2) Nach § 4 Abs. 2 und Satz 1 gilt Folgendes: 9 Stunden');
    expect(stripped).not.toMatch(/[1-4]/);
    expect(stripped).toContain('9 Stunden');
    const pointer = [hit('(2) Für die Kurzarbeit gilt das Kurzarbeitergeld nach Absatz 1 als geleistet.')];
    expect(answerExtractively('Wie hoch ist das Kurzarbeitergeld?', pointer, 'de').noAnswer).toBe(true);
  });

  it('asks "how much" for an amount with its unit: a clock time is none', () => {
    const hits = [
      hit(
        'Die Rufbereitschaft am Wochenende beginnt freitags um 12:00 Uhr nach dem Dienstplan.',
        'Handbuch.pdf',
      ),
      hit('Regelung | Wert\nRufbereitschaft Samstag und Sonntag | 60 EUR pro Tag', 'Handbuch.pdf', 4),
    ];
    const answer = answerExtractively('Wie viel gibt es für Rufbereitschaft am Wochenende?', hits, 'de', {
      minConfidence: 0,
    });
    expect(answer.text).toContain('Rufbereitschaft Samstag und Sonntag | 60 EUR pro Tag');
    expect(answer.text).not.toContain('12:00');
  });

  it('reads a header row with subscripts ("CO₂") as the column names of the rows below', () => {
    const hits = [
      hit(
        'Abgaswerte\nGasart | CO₂ bei Volllast | CO₂ bei Teillast\nErdgas E | 9,2 % | 8,8 %\nFlüssiggas | 10,8 % | 10,4 %\n' +
          'Der CO₂-Gehalt bei Volllast wird an der Drosselschraube eingestellt.',
      ),
    ];
    const answer = answerExtractively('CO2 Wert bei Volllast mit Flüssiggas?', hits, 'de', {
      minConfidence: 0,
    });
    expect(answer.text).toContain(
      'Gasart | CO₂ bei Volllast | CO₂ bei Teillast\nFlüssiggas | 10,8 % | 10,4 %',
    );
  });

  it('keeps the weight of a compound whose parts the retrieved text holds everywhere, and refuses without it', () => {
    const hits = [
      hit(
        '1. die Meisterprüfung erfolgreich abgelegt haben oder\n' +
          '2. zwischen ihr und dem Teil der Meisterprüfung keine wesentlichen Unterschiede bestehen.\n' +
          'Zur Meisterprüfung ist zuzulassen, wer eine Gesellenprüfung bestanden hat.',
        'Handwerksordnung.pdf',
      ),
      hit(
        'Die Meisterprüfung besteht aus vier Prüfungsteilen. Die Prüfung ist gebührenfrei.',
        'Handwerksordnung.pdf',
      ),
    ];
    const answer = answerExtractively('Wie hoch ist die Prüfungsgebühr für die Meisterprüfung?', hits, 'de');
    expect(answer.noAnswer).toBe(true);
  });

  it('weighs a word by how rare it is in the company: a sentence with only the common words does not answer', () => {
    const hits = [
      hit('Für die Geräte GB 20 C und GB 30 C gelten gesonderte Anleitungen.'),
      hit(
        'Technische Daten GB 24 C\nParameter | Einheit | Wert\nNennleistung bei 50/30 °C | kW | 24,8\n' +
          'Nennleistung bei 80/60 °C | kW | 23,6\nNennleistung Warmwasser | kW | 28,0',
      ),
    ];
    const question = 'Welche Nennleistung hat die GB 20 C?';
    // The company names its devices everywhere, and writes about the rated output in a few passages.
    const rarity = new Map([
      ['nennleistung', 0.004],
      ['gb', 0.03],
      ['20', 0.04],
    ]);
    expect(answerExtractively(question, hits, 'de', { rarity }).noAnswer).toBe(true);
  });

  it('explains a code by its row also when a sentence repeats the words the question frames it with', () => {
    const hits = [
      hit(
        'Nach 12 Monaten oder 2.000 Betriebsstunden zeigt das Display die Wartungsmeldung M20 an.',
        'Anleitung.pdf',
        5,
      ),
      hit(
        'Code | Meldung | Maßnahme\nM20 | Wartung fällig | Wartung durchführen, Meldung zurücksetzen',
        'Anleitung.pdf',
        9,
      ),
    ];
    const answer = answerExtractively('Display zeigt M20, was ist das?', hits, 'de');
    // The row comes first; the sentence may follow as context.
    expect(answer.text).toContain('M20 | Wartung fällig | Wartung durchführen, Meldung zurücksetzen [1]');
    expect(answer.cited[0]?.page).toBe(9);
  });

  it('asks "how much does it weigh" for a weight, and "how much does it cost" for a price: any amount is neither', () => {
    const data = hit(
      'Technische Daten GB 30 C\nParameter | Einheit | Wert\nAbgastemperatur 50/30 °C | °C | 35',
    );
    expect(answerExtractively('Сколько весит GB 30 C?', [data], 'ru').noAnswer).toBe(true);
    const list = hit(
      'Art.-Nr. | Bezeichnung | Einheit | Preis netto EUR\nH-1 | Ventil DN 15, 5 Stück | Pack | 12,40',
    );
    const price = answerExtractively('Wie viel kostet das Ventil DN 15?', [list], 'de', { minConfidence: 0 });
    expect(price.text).toContain('12,40');
    const parts = hit(
      'Das Ventil DN 15 wird im Pack zu 5 Stück geliefert.\nArt.-Nr. | Bezeichnung | Preis\nH-1 | Ventil DN 15 | 12,40 €',
    );
    expect(answerExtractively('Wie viel kostet das Ventil DN 15?', [parts], 'de').text).toContain(
      'H-1 | Ventil DN 15 | 12,40 €',
    );
  });

  it('asks "how much does the firm pay" for money, in either order of the words, and "how much percent" for a share', () => {
    const months = hit('Das Weihnachtsgeld zahlt die Firma nach 12 Monaten Betriebszugehörigkeit.');
    for (const [question, lang] of [
      ['Wie viel Weihnachtsgeld zahlt die Firma?', 'de'],
      ['Weihnachtsgeld: die Firma zahlt wie viel?', 'de'],
    ] as const)
      expect(answerExtractively(question, [months], lang).noAnswer, question).toBe(true);
    const amount = hit('Das Weihnachtsgeld zahlt die Firma mit 500,00 EUR im November.');
    expect(
      answerExtractively('Wie viel Weihnachtsgeld zahlt die Firma?', [months, amount], 'de').text,
    ).toContain('500,00 EUR');
    // A share is no amount of money: a rate answers it.
    const share = hit('Leistung | Erstattung\nKrankengeld der Kasse | 70 %');
    expect(scoreUnits('Wie viel Krankengeld zahlt die Kasse?', [share], 'de')[0]!.answers).toBe(false);
    expect(scoreUnits('Wie viel Prozent Krankengeld zahlt die Kasse?', [share], 'de')[0]!.answers).toBe(true);
  });

  it('matches English words by their English inflection, which the German stemmer leaves', () => {
    const hits = [
      hit('The radiator valve is opened with key number 4100. Turn it a quarter turn.', 'Valves.pdf'),
    ];
    const answer = answerExtractively('Which key opens the radiator valve?', hits, 'en');
    expect(answer.noAnswer).toBe(false);
    expect(answer.text).toContain('The radiator valve is opened with key number 4100.');
  });

  it('weighs less a lower-case word of the question that no passage holds, not a noun no passage holds', () => {
    const hits = [
      hit(
        'Die Werkzeugausgabe im Lager ist montags bis freitags von 6:30 bis 7:15 Uhr geöffnet. Defektes Werkzeug wird dort getauscht.',
      ),
      hit('Die Probezeit der Monteure dauert sechs Monate.'),
    ];
    // "offen" is how the asker puts it; the documents say "geöffnet".
    const open = answerExtractively('Wann hat die Werkzeugausgabe offen?', hits, 'de');
    expect(open.noAnswer).toBe(false);
    expect(open.text).toContain('von 6:30 bis 7:15 Uhr geöffnet');
    // A noun no passage holds names what is asked about: the opening hours in summer are not in the documents.
    expect(answerExtractively('Wann hat die Werkzeugausgabe im Sommer offen?', hits, 'de').noAnswer).toBe(
      true,
    );
    expect(answerExtractively('Wann hat die Kantine offen?', hits, 'de').noAnswer).toBe(true);
  });

  it('matches a verb form with its noun and a typo of one ("gewartet", "Wartung"; "widerholen", "wiederholt")', () => {
    const hits = [
      hit(
        'Die Anlage ist einmal jährlich zu prüfen. Eine Wartung der Anlage ist bedarfsabhängig durchzuführen, spätestens jedoch alle 2 Jahre.',
        'Anleitung.pdf',
      ),
      hit('Die Anlage steht im Keller neben dem Öltank.', 'Haus.pdf'),
    ];
    const serviced = answerExtractively('Wie oft muss die Anlage gewartet werden?', hits, 'de');
    expect(serviced.noAnswer).toBe(false);
    expect(serviced.text).toContain('spätestens jedoch alle 2 Jahre');
    const exam = [
      hit(
        'Die Gesellenprüfung besteht aus zwei Teilen. Die Prüfung kann im Falle des Nichtbestehens zweimal wiederholt werden.',
        'Ordnung.pdf',
      ),
      hit('Die Prüfungsgebühr trägt der Betrieb.', 'Handbuch.pdf'),
    ];
    const retaken = answerExtractively('wie oft kann man die gesellenprüfung widerholen', exam, 'de');
    expect(retaken.noAnswer).toBe(false);
    expect(retaken.text).toContain('zweimal wiederholt');
  });

  it('finds a noun by its short adjective in "-lich", and the adjective by the noun ("Tag", "täglich")', () => {
    // Snowball takes "-lich" off long words only ("werktäglich" is found as "Werktag" already).
    expect(matchWord(askedWord('Tag'), wordSet('Die tägliche Arbeitszeit beträgt acht Stunden.'))).toBe(
      MATCH.derived,
    );
    expect(matchWord(askedWord('täglich'), wordSet('acht Stunden am Tag'))).toBe(MATCH.derived);
    expect(matchWord(askedWord('Jahr'), wordSet('Der Kessel wird jährlich gewartet.'))).toBe(MATCH.derived);
    expect(matchWord(askedWord('Arzt'), wordSet('eine ärztliche Bescheinigung'))).toBe(MATCH.derived);
  });

  it('reads the time a "how long" question says it has as the duration asked for ("wie lange ... Zeit")', () => {
    const hits = [
      hit(
        'Der Mangel ist dem Lieferanten innerhalb von zwei Wochen nach der Lieferung schriftlich anzuzeigen.',
        'AGB.pdf',
      ),
      hit(
        'Der Lieferant vermerkt den Zeitpunkt der Lieferung und jeden angezeigten Mangel im Lieferschein.',
        'AGB.pdf',
      ),
    ];
    const answer = answerExtractively(
      'Wie lange hat der Kunde Zeit, einen Mangel der Lieferung anzuzeigen?',
      hits,
      'de',
    );
    expect(answer.noAnswer).toBe(false);
    expect(answer.text).toContain('innerhalb von zwei Wochen');
  });

  it('asks "when" for a time or a date: a phone number is none', () => {
    const hits = [
      hit(
        'Bereich | Ansprechpartner | Telefon\nLager und Werkzeugausgabe | A. Nowak | 0561 470 93-25',
        'Kontakte.pdf',
      ),
      hit(
        'Die Werkzeugausgabe im Lager ist montags bis freitags von 6:30 bis 7:15 Uhr und von 15:30 bis 16:30 Uhr geöffnet. Defektes Werkzeug wird dort getauscht.',
        'Handbuch.pdf',
      ),
    ];
    const answer = answerExtractively('Wann hat die Werkzeugausgabe offen?', hits, 'de');
    expect(answer.noAnswer).toBe(false);
    expect(answer.text).toContain('von 6:30 bis 7:15 Uhr');
    expect(answer.text).not.toContain('0561');
  });

  it('finds a compound the word list does not split by the words of a row ("Gastherme", "Gas-Brennwerttherme")', () => {
    const hits = [
      hit(
        'Art.-Nr. | Bezeichnung | Einheit | Preis netto EUR\n' +
          'W-200 | Wartung Gas-Brennwerttherme (Wandgerät) inkl. Abgasmessung | pauschal | 179,00\n' +
          'W-202 | Wartung Öl-Brennwertkessel inkl. Düsenwechsel | pauschal | 249,00\n' +
          'W-203 | Wartung Luft/Wasser-Wärmepumpe | pauschal | 199,00',
        'Preise.pdf',
      ),
    ];
    const answer = answerExtractively('Was kostet die Wartung von einer Gastherme?', hits, 'de');
    expect(answer.noAnswer).toBe(false);
    expect(answer.text).toContain('179,00');
    expect(answer.text).not.toContain('249,00');
    // A preposition is no part of it: "Nachprüfung" is not found by "nach" and "Meisterprüfung".
    const exam = [
      hit('Er weist die Meisterprüfung nach.', 'Ordnung.pdf'),
      hit('Der Kessel steht im Keller.'),
    ];
    expect(answerExtractively('Wer darf zur Nachprüfung?', exam, 'de').noAnswer).toBe(true);
  });

  it('takes a passage that repeats the quoted unit for agreement, not for a rival; one with another figure is a rival', () => {
    const question = 'Krieg ich vor der schriftlichen Abschlussprüfung einen Tag frei?';
    const rule = hit(
      'Der Arbeitgeber hat den Jugendlichen freizustellen an dem Arbeitstag, der der schriftlichen Abschlussprüfung unmittelbar vorangeht.',
      'Gesetz.pdf',
    );
    const penalty = hit(
      'Ordnungswidrig handelt, wer den Jugendlichen an dem Arbeitstag, der der schriftlichen Abschlussprüfung unmittelbar vorangeht, nicht freistellt.',
      'Gesetz.pdf',
    );
    const excerpt = hit(
      'an dem Arbeitstag, der der schriftlichen Abschlussprüfung unmittelbar vorangeht,',
      'Gesetz.pdf',
    );
    // The lead over the best unit of any other passage: a passage alone has the whole of it (DISTINCT_WEIGHT ×
    // DISTINCT_CAP).
    const lead = (q: string, hits: SearchHit[]) =>
      answerExtractively(q, hits, 'de').confidence -
      Math.max(...scoreUnits(q, hits, 'de').map((u) => u.score));
    expect(lead(question, [penalty])).toBeCloseTo(0.15, 5);
    expect(lead(question, [penalty, excerpt])).toBeCloseTo(0.15, 5);
    expect(lead(question, [penalty, rule])).toBeLessThan(0.15);
    const price = 'Wie hoch ist die Anfahrtspauschale in Zone 1?';
    const current = hit(
      'Art.-Nr. | Bezeichnung | Preis\nL-100 | Anfahrtspauschale Zone 1 | 39,00',
      'Preise.pdf',
    );
    const older = hit(
      'Art.-Nr. | Bezeichnung | Preis\nL-100 | Anfahrtspauschale Zone 1 | 35,00',
      'Preise-2024.pdf',
    );
    expect(lead(price, [current, older])).toBeLessThan(0.15);
  });

  it('matches the figure a question states with the range a rule writes it in, and quotes what the rule asks', () => {
    const hits = [
      hit(
        'Die Arbeit ist durch im voraus feststehende Ruhepausen von mindestens 30 Minuten bei einer Arbeitszeit von mehr als sechs bis zu neun Stunden und 45 Minuten bei einer Arbeitszeit von mehr als neun Stunden insgesamt zu unterbrechen.',
        'ArbZG.pdf',
      ),
      hit(
        'Länger als sechs Stunden hintereinander dürfen Arbeitnehmer nicht ohne Ruhepause beschäftigt werden.',
        'ArbZG.pdf',
      ),
    ];
    const answer = answerExtractively('Wie lange Pause steht mir bei 8 Stunden Arbeit zu?', hits, 'de');
    expect(answer.noAnswer).toBe(false);
    expect(answer.text).toContain(
      'mindestens 30 Minuten bei einer Arbeitszeit von mehr als sechs bis zu neun Stunden',
    );
    // A bound that only holds the asker's case is no answer to "how long": its duration is the question's own.
    const [rule, bound] = scoreUnits('Wie lange Pause steht mir bei 8 Stunden Arbeit zu?', hits, 'de');
    expect(rule!.answers).toBe(true);
    expect(bound!.answers).toBe(false);
  });

  it('reads the spoken short form of "heraus" ("raus") as the documents write it ("herausnehmen")', () => {
    const hits = [
      hit('Die vier Muttern am Flansch lösen und den Brenner nach vorn herausnehmen.', 'Anleitung.pdf'),
      hit('Der Brenner läuft bei der Wartung zehn Minuten auf Volllast.', 'Wartung.pdf'),
    ];
    const answer = answerExtractively('Wie krieg ich den Brenner raus?', hits, 'de');
    expect(answer.noAnswer).toBe(false);
    expect(answer.text).toContain('nach vorn herausnehmen');
  });
});
