import { and, asc, countDistinct, desc, eq, gt, ilike, isNotNull, max, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { containsPattern } from '../../db/like.ts';
import { companies, emailOutbox } from '../../db/schema/index.ts';
import { onTrial } from '../mail/mail-budget.queries.ts';

/** A company's mails counted against its mail budget in the last hour and day, and when it sent the last. */
export interface EmailSender {
  companyId: string;
  companyName: string | null;
  trial: boolean;
  lastHour: number;
  lastDay: number;
  lastMailAt: Date;
}

/**
 * One page of the companies whose budgeted mails of the last day pass an access fragment, most mails first; `q`
 * searches the company's name. With how many companies there are.
 */
export async function emailSendersPage(
  db: DbOrTx,
  access: SQL,
  q: string | undefined,
  page: { limit: number; offset: number },
): Promise<{ items: EmailSender[]; total: number }> {
  const where = and(
    q ? ilike(companies.name, containsPattern(q)) : undefined,
    access,
    eq(emailOutbox.budgeted, true),
    isNotNull(emailOutbox.companyId),
    gt(emailOutbox.createdAt, sql`now() - interval '1 day'`),
  );
  const lastDay = sql<number>`count(*)::int`;
  const [rows, [total]] = await Promise.all([
    db
      .select({
        companyId: emailOutbox.companyId,
        companyName: companies.name,
        lastHour: sql<number>`(count(*) filter (where ${emailOutbox.createdAt} > now() - interval '1 hour'))::int`,
        lastDay,
        lastMailAt: max(emailOutbox.createdAt),
        trial: onTrial(sql`"email_outbox"."company_id"`),
      })
      .from(emailOutbox)
      .innerJoin(companies, eq(companies.id, emailOutbox.companyId))
      .where(where)
      .groupBy(emailOutbox.companyId, companies.name)
      .orderBy(desc(lastDay), asc(companies.name), asc(emailOutbox.companyId))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ n: countDistinct(emailOutbox.companyId) })
      .from(emailOutbox)
      .innerJoin(companies, eq(companies.id, emailOutbox.companyId))
      .where(where),
  ]);
  return {
    items: rows.map((r) => ({
      companyId: r.companyId!,
      companyName: r.companyName,
      trial: r.trial,
      lastHour: r.lastHour,
      lastDay: r.lastDay,
      lastMailAt: new Date(r.lastMailAt!),
    })),
    total: total?.n ?? 0,
  };
}
