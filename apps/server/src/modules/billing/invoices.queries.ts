import { and, count, desc, eq, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { companies, invoices } from '../../db/schema/index.ts';

/** An invoice as stored, with its company's name. */
export type InvoiceRow = typeof invoices.$inferSelect & { companyName: string | null };

const selection = (db: DbOrTx) =>
  db
    .select({ invoice: invoices, companyName: companies.name })
    .from(invoices)
    .innerJoin(companies, eq(companies.id, invoices.companyId));

/**
 * One page of the invoices `access` (a compiled Invoice rule) lets through, of one company if given, their number or
 * company name containing `q` (in any case), newest first.
 */
export async function invoicePage(
  db: DbOrTx,
  access: SQL | undefined,
  query: { page: number; pageSize: number; q?: string; companyId?: string },
): Promise<{ items: InvoiceRow[]; total: number }> {
  const search = query.q ? `%${query.q.toLowerCase()}%` : null;
  const where = and(
    access,
    query.companyId ? eq(invoices.companyId, query.companyId) : undefined,
    search
      ? or(
          sql`lower(coalesce(${invoices.number}, '')) like ${search}`,
          sql`lower(coalesce(${companies.name}, '')) like ${search}`,
        )
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    selection(db)
      .where(where)
      .orderBy(desc(invoices.issuedAt), desc(invoices.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db
      .select({ n: count() })
      .from(invoices)
      .innerJoin(companies, eq(companies.id, invoices.companyId))
      .where(where),
  ]);
  return {
    items: rows.map((r) => ({ ...r.invoice, companyName: r.companyName })),
    total: total?.n ?? 0,
  };
}

/** The invoice if `access` (a compiled Invoice rule) lets it through. */
export async function invoiceById(
  db: DbOrTx,
  invoiceId: string,
  access: SQL | undefined,
): Promise<InvoiceRow | undefined> {
  const [row] = await selection(db).where(and(eq(invoices.id, invoiceId), access));
  return row && { ...row.invoice, companyName: row.companyName };
}
