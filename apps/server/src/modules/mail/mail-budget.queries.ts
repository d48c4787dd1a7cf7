import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';

/** A company's budgeted mails of the last hour and day. */
export interface MailUsage {
  hour: number;
  day: number;
  /** Seconds until the oldest mail of the window leaves it (one more fits then). */
  hourWait: number;
  dayWait: number;
}

/** Whether a company (an SQL expression of its id) is on a trial: no plan yet, or its plan has no paid interval. */
export const onTrial = (companyId: SQL) => sql<boolean>`coalesce((
  select p.interval_months is null from subscriptions s left join plans p on p.key = s.plan
  where s.company_id = ${companyId} order by s.created_at desc limit 1), true)`;

export async function companyOnTrial(db: DbOrTx, companyId: string): Promise<boolean> {
  const { rows } = await db.execute<{ trial: boolean }>(
    sql`select ${onTrial(sql`${companyId}::uuid`)} as trial`,
  );
  return rows[0]?.trial !== false;
}

/** The company's budgeted mails of the last hour and of the last day (one statement). */
export async function budgetedMailUsage(db: DbOrTx, companyId: string): Promise<MailUsage> {
  const { rows } = await db.execute<Record<keyof MailUsage, number | string | null>>(sql`
    select count(*) filter (where created_at > now() - interval '1 hour') as hour,
      count(*) as day,
      ceil(extract(epoch from min(created_at) filter (where created_at > now() - interval '1 hour')
        + interval '1 hour' - now())) as "hourWait",
      ceil(extract(epoch from min(created_at) + interval '1 day' - now())) as "dayWait"
    from email_outbox
    where company_id = ${companyId} and budgeted and created_at > now() - interval '1 day'`);
  const row = rows[0];
  return {
    hour: Number(row?.hour ?? 0),
    day: Number(row?.day ?? 0),
    hourWait: Math.max(1, Number(row?.hourWait ?? 1)),
    dayWait: Math.max(1, Number(row?.dayWait ?? 1)),
  };
}

/** Takes the company's mail budget lock until the caller's transaction ends (transaction-scoped advisory lock). */
export async function lockMailBudget(tx: DbOrTx, companyId: string): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`mail-budget\u0001${companyId}`}, 727276))`,
  );
}
