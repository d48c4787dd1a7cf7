import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ApertiumLemmas, parseStream } from './apertium-lemmas.ts';

const log = pino({ level: 'silent' });

it('reads lttoolbox’s stream: analyses per word, none for an unknown one', () => {
  expect(parseStream('^котла/котёл<n><m><sg><gen>$ ^GB/*GB$^?/?<sent>$')).toEqual([
    { surface: 'котла', analyses: ['котёл<n><m><sg><gen>'] },
    { surface: 'GB', analyses: [] },
    { surface: '?', analyses: ['?<sent>'] },
  ]);
  expect(parseStream('^рахунок<n><m>/счёт<n><m>$')).toEqual([
    { surface: 'рахунок<n><m>', analyses: ['счёт<n><m>'] },
  ]);
});

it('gives no forms, and says so once, when lt-proc is missing', async () => {
  const lemmas = new ApertiumLemmas('/usr/share/apertium', log, '/nonexistent/lt-proc');
  expect(await lemmas.hints(['котла'], 'rus')).toEqual(new Map());
  expect(lemmas.available).toBe(false);
  expect(await new ApertiumLemmas('/nonexistent', log).hints(['котла'], 'rus')).toEqual(new Map());
});

// Debian's apertium-rus-ukr and lttoolbox, as the README's apt line and .ci/run install them.
describe('with Apertium’s Russian-Ukrainian data', () => {
  const lemmas = new ApertiumLemmas('/usr/share/apertium', log);

  it('is installed', () => {
    expect(lemmas.available, 'apt-get install lttoolbox apertium-rus-ukr').toBe(true);
  });

  it('gives the dictionary forms of inflected Russian words', async () => {
    const hints = await lemmas.hints(['Ключ', 'от', 'котла', 'окнами'], 'rus');
    expect(hints.get('котла')).toEqual(['котёл']);
    expect(hints.get('окнами')).toContain('окно');
    expect(hints.get('ключ')).toContain('ключ');
  });

  it('gives the Russian words for Ukrainian ones', async () => {
    const hints = await lemmas.hints(['ключ', 'від', 'вікна', 'котлом'], 'ukr');
    expect(hints.get('вікна')).toContain('окно');
    expect(hints.get('котлом')).toContain('котёл');
    expect(await lemmas.hints(['window'], 'eng')).toEqual(new Map());
  });
});
