import type { draftOfferBodySchema, SalesDocument } from '@werkwissen/shared';
import type { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../http/app-error.ts';
import type { Actor } from '../auth/actor.ts';
import { getCompanyDetails } from '../company/company-details.service.ts';
import { searchPassages } from '../search/hybrid-search.ts';
import { scopeOf } from '../search/search-scope.ts';
import { matchesJob, pricedRows, quantityFor } from './price-lines.ts';
import { createSalesDocument } from './sales-documents.service.ts';

type Body = z.output<typeof draftOfferBodySchema>;

/** Passages read for one job description; price lists are short rows, so a generous number. */
const PASSAGES = 12;
/** Lines a drafted offer starts with at most. */
const MAX_LINES = 20;

/**
 * Drafts an offer from a description of the job: the company's hybrid search finds the passages of its files that
 * name the job's items, the priced rows of those passages that share a word with the job become the lines (at the
 * company's standard tax rate, with the job's quantities where it names them), and each line cites its passage.
 * Nothing is sent: the draft is the user's to edit. No priced row found: NO_PRICED_ITEMS_FOUND.
 */
export async function draftOffer(ctx: AppContext, actor: Actor, body: Body): Promise<SalesDocument> {
  const scope = await scopeOf(ctx, actor);
  const [hits, company] = await Promise.all([
    searchPassages(ctx.db, ctx.embedder, scope, body.description, {
      limit: PASSAGES,
      mode: 'hybrid',
      exactScanMax: ctx.config.VECTOR_EXACT_SCAN_MAX,
    }),
    getCompanyDetails(ctx, actor),
  ]);
  const seen = new Set<string>();
  const lines = hits.flatMap((hit) =>
    pricedRows(hit.text)
      .filter((row) => matchesJob(row, body.description))
      .filter((row) => !seen.has(row.item.toLowerCase()) && seen.add(row.item.toLowerCase()))
      .map((row) => ({
        description: row.item,
        quantity: quantityFor(row.unit, body.description),
        unit: row.unit,
        unitPriceCents: row.unitPriceCents,
        discountPercent: 0,
        taxRate: company.standardTaxRate,
        source: { fileId: hit.fileId, fileName: hit.fileName, passageId: hit.passageId, excerpt: row.row },
      })),
  );
  if (lines.length === 0) throw new AppError('NO_PRICED_ITEMS_FOUND');
  return createSalesDocument(ctx, actor, {
    type: 'offer',
    customerId: body.customerId,
    language: body.language,
    issueDate: null,
    dueDate: null,
    title: body.description.split(/\r?\n/)[0]!.slice(0, 200),
    notes: '',
    lines: lines.slice(0, MAX_LINES),
  });
}
