import type { Feedback, FeedbackBody, FeedbackOrigin, Language, UserKind } from '@werkwissen/shared';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { feedbackAccess } from '../../access/feedback.access.ts';
import { tagAccess } from '../../access/tag.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { isForeignKeyViolation } from '../../db/constraint-violation.ts';
import type { DbOrTx } from '../../db/database.ts';
import { type FeedbackCitation, feedback, type StoredCitation, tags } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';

/**
 * Who gives feedback: a signed-in user on an answer of their own thread (as far as their Feedback rules allow), or
 * a public chat's visitor on theirs.
 */
export type FeedbackGiver = { actor: Actor } | { visitorId: string };

interface AnswerRow extends Record<string, unknown> {
  id: string;
  company_id: string;
  chat_id: string;
  chat_name: string;
  content: string;
  no_answer: boolean;
  citations: StoredCitation[] | null;
  question: string | null;
  division_ids: string[] | null;
  user_id: string | null;
  visitor_id: string | null;
  user_kind: UserKind | null;
  first_name: string | null;
  last_name: string | null;
  visitor_name: string | null;
  visitor_phone: string | null;
  visitor_email: string | null;
}

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
export function originOf(row: { visitor_id: string | null; user_kind: UserKind | null }): FeedbackOrigin {
  if (row.visitor_id) return 'public';
  return row.user_kind === 'Employee' ? 'employee' : 'dataManager';
}

/** The name a report shows for whoever gave the feedback: a user's full name, else a visitor's name or contact. */
export function giverName(row: AnswerRow): string {
  const full = [row.first_name, row.last_name]
    .map((s) => s?.trim())
    .filter(Boolean)
    .join(' ');
  if (full) return full;
  for (const value of [row.visitor_name, row.visitor_phone, row.visitor_email]) {
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
  const own =
    'actor' in giver ? sql`t.user_id = ${giver.actor.userId}` : sql`t.visitor_id = ${giver.visitorId}`;
  const { rows } = await ctx.db.execute<AnswerRow>(sql`
    select a.id, a.company_id, a.chat_id, c.name as chat_name, a.content, a.no_answer, a.citations,
      q.content as question,
      array(select cd.division_id from chat_divisions cd where cd.chat_id = a.chat_id order by cd.division_id)
        as division_ids,
      t.user_id, t.visitor_id, u.kind as user_kind, u.first_name, u.last_name,
      v.name as visitor_name, v.phone as visitor_phone, v.email as visitor_email
    from chat_messages a
    join chat_threads t on t.id = a.thread_id
    join chats c on c.id = a.chat_id
    left join chat_messages q on q.id = a.question_id
    left join users u on u.id = t.user_id
    left join chat_visitors v on v.id = t.visitor_id
    where a.id = ${messageId} and a.role = 'assistant' and a.status <> 'streaming' and ${own}`);
  const answer = rows[0];
  if (!answer) throw notFound();
  const origin = originOf(answer);
  if ('actor' in giver)
    feedbackAccess.assertCan(giver.actor, 'create', { companyId: answer.company_id, origin });

  const fields = changedFields(body);
  if (fields.tagId) {
    // One of the answer's company's tags, and one the giver may read.
    const [tag] = await ctx.db
      .select({ id: tags.id })
      .from(tags)
      .where(
        and(
          eq(tags.id, fields.tagId),
          eq(tags.companyId, answer.company_id),
          'actor' in giver ? tagAccess.where(giver.actor, 'read') : undefined,
        ),
      );
    if (!tag) throw unknownTag(language);
  }

  try {
    await ctx.db
      .insert(feedback)
      .values({
        companyId: answer.company_id,
        messageId: answer.id,
        chatId: answer.chat_id,
        chatName: answer.chat_name,
        divisionIds: answer.division_ids ?? [],
        userId: answer.user_id,
        visitorId: answer.visitor_id,
        origin,
        givenBy: giverName(answer),
        question: answer.question ?? '',
        answer: answer.content,
        noAnswer: answer.no_answer,
        citations: (answer.citations ?? []).map(keptCitation),
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
