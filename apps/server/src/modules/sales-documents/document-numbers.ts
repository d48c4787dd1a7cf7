import type { SalesDocumentType } from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { documentNumberSeries } from '../../db/schema/index.ts';

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
  const [row] = await tx
    .insert(documentNumberSeries)
    .values({ companyId, type, year, lastNumber: 1 })
    .onConflictDoUpdate({
      target: [documentNumberSeries.companyId, documentNumberSeries.type, documentNumberSeries.year],
      set: { lastNumber: sql`${documentNumberSeries.lastNumber} + 1` },
    })
    .returning({ lastNumber: documentNumberSeries.lastNumber });
  return `${PREFIX[type]}-${year}-${String(row!.lastNumber).padStart(4, '0')}`;
}
