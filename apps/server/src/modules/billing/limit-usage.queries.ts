import { PLAN_LIMITS, type PlanLimit, type UserKind } from '@werkwissen/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/database.ts';

const EMPLOYEE: UserKind = 'Employee';
/** A stored question (the role of a user's message). */
const QUESTION = 'user';

/**
 * What a company uses of a limit, as SQL: the one definition the limit checks and the billing tab's bars share.
 * One e-mail setting holds its SMTP details too, so it counts against both.
 */
function usedSql(companyId: string, limit: PlanLimit): SQL {
  switch (limit) {
    case 'storageBytes':
      return sql`(select coalesce(sum(size_bytes), 0) from files where company_id = ${companyId})::bigint`;
    case 'divisions':
      return sql`(select count(*) from divisions where company_id = ${companyId})::int`;
    case 'employees':
      return sql`(select count(*) from users where company_id = ${companyId} and kind = ${EMPLOYEE})::int`;
    case 'questionsPerMonth':
      return sql`(select count(*) from chat_messages where company_id = ${companyId} and role = ${QUESTION}
        and created_at >= date_trunc('month', now()))::int`;
    case 'smtpSettings':
    case 'emailSettings':
      return sql`(select count(*) from email_settings where company_id = ${companyId})::int`;
  }
}

/** What a company uses of one limit. */
export async function usedOf(db: DbOrTx, companyId: string, limit: PlanLimit): Promise<number> {
  const { rows } = await db.execute<{ used: string | number }>(
    sql`select ${usedSql(companyId, limit)} as used`,
  );
  return Number(rows[0]?.used ?? 0);
}

/** What a company uses of each limit, in one statement. */
export async function usedOfAll(db: DbOrTx, companyId: string): Promise<Record<PlanLimit, number>> {
  const columns = sql.join(
    PLAN_LIMITS.map((limit) => sql`${usedSql(companyId, limit)} as ${sql.identifier(limit)}`),
    sql`, `,
  );
  const { rows } = await db.execute<Record<PlanLimit, string | number>>(sql`select ${columns}`);
  const row = rows[0]!;
  return Object.fromEntries(PLAN_LIMITS.map((limit) => [limit, Number(row[limit])])) as Record<
    PlanLimit,
    number
  >;
}

/**
 * Locks a company's row until `tx` ends (`for no key update`: a second slot of the same company waits, while rows
 * that merely reference the company are written on).
 */
export async function lockCompanyForSlot(tx: Tx, companyId: string): Promise<void> {
  await tx.execute(sql`select 1 from companies where id = ${companyId} for no key update`);
}
