import type { FeedbackReportItem } from '@werkwissen/shared';
import type { AppContext } from '../../app-context.ts';
import { notFound } from '../../core/app-error.ts';
import { livePassageTexts } from '../search/passage-texts.ts';
import {
  allFeedbackReportRows,
  feedbackReportById,
  feedbackReportPage,
  type ReportRow,
} from './feedback-report.queries.ts';
import type { FeedbackFilter, ReportScope } from './report-scope.ts';

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
  const { items, total } = await feedbackReportPage(ctx.db, scope, query);
  const texts = await citedTexts(ctx, items);
  return {
    items: items.map((r) => presentReport(r, scope, texts)),
    total,
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
  const row = await feedbackReportById(ctx.db, scope, feedbackId);
  if (!row) throw notFound();
  return presentReport(row, scope, await citedTexts(ctx, [row]));
}

/** Every feedback in scope that matches the filter, newest first (for the CSV export). */
export async function allFeedbackReport(ctx: AppContext, scope: ReportScope, filter: FeedbackFilter) {
  const rows = await allFeedbackReportRows(ctx.db, scope, filter);
  return rows.map((r) => ({ ...presentReport(r, scope), companyName: r.companyName }));
}
