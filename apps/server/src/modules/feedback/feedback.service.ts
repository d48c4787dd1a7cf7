import type { Feedback, FeedbackBody, FeedbackOrigin, Language } from '@werkwissen/shared';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { feedbackAccess } from '../../access/feedback.access.ts';
import { tagAccess } from '../../access/tag.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { isForeignKeyViolation } from '../../db/constraint-violation.ts';
import type { DbOrTx } from '../../db/database.ts';
import { type FeedbackCitation, feedback, type StoredCitation, tags } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';
import { answerToRate, type RatedAnswer } from './feedback.queries.ts';

/**
 * Who gives feedback: a signed-in user on an answer of their own thread (as far as their Feedback rules allow), or
 * a public chat's visitor on theirs.
 */
export type FeedbackGiver = { actor: Actor } | { visitorId: string };

const feedbackColumns = {
  id: feedback.id,
  messageId: feedback.messageId,
  liked: feedback.liked,
  mood: feedback.mood,
  rating: feedback.rating,
  comment: feedback.comment,
  tagId: feedback.tagId,
  tagName: tags.name,
  updatedAt: feedback.updatedAt,
};

type FeedbackRow = {
  id: string;
  messageId: string | null;
  liked: boolean | null;
  mood: Feedback['mood'];
  rating: number | null;
  comment: string | null;
  tagId: string | null;
  tagName: string | null;
  updatedAt: Date;
};

const present = (r: FeedbackRow, messageId: string): Feedback => ({
  id: r.id,
  messageId: r.messageId ?? messageId,
  liked: r.liked,
  mood: r.mood,
  rating: r.rating,
  comment: r.comment,
  tagId: r.tagId,
  tagName: r.tagName,
  updatedAt: r.updatedAt.toISOString(),
});

/** Where the question came from, as the reports group it. */
export function originOf(row: Pick<RatedAnswer, 'visitorId' | 'userKind'>): FeedbackOrigin {
  if (row.visitorId) return 'public';
  return row.userKind === 'Employee' ? 'employee' : 'dataManager';
}

/** The name a report shows for whoever gave the feedback: a user's full name, else a visitor's name or contact. */
export function giverName(row: RatedAnswer): string {
  const full = [row.firstName, row.lastName]
    .map((s) => s?.trim())
    .filter(Boolean)
    .join(' ');
  if (full) return full;
  for (const value of [row.visitorName, row.visitorPhone, row.visitorEmail]) {
    if (value?.trim()) return value.trim();
  }
  return '—';
}

/** What feedback keeps of a citation: file name and page, never the passage text (that stays in the knowledge). */
const keptCitation = (c: StoredCitation): FeedbackCitation => ({
  n: c.n,
  fileId: c.fileId ?? null,
  fileName: c.fileName,
  page: c.page ?? null,
  passageId: c.passageId ?? null,
});

/** The fields the body names; an empty comment is no comment. */
function changedFields(body: FeedbackBody) {
  const fields: Partial<
    Pick<typeof feedback.$inferInsert, 'liked' | 'mood' | 'rating' | 'comment' | 'tagId'>
  > = {};
  if (body.liked !== undefined) fields.liked = body.liked;
  if (body.mood !== undefined) fields.mood = body.mood;
  if (body.rating !== undefined) fields.rating = body.rating;
  if (body.comment !== undefined) fields.comment = body.comment === '' ? null : body.comment;
  if (body.tagId !== undefined) fields.tagId = body.tagId;
  return fields;
}

function unknownTag(language: Language): AppError {
  return new AppError('VALIDATION_FAILED', {
    in: 'body',
    fields: [
      { field: 'tagId', code: 'validation.invalid', message: translate(language, 'validation.invalid') },
    ],
  });
}

/**
 * Likes, rates, tags or comments one answer; one feedback per answer. The answer must be an assistant message of the
 * giver's own thread (a user's, or a visitor's of a public chat), else it is not found, whatever company it is in.
 * The first save copies the question, the answer, what it cited (file name and page only), the chat's name and
 * divisions, and who asked, so that the reports outlive the chat; later saves change only the fields the body names
 * (`null` clears one). A `tagId` that is not one of the company's tags is refused as VALIDATION_FAILED on `tagId`.
 * An answer still being written is not found yet.
 */
export async function saveFeedback(
  ctx: AppContext,
  giver: FeedbackGiver,
  messageId: string,
  body: FeedbackBody,
  language: Language,
): Promise<Feedback> {
  const asker = 'actor' in giver ? { userId: giver.actor.userId } : { visitorId: giver.visitorId };
  const answer = await answerToRate(ctx.db, messageId, asker);
  if (!answer) throw notFound();
  const origin = originOf(answer);
  if ('actor' in giver)
    feedbackAccess.assertCan(giver.actor, 'create', { companyId: answer.companyId, origin });

  const fields = changedFields(body);
  if (fields.tagId) {
    // One of the answer's company's tags, and one the giver may read.
    const [tag] = await ctx.db
      .select({ id: tags.id })
      .from(tags)
      .where(
        and(
          eq(tags.id, fields.tagId),
          eq(tags.companyId, answer.companyId),
          'actor' in giver ? tagAccess.where(giver.actor, 'read') : undefined,
        ),
      );
    if (!tag) throw unknownTag(language);
  }

  try {
    await ctx.db
      .insert(feedback)
      .values({
        companyId: answer.companyId,
        messageId: answer.id,
        chatId: answer.chatId,
        chatName: answer.chatName,
        divisionIds: answer.divisionIds,
        userId: answer.userId,
        visitorId: answer.visitorId,
        origin,
        givenBy: giverName(answer),
        question: answer.question ?? '',
        answer: answer.content,
        noAnswer: answer.noAnswer,
        citations: answer.citations.map(keptCitation),
        ...fields,
      })
      .onConflictDoUpdate({ target: feedback.messageId, set: { ...fields, updatedAt: new Date() } });
  } catch (error) {
    // The tag was deleted between the check and the write.
    if (isForeignKeyViolation(error)) throw unknownTag(language);
    throw error;
  }
  const saved = await feedbackForMessages(ctx.db, [answer.id]);
  return saved.get(answer.id)!;
}

/** The feedback given on these answers, by answer id (for the chat's message list). */
export async function feedbackForMessages(db: DbOrTx, messageIds: string[]): Promise<Map<string, Feedback>> {
  if (messageIds.length === 0) return new Map();
  const rows = await db
    .select(feedbackColumns)
    .from(feedback)
    .leftJoin(tags, eq(tags.id, feedback.tagId))
    .where(and(inArray(feedback.messageId, messageIds), isNotNull(feedback.messageId)));
  return new Map(rows.map((r) => [r.messageId!, present(r as FeedbackRow, r.messageId!)]));
}
