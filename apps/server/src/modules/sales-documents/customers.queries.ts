import { and, asc, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { customers } from '../../db/schema/index.ts';

/** A customer as stored, with the number of documents made out to them. */
export type CustomerRecord = typeof customers.$inferSelect & { documentCount: number };

/** The fields a customer is created or changed with. */
export type CustomerValues = Omit<
  typeof customers.$inferInsert,
  'id' | 'companyId' | 'createdAt' | 'updatedAt'
>;

// Qualified: inside a subquery an interpolated column would render unqualified.
const documentCount =
  sql<number>`(select count(*) from sales_documents d where d.customer_id = "customers"."id")`.mapWith(
    Number,
  );

const record = (r: { row: typeof customers.$inferSelect; documentCount: number }): CustomerRecord => ({
  ...r.row,
  documentCount: r.documentCount,
});

/**
 * A page of the customers `access` (a compiled Customer rule) lets through, by name, and how many there are;
 * `pattern` (an ILIKE pattern) matches name, city or e-mail.
 */
export async function customerPage(
  db: DbOrTx,
  access: SQL,
  filter: { pattern: string | undefined; page: number; pageSize: number },
): Promise<{ items: CustomerRecord[]; total: number }> {
  const { pattern } = filter;
  const where = and(
    access,
    pattern
      ? or(ilike(customers.name, pattern), ilike(customers.city, pattern), ilike(customers.email, pattern))
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ row: customers, documentCount })
      .from(customers)
      .where(where)
      .orderBy(asc(sql`lower(${customers.name})`), asc(customers.id))
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize),
    db.select({ n: count() }).from(customers).where(where),
  ]);
  return { items: rows.map(record), total: total?.n ?? 0 };
}

/** The customer if `access` lets it through. */
export async function customerById(
  db: DbOrTx,
  customerId: string,
  access: SQL,
): Promise<CustomerRecord | undefined> {
  const [r] = await db
    .select({ row: customers, documentCount })
    .from(customers)
    .where(and(eq(customers.id, customerId), access));
  return r && record(r);
}

/** Whether `access` lets the customer through. */
export async function customerVisible(db: DbOrTx, customerId: string, access: SQL): Promise<boolean> {
  const [row] = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.id, customerId), access));
  return row !== undefined;
}

/** Stores a new customer of the company (no documents yet). */
export async function insertCustomer(
  db: DbOrTx,
  companyId: string,
  values: CustomerValues,
): Promise<CustomerRecord> {
  const [row] = await db
    .insert(customers)
    .values({ companyId, ...values })
    .returning();
  return { ...row!, documentCount: 0 };
}

/** Changes the customer if `access` lets it through. */
export async function updateCustomerRow(
  db: DbOrTx,
  customerId: string,
  access: SQL,
  values: CustomerValues,
): Promise<void> {
  await db
    .update(customers)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(customers.id, customerId), access));
}

/** Deletes the customer if `access` lets it through (a foreign-key violation while documents name them). */
export async function deleteCustomerRow(db: DbOrTx, customerId: string, access: SQL): Promise<void> {
  await db.delete(customers).where(and(eq(customers.id, customerId), access));
}
