import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { suspendedCompounds } from '../processing/passage-writer.ts';
import { compoundParts, germanWordList, resetGermanWordList } from './german-compounds.ts';
import { searchQuery } from './query-terms.ts';

const dir = mkdtempSync(join(tmpdir(), 'ww-words-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  resetGermanWordList();
});

/** A small word list in the system list's form: one word a line, nouns capitalised. */
function useWords(words: string[]) {
  const path = join(dir, `words-${words.length}`);
  writeFileSync(path, `${words.join('\n')}\n`);
  resetGermanWordList();
  expect(germanWordList([path])).not.toBeNull();
}

describe('German compounds', () => {
  beforeEach(() =>
    useWords([
      'Anfahrt',
      'pauschale',
      'Geselle',
      'Stunde',
      'Arbeit',
      'Zeit',
      'Gesetz',
      'Arbeitszeit',
      'Tag',
      'Krankheit',
      'unter',
      'Lagen',
      'Probe',
      'ahme',
      'feier',
      'Technik',
      'Heizung',
      'sanitär',
    ]),
  );

  it('splits a compound into the parts of the word list, without linking elements', () => {
    expect(compoundParts('Anfahrtspauschale')).toEqual(['anfahrt', 'pauschale']);
    expect(compoundParts('Gesellenstunde')).toEqual(['geselle', 'stunde']);
    expect(compoundParts('Krankheitstag')).toEqual(['krankheit', 'tag']);
    // The fewest parts first, then the parts of a part.
    expect(compoundParts('Arbeitszeitgesetz')).toEqual(['arbeitszeit', 'gesetz', 'arbeit', 'zeit']);
  });

  it('keeps a word whole that is no compound of known words, or whose head is no noun', () => {
    expect(compoundParts('Thermostat')).toEqual([]);
    expect(compoundParts('Stunde')).toEqual([]);
    // "-ahme" is no noun of the list, "unter" a function word.
    expect(compoundParts('Probenahme')).toEqual([]);
    expect(compoundParts('Unterlagen')).toEqual([]);
  });

  it('begins a compound with a three-letter noun when the rest splits or is a long noun', () => {
    useWords([
      'Not',
      'Dienst',
      'Zuschlag',
      'Gas',
      'Therme',
      'Tor',
      'Bogen',
      'Kür',
      'Zungen',
      'Kürzungen',
      'mit',
    ]);
    expect(compoundParts('Notdienstzuschlag')).toEqual(['not', 'dienst', 'zuschlag']);
    expect(compoundParts('Notdienst')).toEqual(['not', 'dienst']);
    expect(compoundParts('Gastherme')).toEqual(['gas', 'therme']);
    // A short rest ("-bogen") is too often a word's own ending; a listed word is no compound of a short noun.
    expect(compoundParts('Torbogen')).toEqual([]);
    expect(compoundParts('Kürzungen')).toEqual([]);
    // Only a noun, and only as the first part.
    expect(compoundParts('Mitdienst')).toEqual([]);
    expect(compoundParts('Dienstgastherme')).toEqual([]);
  });

  it('writes out words set with a suspended hyphen, for the index', () => {
    // "Sonn- und Feiertage" holds "Sonntage"; the list lacks the plural "Tage" beside the noun "Tag".
    expect(suspendedCompounds('Notdienstzuschlag Sonn- und Feiertage | pauschal | 130,00')).toEqual([
      'sonntage',
    ]);
    expect(suspendedCompounds('Heizungs- oder Sanitärtechnik')).toEqual(['heizungstechnik']);
    expect(suspendedCompounds('Elektro- und Gasarbeiten')).toEqual([]);
  });

  it("splits by the text's own words when the system has no word list", () => {
    resetGermanWordList();
    expect(germanWordList([join(dir, 'missing')])).toBeNull();
    expect(compoundParts('Anfahrtspauschale')).toEqual([]);
    expect(compoundParts('Anfahrtspauschale', new Set(['anfahrt', 'pauschale', 'zone']))).toEqual([
      'anfahrt',
      'pauschale',
    ]);
  });

  it('makes a question find compounds by their parts, sizes by their numbers, without its fillers', () => {
    expect(searchQuery('Was kostet eine Gesellenstunde?')).toMatchObject({
      text: 'eine Gesellenstunde',
      parts: 'geselle stunde',
      compounds: 'Gesellenstunde',
    });
    expect(searchQuery('Heizkörper Typ 22 600x1000 Preis').text).toBe(
      'Heizkörper Typ 22 600x1000 Preis 600 1000',
    );
    // A price question also looks for prices, a weight question for the weight.
    expect(searchQuery('Was kostet die Anfahrt?').synonyms).toBe('preis price eur euro');
    expect(searchQuery('Wie schwer ist der Kessel?').synonyms).toBe('gewicht weight kg');
    // A question of fillers only is searched as it is.
    expect(searchQuery('Was kostet das?').text).toBe('Was kostet das');
  });
});
