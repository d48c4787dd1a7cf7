import type { draftOfferBodySchema, SalesDocument } from '@werkwissen/shared';
import type { z } from 'zod';
import { homeCompany } from '../../access/resource-access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { companyModelConnection } from '../ai-providers/ai-providers.service.ts';
import { getCompanyDetails } from '../company/company-details.service.ts';
import { searchPassages } from '../search/hybrid-search.ts';
import { translateQuestion, translationDeps } from '../search/query-translation/translate-question.ts';
import type { QueryTranslation } from '../search/query-translation/translation.ts';
import { scopeOf } from '../search/search-scope.ts';
import { askedItems } from './asked-items.ts';
import { alternativesOf, matchItem } from './item-matching.ts';
import { type Candidate, type ChosenLine, structureWithModel } from './offer-structuring.ts';
import { pricedRows } from './price-lines.ts';
import { createSalesDocument } from './sales-documents.service.ts';

type Body = z.output<typeof draftOfferBodySchema>;

/** Passages read for one job description; price lists are short rows, so a generous number. */
const PASSAGES = 12;
/** Lines a drafted offer starts with at most. */
const MAX_LINES = 20;

/** Every priced row of the passages found, once per item, with its passage. */
function candidatesOf(hits: Awaited<ReturnType<typeof searchPassages>>): Candidate[] {
  const seen = new Set<string>();
  return hits.flatMap((hit) =>
    pricedRows(hit.text)
      .filter((row) => !seen.has(row.item.toLowerCase()) && seen.add(row.item.toLowerCase()))
      .map((row) => ({ row, fileId: hit.fileId, fileName: hit.fileName, passageId: hit.passageId })),
  );
}

/**
 * Without a model: each item the job asks for (`asked-items.ts`) takes the row that names it (`item-matching.ts`) at
 * the quantity the job states, 1 where it states none; a row two items name is taken once.
 */
function readByHand(candidates: Candidate[], job: string, translations: QueryTranslation[]): ChosenLine[] {
  const alternatives = alternativesOf(translations);
  const known = new Set(candidates.flatMap((c) => c.row.item.toLowerCase().match(/\p{L}+/gu) ?? []));
  const taken = new Set<Candidate>();
  return askedItems(job).flatMap((item) => {
    const match = matchItem(item, candidates, alternatives, known);
    if (!match || taken.has(match.candidate)) return [];
    taken.add(match.candidate);
    return [{ candidate: match.candidate, quantity: item.quantity ?? 1 }];
  });
}

/**
 * Drafts an offer from a description of the job: the company's hybrid search finds the passages of its files that
 * name the job's items, and their priced rows are the candidates. With a model configured (the company's default
 * provider) the model chooses the rows the job needs and their quantities (`offer-structuring.ts`); without one, or
 * when it fails, each item the job asks for takes the row that names it, at the quantity the job states. A job in
 * another language than the files is translated into theirs (the model, else the installed dictionaries) for both. Item, unit and price
 * are always the row's own, at the company's standard tax rate, and each line cites its passage. Nothing is sent: the
 * draft is the user's to edit. No priced row chosen: NO_PRICED_ITEMS_FOUND.
 */
export async function draftOffer(ctx: AppContext, actor: Actor, body: Body): Promise<SalesDocument> {
  const scope = await scopeOf(ctx, actor);
  const [company, connection] = await Promise.all([
    getCompanyDetails(ctx, actor),
    companyModelConnection(ctx, homeCompany(actor)),
  ]);
  // A job written in another language than the price lists is searched, and read, in theirs too.
  const translations = await translateQuestion(translationDeps(ctx, connection), scope, body.description);
  const hits = await searchPassages(ctx.db, ctx.embedder, scope, body.description, {
    limit: PASSAGES,
    mode: 'hybrid',
    exactScanMax: ctx.config.VECTOR_EXACT_SCAN_MAX,
    translations,
  });
  const candidates = candidatesOf(hits);
  const chosen =
    (connection && candidates.length > 0
      ? await structureWithModel(ctx, connection, body.description, candidates)
      : null) ?? readByHand(candidates, body.description, translations);
  if (chosen.length === 0) throw new AppError('NO_PRICED_ITEMS_FOUND');
  return createSalesDocument(ctx, actor, {
    type: 'offer',
    customerId: body.customerId,
    language: body.language,
    issueDate: null,
    dueDate: null,
    serviceDate: null,
    serviceEndDate: null,
    validUntil: null,
    taxTreatment: 'standard',
    propertyService: true,
    cashDiscount: null,
    title: body.description.split(/\r?\n/)[0]!.slice(0, 200),
    notes: '',
    lines: chosen.slice(0, MAX_LINES).map(({ candidate: c, quantity }) => ({
      description: c.row.item,
      quantity,
      unit: c.row.unit,
      unitPriceCents: c.row.unitPriceCents,
      discountPercent: 0,
      taxRate: company.standardTaxRate,
      source: { fileId: c.fileId, fileName: c.fileName, passageId: c.passageId, excerpt: c.row.row },
    })),
  });
}
