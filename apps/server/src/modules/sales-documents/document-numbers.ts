import type { SalesDocumentType } from '@werkwissen/shared';
import type { DbOrTx } from '../../db/database.ts';
import { takeSeriesNumber } from './sales-documents.queries.ts';

/** Each type's number prefix, as German craft businesses write them (Angebot, Auftragsbestätigung, Rechnung, Gutschrift). */
const PREFIX: Record<SalesDocumentType, string> = {
  offer: 'AN',
  order: 'AB',
  invoice: 'RE',
  creditNote: 'GS',
};

/**
 * The next number of the company's series for this type and year ("RE-2026-0007"). Call it inside the transaction
 * that issues the document: the series row stays locked until that transaction ends, so a concurrent finalisation
 * waits and takes the following number, and a rollback gives the number back (no gaps, no repeats).
 */
export async function nextDocumentNumber(
  tx: DbOrTx,
  companyId: string,
  type: SalesDocumentType,
  year: number,
): Promise<string> {
  const taken = await takeSeriesNumber(tx, companyId, type, year);
  return `${PREFIX[type]}-${year}-${String(taken).padStart(4, '0')}`;
}
