import { describe, expect, it } from 'vitest';
import { BuiltinEmbedder } from '../embedding/builtin-embedder.ts';
import { groupQuestions, normaliseQuestion, SAME_QUESTION_SIMILARITY } from './knowledge-gaps.ts';

const A = 'company-a';
let minute = 0;
const asked = (question: string, companyId = A) => ({
  companyId,
  question,
  askedAt: new Date(Date.UTC(2025, 0, 1, 12, minute++)),
});
const wordings = (groups: Array<{ members: Array<{ question: string }> }>) =>
  groups.map((g) => g.members.map((m) => m.question).sort());

describe('normaliseQuestion', () => {
  it('drops case, punctuation, stop words and question framing', () => {
    expect(normaliseQuestion('Wie entlüfte ich den Heizkörper?')).toBe('entlüfte heizkörper');
    expect(normaliseQuestion('Heizkörper entlüften – wie geht das?')).toBe('heizkörper entlüften');
    expect(normaliseQuestion('Wo ist das?')).toBe('wo ist das');
  });
});

describe('groupQuestions', () => {
  it('groups two wordings of one question and keeps an unrelated one apart', async () => {
    const groups = await groupQuestions([
      asked('Wie entlüfte ich den Heizkörper?'),
      asked('Wann ist die Wartung der Heizung fällig?'),
      asked('Heizkörper entlüften – wie geht das?'),
    ]);
    expect(wordings(groups).sort()).toEqual([
      ['Heizkörper entlüften – wie geht das?', 'Wie entlüfte ich den Heizkörper?'],
      ['Wann ist die Wartung der Heizung fällig?'],
    ]);
    // The newest wording leads its group.
    const bleeding = groups.find((g) => g.members.length === 2)!;
    expect(bleeding.members[0]!.question).toBe('Heizkörper entlüften – wie geht das?');
  });

  it('keeps different questions about the same thing apart, and companies apart', async () => {
    const groups = await groupQuestions([
      asked('Wie entlüfte ich den Heizkörper?'),
      asked('Heizkörper wird nicht warm'),
      asked('Wie tausche ich den Heizkörper aus?'),
      asked('Wie entlüfte ich den Heizkörper?', 'company-b'),
    ]);
    expect(groups).toHaveLength(4);
  });

  it('sits the threshold between rewordings and merely related questions', async () => {
    const e = new BuiltinEmbedder(384);
    const similarity = async (a: string, b: string) => {
      const [x, y] = await e.embed([normaliseQuestion(a), normaliseQuestion(b)], 'query');
      return x!.reduce((s, v, i) => s + v * y![i]!, 0);
    };
    expect(
      await similarity('Wie entlüfte ich den Heizkörper?', 'Heizkörper entlüften – wie geht das?'),
    ).toBeGreaterThanOrEqual(SAME_QUESTION_SIMILARITY);
    expect(
      await similarity('Wo finde ich das WLAN-Passwort?', 'Wie lautet das Passwort für das WLAN?'),
    ).toBeGreaterThanOrEqual(SAME_QUESTION_SIMILARITY);
    expect(await similarity('Wie entlüfte ich den Heizkörper?', 'Heizkörper wird nicht warm')).toBeLessThan(
      SAME_QUESTION_SIMILARITY,
    );
    expect(
      await similarity('Wie entlüfte ich den Heizkörper?', 'Wie hoch ist der Urlaubsanspruch?'),
    ).toBeLessThan(SAME_QUESTION_SIMILARITY);
  });
});
