import type { Customer, customerBodySchema, listQuerySchema } from '@werkwissen/shared';
import { and, asc, count, eq, ilike, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { customerAccess } from '../../access/customer.access.ts';
import { homeCompany } from '../../access/resource-access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { isForeignKeyViolation } from '../../db/constraint-violation.ts';
import { containsPattern } from '../../db/like.ts';
import { customers } from '../../db/schema/index.ts';

type Body = z.output<typeof customerBodySchema>;
type Query = z.output<typeof listQuerySchema>;

// Qualified: inside a subquery an interpolated column would render unqualified.
const documentCount =
  sql<number>`(select count(*) from sales_documents d where d.customer_id = "customers"."id")`.mapWith(
    Number,
  );

const present = (r: typeof customers.$inferSelect & { documentCount: number }): Customer => ({
  id: r.id,
  name: r.name,
  street: r.street,
  postalCode: r.postalCode,
  city: r.city,
  country: r.country,
  email: r.email,
  phone: r.phone,
  vatId: r.vatId,
  buyerReference: r.buyerReference,
  kind: r.kind,
  documentCount: r.documentCount,
  createdAt: r.createdAt.toISOString(),
});

/** The company's customers the actor may read, by name; `q` searches name, city and e-mail. */
export async function listCustomers(ctx: AppContext, actor: Actor, query: Query) {
  const like = query.q ? containsPattern(query.q) : undefined;
  const where = and(
    customerAccess.where(actor, 'read'),
    like
      ? or(ilike(customers.name, like), ilike(customers.city, like), ilike(customers.email, like))
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({ row: customers, documentCount })
      .from(customers)
      .where(where)
      .orderBy(asc(sql`lower(${customers.name})`), asc(customers.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    ctx.db.select({ n: count() }).from(customers).where(where),
  ]);
  return {
    items: rows.map((r) => present({ ...r.row, documentCount: r.documentCount })),
    total: total?.n ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}

export async function getCustomer(ctx: AppContext, actor: Actor, customerId: string): Promise<Customer> {
  const [r] = await ctx.db
    .select({ row: customers, documentCount })
    .from(customers)
    .where(and(eq(customers.id, customerId), customerAccess.where(actor, 'read')));
  if (!r) throw notFound();
  return present({ ...r.row, documentCount: r.documentCount });
}

export async function createCustomer(ctx: AppContext, actor: Actor, body: Body): Promise<Customer> {
  const companyId = homeCompany(actor);
  customerAccess.assertCan(actor, 'create', { companyId });
  const [row] = await ctx.db
    .insert(customers)
    .values({ companyId, ...body })
    .returning();
  return present({ ...row!, documentCount: 0 });
}

export async function updateCustomer(
  ctx: AppContext,
  actor: Actor,
  customerId: string,
  body: Body,
): Promise<Customer> {
  await customerAccess.authorize(ctx.db, actor, 'update', customerId);
  await ctx.db
    .update(customers)
    .set({ ...body, updatedAt: new Date() })
    .where(and(eq(customers.id, customerId), customerAccess.where(actor, 'update')));
  return getCustomer(ctx, actor, customerId);
}

/** Deletes a customer without documents; one with documents is CUSTOMER_IN_USE (the documents keep them). */
export async function deleteCustomer(ctx: AppContext, actor: Actor, customerId: string): Promise<void> {
  await customerAccess.authorize(ctx.db, actor, 'delete', customerId);
  try {
    await ctx.db
      .delete(customers)
      .where(and(eq(customers.id, customerId), customerAccess.where(actor, 'delete')));
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new AppError('CUSTOMER_IN_USE');
    throw error;
  }
}
