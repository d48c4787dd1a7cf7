import type { KnowledgeGap, ReportFilter } from '@werkwissen/shared';
import { inArray } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { companies, divisions } from '../../db/schema/index.ts';
import { BuiltinEmbedder, tokenize } from '../embedding/builtin-embedder.ts';
import { STOPWORDS } from '../embedding/stopwords.ts';
import { gapFeedback } from './feedback-report.queries.ts';
import { dayAfter, dayStart, type ReportScope } from './report-scope.ts';
import { unansweredQuestions } from './reported-questions.queries.ts';

export type GapFilter = Pick<Partial<ReportFilter>, 'from' | 'to' | 'divisionId' | 'origin'>;

/** One question that went unanswered or drew negative feedback. */
export interface GapQuestion {
  companyId: string;
  question: string;
  askedAt: Date;
  noAnswer: boolean;
  negative: boolean;
  divisionIds: string[];
}

/**
 * Two questions ask the same thing when the cosine of their builtin-embedder vectors (of the normalised wording)
 * reaches this. Measured on German and English questions: rewordings of one question ("Wie entlüfte ich den
 * Heizkörper?" / "Heizkörper entlüften – wie geht das?" 0.75, "Wie lautet das Passwort für das WLAN?" / "Wo finde
 * ich das WLAN-Passwort?" 0.63, "Wie lange ist die Garantie auf die Wärmepumpe?" / "…dauert die Garantie für die
 * Wärmepumpe" 0.75) score 0.63 and up; different questions about the same thing ("Heizkörper wird nicht warm" /
 * "Wie tausche ich den Heizkörper aus?" against the bleeding ones) 0.42-0.45, unrelated ones at most 0.27. 0.55 sits
 * between the two bands with room on both sides.
 */
export const SAME_QUESTION_SIMILARITY = 0.55;

/** At most this many of the newest unanswered or disliked questions are grouped (bounds the work per request). */
const MAX_QUESTIONS = 2000;

/** Words that frame a question rather than say what it asks, beyond the embedder's stop words. */
const QUESTION_WORDS = new Set(
  'geht gehe man bitte eigentlich mal genau funktioniert kann können muss müssen soll sollte gibt finde finden lautet heißt please way get'.split(
    ' ',
  ),
);

/** The wording reduced to what it asks: lower case, no punctuation, no stop words or question framing. */
export function normaliseQuestion(question: string): string {
  const words = tokenize(question).filter((w) => !STOPWORDS.has(w) && !QUESTION_WORDS.has(w));
  return words.length > 0 ? words.join(' ') : tokenize(question).join(' ');
}

const cosine = (a: number[], b: number[]) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

export interface QuestionGroup<T> {
  members: T[];
}

/**
 * Groups questions that ask the same thing, greedily: newest first, each joins the group whose first (newest)
 * question is most similar, if that reaches SAME_QUESTION_SIMILARITY, else starts a group. Questions of different
 * companies never meet. The vectors are the builtin embedder's (deterministic, no model, no network).
 */
export async function groupQuestions<T extends { companyId: string; question: string; askedAt: Date }>(
  questions: T[],
): Promise<Array<QuestionGroup<T>>> {
  const sorted = [...questions].sort((a, b) => b.askedAt.getTime() - a.askedAt.getTime());
  const vectors = await new BuiltinEmbedder(384).embed(
    sorted.map((q) => normaliseQuestion(q.question)),
    'query',
  );
  const groups: Array<QuestionGroup<T> & { companyId: string; vector: number[] }> = [];
  sorted.forEach((q, i) => {
    const vector = vectors[i]!;
    let best: (typeof groups)[number] | undefined;
    let bestScore = SAME_QUESTION_SIMILARITY;
    for (const group of groups) {
      if (group.companyId !== q.companyId) continue;
      const score = cosine(vector, group.vector);
      if (score >= bestScore) {
        best = group;
        bestScore = score;
      }
    }
    if (best) best.members.push(q);
    else groups.push({ companyId: q.companyId, vector, members: [q] });
  });
  return groups.map(({ members }) => ({ members }));
}

