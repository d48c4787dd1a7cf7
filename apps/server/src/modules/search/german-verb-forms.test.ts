import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { askedWord, matchWord, wordSet } from '../chat/word-match.ts';
import { germanWordList, resetGermanWordList } from './german-compounds.ts';
import { separableStem, separableVerbForms } from './german-verb-forms.ts';
import { searchQuery } from './query-terms.ts';

const dir = mkdtempSync(join(tmpdir(), 'ww-verbs-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  resetGermanWordList();
});

beforeEach(() => {
  // The system list's form: one word a line, nouns capitalised ("Fahrten" is a noun, "teilen" a verb).
  const path = join(dir, 'words');
  writeFileSync(path, ['teilen', 'rechnen', 'halten', 'bewahren', 'Fahrten', 'Pause', 'gelassen'].join('\n'));
  resetGermanWordList();
  expect(germanWordList([path])).not.toBeNull();
});

describe('separable verbs', () => {
  it('gives the infinitive, participle and infinitive with "zu" of each other', () => {
    expect(separableVerbForms('aufteilen')).toEqual(expect.arrayContaining(['aufgeteilt', 'aufzuteilen']));
    expect(separableVerbForms('aufgeteilt')).toEqual(expect.arrayContaining(['aufteilen', 'aufzuteilen']));
    expect(separableVerbForms('abgerechnet')).toEqual(expect.arrayContaining(['abrechnen', 'abzurechnen']));
    // A strong verb's participle ends as its infinitive; an inseparable prefix's participle has no "ge".
    expect(separableVerbForms('einhalten')).toContain('eingehalten');
    expect(separableVerbForms('aufzubewahren')).toEqual(
      expect.arrayContaining(['aufbewahren', 'aufbewahrt']),
    );
    expect(separableStem('aufzuteilen')).toBe('aufteil');
    expect(separableStem('aufgeteilt')).toBe('aufteil');
  });

  it('leaves other words alone: a noun, a participle read as "zu" + word, a word the list lacks', () => {
    expect(separableVerbForms('Anfahrten')).toEqual([]);
    expect(separableVerbForms('zugelassen')).toEqual([]);
    expect(separableVerbForms('ausflippen')).toEqual([]);
    expect(separableVerbForms('Pause')).toEqual([]);
  });

  it('has no forms without the word list', () => {
    resetGermanWordList();
    expect(germanWordList([join(dir, 'none')])).toBeNull();
    expect(separableVerbForms('aufteilen')).toEqual([]);
  });

  it('is one word of the question by any of its forms in search', () => {
    const query = searchQuery('kann man die pause aufteilen');
    expect(query.verbForms).toEqual([{ word: 'aufteilen', forms: expect.arrayContaining(['aufgeteilt']) }]);
    expect(query.text.split(' ')).not.toContain('aufteilen');
  });

  it('matches a participle as the infinitive asked for itself in the answerer', () => {
    const sentence = wordSet(
      'Die Ruhepausen können in Zeitabschnitte von jeweils 15 Minuten aufgeteilt werden.',
    );
    expect(matchWord(askedWord('aufteilen'), sentence)).toBe(1);
  });
});
