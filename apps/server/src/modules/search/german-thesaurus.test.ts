import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { germanThesaurus, parseEntry, resetGermanThesaurus, synonymsOf } from './german-thesaurus.ts';

const dir = mkdtempSync(join(tmpdir(), 'ww-thesaurus-'));

/** A thesaurus in MyThes' form: the data file of entries, the index of their byte offsets. */
function writeThesaurus(entries: Array<[string, string[]]>) {
  let data = 'UTF-8\n';
  const index: string[] = ['UTF-8', String(entries.length)];
  for (const [word, meanings] of entries) {
    index.push(`${word}|${Buffer.byteLength(data)}`);
    data += `${word}|${meanings.length}\n${meanings.map((m) => `-|${m}`).join('\n')}\n`;
  }
  writeFileSync(join(dir, 'th.dat'), data);
  writeFileSync(join(dir, 'th.idx'), `${index.join('\n')}\n`);
  resetGermanThesaurus();
  expect(germanThesaurus({ index: join(dir, 'th.idx'), data: join(dir, 'th.dat') })).not.toBeNull();
}

beforeAll(() =>
  writeThesaurus([
    ['azubi', ['Auszubildender|Lehrling|Azubi (ugs., Kurzform)|Berufstätiger (männl.) (Oberbegriff)']],
    ['feierabend', ['Arbeitsende|Dienstschluss|Ende|Schicht im Schacht (ugs.)']],
    ['lohn', ['Arbeitsentgelt|Vergütung|Gehalt']],
  ]),
);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  resetGermanThesaurus();
});

describe('the German thesaurus', () => {
  it('gives the one-word synonyms of a word, not its wider terms, phrases or short words', () => {
    expect(synonymsOf('Azubi')).toEqual(['auszubildender', 'lehrling']);
    expect(synonymsOf('Feierabend')).toEqual(['arbeitsende', 'dienstschluss']);
  });

  it('finds a plural by its base form, and nothing for a word it does not list', () => {
    expect(synonymsOf('Azubis')).toEqual(['auszubildender', 'lehrling']);
    expect(synonymsOf('Kessel')).toEqual([]);
  });

  it('reads an entry as MyThes writes it', () => {
    expect(parseEntry('lohn|2\n-|Entgelt|Gage (Oberbegriff)\n-|Vergütung\nlohnen|1\n-|x', 'lohn')).toEqual([
      'entgelt',
      'vergütung',
    ]);
  });
});