/** The questions in scope whose answer found no relevant passage or whose feedback was negative. */
async function gapQuestions(ctx: AppContext, scope: ReportScope, filter: GapFilter): Promise<GapQuestion[]> {
  const period = {
    from: filter.from ? dayStart(filter.from) : undefined,
    until: filter.to ? dayAfter(filter.to) : undefined,
  };
  const [unanswered, disliked] = await Promise.all([
    unansweredQuestions(ctx.db, scope, filter, period, MAX_QUESTIONS),
    gapFeedback(ctx.db, scope, filter, MAX_QUESTIONS),
  ]);
  const byAnswer = new Map<string, GapQuestion>();
  for (const { answerId, ...question } of unanswered) {
    byAnswer.set(answerId, { ...question, noAnswer: true, negative: false });
  }
  for (const f of disliked) {
    const known = f.messageId ? byAnswer.get(f.messageId) : undefined;
    if (known) {
      known.negative ||= f.negative;
      continue;
    }
    byAnswer.set(f.messageId ?? `feedback:${f.id}`, {
      companyId: f.companyId,
      question: f.question,
      askedAt: f.askedAt,
      noAnswer: f.noAnswer,
      negative: f.negative,
      divisionIds: f.divisionIds,
    });
  }
  return [...byAnswer.values()].filter((q) => q.question.trim() !== '');
}

/**
 * The knowledge gaps in scope: questions whose answer found no relevant passage (`no_answer`) or whose feedback was
 * negative (a dislike, the negative mood, or a rating of 2 or less), grouped when they ask the same thing (see
 * groupQuestions), most asked first, then most recently asked. Each group shows its newest wording and up to five
 * other wordings.
 */
export async function knowledgeGaps(
  ctx: AppContext,
  scope: ReportScope,
  filter: GapFilter,
  limit = 50,
): Promise<KnowledgeGap[]> {
  const questions = await gapQuestions(ctx, scope, filter);
  if (questions.length === 0) return [];
  const groups = (await groupQuestions(questions))
    .sort(
      (a, b) =>
        b.members.length - a.members.length ||
        b.members[0]!.askedAt.getTime() - a.members[0]!.askedAt.getTime(),
    )
    .slice(0, limit);

  const divisionIds = [...new Set(groups.flatMap((g) => g.members.flatMap((m) => m.divisionIds)))];
  const companyIds = [...new Set(groups.map((g) => g.members[0]!.companyId))];
  const [divisionRows, companyRows] = await Promise.all([
    divisionIds.length > 0
      ? ctx.db
          .select({ id: divisions.id, name: divisions.name })
          .from(divisions)
          .where(inArray(divisions.id, divisionIds))
      : [],
    scope.crossCompany
      ? ctx.db
          .select({ id: companies.id, name: companies.name })
          .from(companies)
          .where(inArray(companies.id, companyIds))
      : [],
  ]);
  const divisionName = new Map(divisionRows.map((d) => [d.id, d.name]));
  const companyName = new Map(companyRows.map((c) => [c.id, c.name]));

  return groups.map(({ members }) => {
    const [newest] = members as [GapQuestion, ...GapQuestion[]];
    const question = newest.question.trim();
    const seen = new Set([normaliseQuestion(question)]);
    const variants: string[] = [];
    for (const m of members) {
      const wording = m.question.trim();
      const key = normaliseQuestion(wording);
      if (seen.has(key)) continue;
      seen.add(key);
      variants.push(wording);
      if (variants.length === 5) break;
    }
    const names = [...new Set(members.flatMap((m) => m.divisionIds))]
      .map((id) => divisionName.get(id))
      .filter((name): name is string => name !== undefined)
      .sort((a, b) => a.localeCompare(b));
    return {
      question,
      variants,
      count: members.length,
      noAnswerCount: members.filter((m) => m.noAnswer).length,
      negativeCount: members.filter((m) => m.negative).length,
      divisions: names,
      lastAskedAt: newest.askedAt.toISOString(),
      companyName: scope.crossCompany ? (companyName.get(newest.companyId) ?? null) : null,
    };
  });
}
