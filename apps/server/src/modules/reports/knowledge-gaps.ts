import type { KnowledgeGap, ReportFilter } from '@werkwissen/shared';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AppContext } from '../../app-context.ts';
import { chatMessages, companies, divisions, feedback } from '../../db/schema/index.ts';
import { BuiltinEmbedder, tokenize } from '../embedding/builtin-embedder.ts';
import { STOPWORDS } from '../embedding/stopwords.ts';
import { dayAfter, dayStart, feedbackWhere, messageScope, type ReportScope } from './report-scope.ts';

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

const ratedAnswer = alias(chatMessages, 'rated_answer');
const askedQuestion = alias(chatMessages, 'asked_question');

/** The questions in scope whose answer found no relevant passage or whose feedback was negative. */
async function gapQuestions(ctx: AppContext, scope: ReportScope, filter: GapFilter): Promise<GapQuestion[]> {
  const period = [
    filter.from ? sql`q.created_at >= ${dayStart(filter.from).toISOString()}::timestamptz` : sql`true`,
    filter.to ? sql`q.created_at < ${dayAfter(filter.to).toISOString()}::timestamptz` : sql`true`,
  ];
  const negative = sql<boolean>`coalesce(${feedback.liked} = false or ${feedback.mood} = 'negative'
    or ${feedback.rating} <= 2, false)`;
  const [unanswered, disliked] = await Promise.all([
    ctx.db.execute<{
      message_id: string;
      company_id: string;
      question: string;
      asked_at: string | Date;
      division_ids: string[] | null;
    }>(sql`
      select m.id as message_id, m.company_id, q.content as question, q.created_at as asked_at,
        array(select cd.division_id from chat_divisions cd where cd.chat_id = m.chat_id) as division_ids
      from chat_messages m
      join chat_messages q on q.id = m.question_id
      join chat_threads t on t.id = m.thread_id
      left join users u on u.id = t.user_id
      where m.role = 'assistant' and m.no_answer and ${messageScope(scope, filter)} and ${sql.join(period, sql` and `)}
      order by q.created_at desc
      limit ${MAX_QUESTIONS}`),
    ctx.db
      .select({
        id: feedback.id,
        messageId: feedback.messageId,
        companyId: feedback.companyId,
        question: feedback.question,
        // When the question was asked, while the chat still holds it; else when the feedback was given.
        askedAt: sql<Date>`coalesce(${askedQuestion.createdAt}, ${feedback.createdAt})`.mapWith(
          (v) => new Date(v),
        ),
        noAnswer: feedback.noAnswer,
        negative,
        divisionIds: feedback.divisionIds,
      })
      .from(feedback)
      .leftJoin(ratedAnswer, eq(ratedAnswer.id, feedback.messageId))
      .leftJoin(askedQuestion, eq(askedQuestion.id, ratedAnswer.questionId))
      .where(
        and(
          feedbackWhere(scope, filter),
          sql`(${negative} or ${feedback.noAnswer})`,
          sql`${feedback.question} <> ''`,
        ),
      )
      .orderBy(desc(feedback.createdAt))
      .limit(MAX_QUESTIONS),
  ]);
  const byAnswer = new Map<string, GapQuestion>();
  for (const r of unanswered.rows) {
    byAnswer.set(r.message_id, {
      companyId: r.company_id,
      question: r.question,
      askedAt: new Date(r.asked_at),
      noAnswer: true,
      negative: false,
      divisionIds: r.division_ids ?? [],
    });
  }
  for (const f of disliked) {
    const known = f.messageId ? byAnswer.get(f.messageId) : undefined;
    if (known) {
      known.negative ||= Boolean(f.negative);
      continue;
    }
    byAnswer.set(f.messageId ?? `feedback:${f.id}`, {
      companyId: f.companyId,
      question: f.question,
      askedAt: f.askedAt,
      noAnswer: f.noAnswer,
      negative: Boolean(f.negative),
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
