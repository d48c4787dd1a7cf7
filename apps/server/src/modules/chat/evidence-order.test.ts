import type { SearchHit } from '@werkwissen/shared';
import { describe, expect, it } from 'vitest';
import { orderByEvidence } from './evidence-order.ts';

const hit = (text: string, score: number, headingPath: string[] = []): SearchHit => ({
  passageId: crypto.randomUUID(),
  fileId: crypto.randomUUID(),
  fileName: 'Preisliste.pdf',
  mimeType: 'application/pdf',
  divisionId: crypto.randomUUID(),
  divisionName: 'Büro',
  page: 1,
  headingPath,
  text,
  score,
});

describe('ordering hits by the evidence in their sentences and rows', () => {
  it('moves a passage with a row that answers above one that mentions the words apart', () => {
    const mentions = hit(
      'Die Wartung umfasst die Reinigung des Brenners. Die Preise der Gastherme richten sich nach dem Aufwand, ' +
        'die Wartung wird nach Zeit abgerechnet, Material extra. Der Kunde erhält ein Protokoll.',
      10,
    );
    const answers = hit('Leistung | Preis\nWartung Gastherme | 179,00 EUR\nWartung Ölkessel | 229,00 EUR', 8);
    const ordered = orderByEvidence(
      'Was kostet die Wartung einer Gastherme?',
      [mentions, answers],
      [],
      new Map(),
    );
    expect(ordered.map((h) => h.passageId)).toEqual([answers.passageId, mentions.passageId]);
    // The search's own scores stay: the answerer weighs passages by them.
    expect(ordered.map((h) => h.score)).toEqual([8, 10]);
  });

  it('keeps the search order when no passage holds more evidence than another', () => {
    const first = hit('Der Kessel steht im Keller.', 10);
    const second = hit('Der Kessel steht im Keller.', 9);
    const ordered = orderByEvidence('Wo steht der Kessel?', [first, second], [], new Map());
    expect(ordered.map((h) => h.passageId)).toEqual([first.passageId, second.passageId]);
  });
});
