import { describe, expect, it } from 'vitest';
import { type Candidate, type ScoredTerm, scoreBm25 } from './bm25.ts';

const term = (lexeme: string, more: Partial<ScoredTerm> = {}): ScoredTerm => ({
  cfg: 'german',
  lexeme,
  share: 0,
  part: false,
  compound: false,
  synonym: false,
  group: `german:${lexeme}`,
  weight: 1,
  ...more,
});

const passage = (id: string, tfs: Record<string, number>, more: Partial<Candidate> = {}): Candidate => ({
  id,
  cfg: 'german',
  tokens: 10,
  lexemes: Object.keys(tfs),
  tfs: Object.values(tfs),
  written: Object.keys(tfs),
  ...more,
});

const floor = { termShare: 0.5, idfShare: 0.5 };
const base = { n: 1000, avgdl: 10, exact: false, floor, limit: 10 };

describe('scoreBm25', () => {
  it('ranks the passage with the rarer term first, and by id when scores tie', () => {
    const terms = [term('kessel', { share: 0.001 }), term('heizung', { share: 0.3 })];
    const hits = scoreBm25({
      ...base,
      terms,
      candidates: [passage('c', { heizung: 1 }), passage('b', { kessel: 1 }), passage('a', { kessel: 1 })],
    });
    expect(hits.map((h) => h.passageId)).toEqual(['a', 'b', 'c']);
    expect(hits[0]!.score).toBe(hits[1]!.score);
    expect(hits[0]!.score).toBeGreaterThan(hits[2]!.score);
  });

  it('weighs a longer passage and a lower term frequency less', () => {
    const terms = [term('kessel', { share: 0.01 })];
    const [short, twice, long] = ['short', 'twice', 'long'].map(
      (id) =>
        scoreBm25({
          ...base,
          terms,
          candidates: [passage(id, { kessel: id === 'twice' ? 2 : 1 }, { tokens: id === 'long' ? 40 : 10 })],
        })[0]!.score,
    );
    expect(twice).toBeGreaterThan(short!);
    expect(short).toBeGreaterThan(long!);
  });

  it('gives the alternatives of a translated word the IDF of the most common one, and counts the group once', () => {
    // "holiday": "Urlaub" (common) and "Feiertag" (rare) are one group.
    const terms = [
      term('urlaub', { share: 0.2, group: 't0:0', weight: 0.9 }),
      term('feiertag', { share: 0.001, group: 't0:0', weight: 0.9 }),
    ];
    const hits = scoreBm25({
      ...base,
      floor: null,
      terms,
      candidates: [
        passage('u', { urlaub: 1 }),
        passage('f', { feiertag: 1 }),
        passage('uf', { urlaub: 1, feiertag: 1 }),
      ],
    });
    const score = new Map(hits.map((h) => [h.passageId, h.score]));
    expect(score.size).toBe(3);
    expect(score.get('f')).toBe(score.get('u'));
    expect(score.get('uf')).toBe(score.get('u'));
  });

  it('leaves out a passage of common words when a rare word of the question is in no passage', () => {
    const terms = [term('photovoltaik', { share: 0 }), term('anlage', { share: 0.6 })];
    const candidates = [passage('a', { anlage: 1 })];
    expect(scoreBm25({ ...base, terms, candidates })).toEqual([]);
    expect(scoreBm25({ ...base, floor: null, terms, candidates })).toHaveLength(1);
  });

  it('lets a passage of common words pass when they carry most of the question', () => {
    const terms = [term('heizung', { share: 0.6 }), term('wartung', { share: 0.7 })];
    const hits = scoreBm25({ ...base, terms, candidates: [passage('a', { heizung: 1, wartung: 1 })] });
    expect(hits).toHaveLength(1);
  });

  it('does not let a word found only as a part of a compound be telling alone', () => {
    const terms = [term('anlage', { share: 0.001 }), term('photovoltaik', { share: 0 })];
    const asPart = passage('a', { anlage: 1 }, { written: [] });
    const written = passage('b', { anlage: 1 });
    expect(scoreBm25({ ...base, terms, candidates: [asPart, written] }).map((h) => h.passageId)).toEqual([
      'b',
    ]);
  });

  it('counts document frequencies among the candidates when they are every match of a small scope', () => {
    // The company's statistics say "gewicht" is common; in this scope of 4 passages, one holds it and 3 "kessel".
    const terms = [term('kessel', { share: 0.001 }), term('gewicht', { share: 0.9 })];
    const candidates = [
      passage('a', { kessel: 1 }),
      passage('b', { kessel: 1 }),
      passage('c', { kessel: 1 }),
      passage('d', { gewicht: 1 }),
    ];
    const estimated = scoreBm25({ ...base, n: 4, floor: null, terms, candidates });
    const exact = scoreBm25({ ...base, n: 4, floor: null, exact: true, terms, candidates });
    expect(estimated[0]!.passageId).toBe('a');
    expect(exact[0]!.passageId).toBe('d');
  });
});
