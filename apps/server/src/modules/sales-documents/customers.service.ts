import type { Customer, customerBodySchema, listQuerySchema } from '@werkwissen/shared';
import type { z } from 'zod';
import { customerAccess } from '../../access/customer.access.ts';
import { homeCompany } from '../../access/resource-access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { isForeignKeyViolation } from '../../db/constraint-violation.ts';
import { containsPattern } from '../../db/like.ts';
import {
  type CustomerRecord,
  customerById,
  customerPage,
  deleteCustomerRow,
  insertCustomer,
  updateCustomerRow,
} from './customers.queries.ts';

type Body = z.output<typeof customerBodySchema>;
type Query = z.output<typeof listQuerySchema>;

const present = (r: CustomerRecord): Customer => ({
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
  const { items, total } = await customerPage(ctx.db, customerAccess.where(actor, 'read'), {
    pattern: query.q ? containsPattern(query.q) : undefined,
    page: query.page,
    pageSize: query.pageSize,
  });
  return { items: items.map(present), total, page: query.page, pageSize: query.pageSize };
}

export async function getCustomer(ctx: AppContext, actor: Actor, customerId: string): Promise<Customer> {
  const customer = await customerById(ctx.db, customerId, customerAccess.where(actor, 'read'));
  if (!customer) throw notFound();
  return present(customer);
}

export async function createCustomer(ctx: AppContext, actor: Actor, body: Body): Promise<Customer> {
  const companyId = homeCompany(actor);
  customerAccess.assertCan(actor, 'create', { companyId });
  return present(await insertCustomer(ctx.db, companyId, body));
}

export async function updateCustomer(
  ctx: AppContext,
  actor: Actor,
  customerId: string,
  body: Body,
): Promise<Customer> {
  await customerAccess.authorize(ctx.db, actor, 'update', customerId);
  await updateCustomerRow(ctx.db, customerId, customerAccess.where(actor, 'update'), body);
  return getCustomer(ctx, actor, customerId);
}

/** Deletes a customer without documents; one with documents is CUSTOMER_IN_USE (the documents keep them). */
export async function deleteCustomer(ctx: AppContext, actor: Actor, customerId: string): Promise<void> {
  await customerAccess.authorize(ctx.db, actor, 'delete', customerId);
  try {
    await deleteCustomerRow(ctx.db, customerId, customerAccess.where(actor, 'delete'));
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new AppError('CUSTOMER_IN_USE');
    throw error;
  }
}
