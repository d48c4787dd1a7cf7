import type { FeedbackReportItem } from '@werkwissen/shared';
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { notFound } from '../../core/app-error.ts';
import { companies, type FeedbackCitation, feedback, tags } from '../../db/schema/index.ts';
import { livePassageTexts } from '../search/passage-texts.ts';
import { type FeedbackFilter, feedbackWhere, type ReportScope } from './report-scope.ts';

// Qualified: inside a subquery an interpolated column would render unqualified.
const divisionNames = sql<string[]>`coalesce((select array_agg(d.name order by lower(d.name))
  from divisions d where d.id = any("feedback"."division_ids")), '{}'::text[])`;

export const reportColumns = {
  id: feedback.id,
  companyId: feedback.companyId,
  companyName: companies.name,
  origin: feedback.origin,
  givenBy: feedback.givenBy,
  chatId: feedback.chatId,
  chatName: feedback.chatName,
  divisions: divisionNames,
  question: feedback.question,
  answer: feedback.answer,
  noAnswer: feedback.noAnswer,
  liked: feedback.liked,
  mood: feedback.mood,
  rating: feedback.rating,
  comment: feedback.comment,
  tagId: feedback.tagId,
  tagName: tags.name,
  citations: feedback.citations,
  createdAt: feedback.createdAt,
  updatedAt: feedback.updatedAt,
};

export type ReportRow = Omit<
  FeedbackReportItem,
  'createdAt' | 'updatedAt' | 'citations' | 'companyName' | 'divisions'
> & {
  companyName: string | null;
  divisions: string[] | null;
  citations: FeedbackCitation[];
  createdAt: Date;
  updatedAt: Date;
};

const SORTABLE = {
  createdAt: feedback.createdAt,
  updatedAt: feedback.updatedAt,
  rating: feedback.rating,
  origin: feedback.origin,
  givenBy: feedback.givenBy,
  chatName: feedback.chatName,
  question: feedback.question,
  liked: feedback.liked,
  mood: feedback.mood,
};

/** The sort of the list: `createdAt`, `-rating`, ...; newest first unless told, unknown keys fall back to that. */
function orderOf(sort: string | undefined) {
  const key = sort?.replace(/^-/, '') as keyof typeof SORTABLE | undefined;
  const column = key ? SORTABLE[key] : undefined;
  if (!column) return desc(feedback.createdAt);
  return sort!.startsWith('-') ? desc(column) : asc(column);
}

export function presentReport(
  r: ReportRow,
  scope: ReportScope,
  passageTexts: Map<string, string> = new Map(),
): FeedbackReportItem {
  return {
    id: r.id,
    companyId: r.companyId,
    companyName: scope.crossCompany ? r.companyName : null,
    origin: r.origin,
    givenBy: r.givenBy,
    chatId: r.chatId,
    chatName: r.chatName,
    divisions: r.divisions ?? [],
    question: r.question,
    answer: r.answer,
    noAnswer: r.noAnswer,
    liked: r.liked,
    mood: r.mood,
    rating: r.rating,
    comment: r.comment,
    tagId: r.tagId,
    tagName: r.tagName,
    citations: (r.citations ?? []).map((c) => ({
      n: c.n,
      fileId: c.fileId ?? null,
      fileName: c.fileName,
      page: c.page ?? null,
      passageId: c.passageId ?? null,
      text: (c.passageId && passageTexts.get(c.passageId)) ?? null,
    })),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

function reportQuery(ctx: AppContext) {
  return ctx.db
    .select(reportColumns)
    .from(feedback)
    .innerJoin(companies, eq(companies.id, feedback.companyId))
    .leftJoin(tags, eq(tags.id, feedback.tagId));
}

/**
 * The live text of every passage the rows cite, read per company (an administrator's page mixes companies), so
 * that a citation shows no text only when its passage is really gone.
 */
async function citedTexts(ctx: AppContext, rows: ReportRow[]): Promise<Map<string, string>> {
  const byCompany = new Map<string, string[]>();
  for (const r of rows) {
    const ids = byCompany.get(r.companyId) ?? [];
    ids.push(...(r.citations ?? []).map((c) => c.passageId).filter((id): id is string => Boolean(id)));
    byCompany.set(r.companyId, ids);
  }
  const texts = new Map<string, string>();
  for (const [companyId, ids] of byCompany) {
    for (const [id, text] of await livePassageTexts(ctx.db, companyId, ids)) texts.set(id, text);
  }
  return texts;
}

/**
 * The feedback in scope, filtered, searched (question, answer, comment) and paged, its citations with the text of
 * the passages that still exist (the report's detail drawer shows them from the list).
 */
export async function listFeedbackReport(
  ctx: AppContext,
  scope: ReportScope,
  query: FeedbackFilter & { page: number; pageSize: number; sort?: string },
) {
  const where = feedbackWhere(scope, query);
  const [rows, [total]] = await Promise.all([
    reportQuery(ctx)
      .where(where)
      .orderBy(orderOf(query.sort), desc(feedback.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    ctx.db.select({ n: count() }).from(feedback).where(where),
  ]);
  const texts = await citedTexts(ctx, rows as ReportRow[]);
  return {
    items: (rows as ReportRow[]).map((r) => presentReport(r, scope, texts)),
    total: total?.n ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** One feedback in scope; its citations carry the passage text while the passage still exists (else null). */
export async function getFeedbackReport(
  ctx: AppContext,
  scope: ReportScope,
  feedbackId: string,
): Promise<FeedbackReportItem> {
  const [row] = (await reportQuery(ctx).where(
    and(eq(feedback.id, feedbackId), feedbackWhere(scope, {})),
  )) as ReportRow[];
  if (!row) throw notFound();
  return presentReport(row, scope, await citedTexts(ctx, [row]));
}

/** Every feedback in scope that matches the filter, newest first (for the CSV export). */
export async function allFeedbackReport(ctx: AppContext, scope: ReportScope, filter: FeedbackFilter) {
  const rows = (await reportQuery(ctx)
    .where(feedbackWhere(scope, filter))
    .orderBy(desc(feedback.createdAt), desc(feedback.id))) as ReportRow[];
  return rows.map((r) => ({ ...presentReport(r, scope), companyName: r.companyName }));
}
