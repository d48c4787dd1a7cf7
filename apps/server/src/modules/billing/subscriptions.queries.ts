import { and, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { subscriptions } from '../../db/schema/index.ts';
import type { SubscriptionRow } from './company-plan.ts';

/** A company's current plan, with the company's name and what it has paid. */
export interface PaymentRecord {
  subscription: SubscriptionRow;
  companyName: string | null;
  paidCents: number;
}

/**
 * One page of the companies' current plans that `access` (a compiled Subscription rule on `subscriptions s`) lets
 * through, the company's name containing `q` (in any case), by company name.
 */
export async function currentPaymentsPage(
  db: DbOrTx,
  access: SQL,
  query: { page: number; pageSize: number; q?: string },
): Promise<{ items: PaymentRecord[]; total: number }> {
  const search = query.q ? `%${query.q.toLowerCase()}%` : null;
  const current = sql`(select distinct on (s.company_id) s.*, c.name as company_name
      from subscriptions s join companies c on c.id = s.company_id
      where ${access}
      order by s.company_id, s.created_at desc) p
    where ${search ? sql`lower(coalesce(p.company_name, '')) like ${search}` : sql`true`}`;
  const [{ rows }, counted] = await Promise.all([
    db.execute<{ id: string; company_name: string | null; paid: string }>(sql`
      select p.id, p.company_name,
        (select coalesce(sum(i.paid_cents), 0) from invoices i where i.company_id = p.company_id)::bigint as paid
      from ${current}
      order by lower(coalesce(p.company_name, '')), p.company_id
      limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`),
    db.execute<{ n: number }>(sql`select count(*)::int as n from ${current}`),
  ]);
  const subs = rows.length
    ? await db
        .select()
        .from(subscriptions)
        .where(
          inArray(
            subscriptions.id,
            rows.map((r) => r.id),
          ),
        )
    : [];
  const byId = new Map(subs.map((s) => [s.id, s]));
  return {
    items: rows.map((r) => ({
      subscription: byId.get(r.id)!,
      companyName: r.company_name,
      paidCents: Number(r.paid),
    })),
    total: counted.rows[0]?.n ?? 0,
  };
}

const EXPIRED: SubscriptionRow['status'] = 'expired';

/** Every company's current plan (its newest subscription) that has not expired. */
export async function currentUnexpiredSubscriptions(db: DbOrTx): Promise<SubscriptionRow[]> {
  const current = await db.execute<{ id: string }>(sql`
    select distinct on (company_id) id from subscriptions order by company_id, created_at desc`);
  const ids = current.rows.map((r) => r.id);
  if (ids.length === 0) return [];
  return db
    .select()
    .from(subscriptions)
    .where(and(inArray(subscriptions.id, ids), ne(subscriptions.status, EXPIRED)));
}

/**
 * Notes on the subscription that the notice `once` went out, unless it already had; the company's id when this call
 * noted it.
 */
export async function claimNotice(
  db: DbOrTx,
  subscriptionId: string,
  once: string,
): Promise<string | undefined> {
  const [claimed] = await db
    .update(subscriptions)
    .set({ notified: sql`array_append(${subscriptions.notified}, ${once})` })
    .where(and(eq(subscriptions.id, subscriptionId), sql`not (${once} = any(${subscriptions.notified}))`))
    .returning({ companyId: subscriptions.companyId });
  return claimed?.companyId;
}
