import { and, asc, countDistinct, desc, eq, gt, ilike, isNotNull, max, sql } from 'drizzle-orm';
import { emailAccess } from '../../access/email.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { containsPattern } from '../../db/like.ts';
import { companies, emailOutbox } from '../../db/schema/index.ts';
import { onTrial } from '../mail/mail-budget.queries.ts';
import { budgetFor } from '../mail/mail-budget.ts';

/**
 * Who sends how much: the companies whose mails counted against their mail budget in the last day (of the mails the
 * actor's Email rules let them read), with the last hour's and day's numbers beside the budget in force, most first;
 * `q` searches the company's name.
 */
export async function listEmailSenders(
  ctx: AppContext,
  actor: Actor,
  query: { page: number; pageSize: number; q?: string },
) {
  const where = and(
    query.q ? ilike(companies.name, containsPattern(query.q)) : undefined,
    emailAccess.where(actor, 'read'),
    eq(emailOutbox.budgeted, true),
    isNotNull(emailOutbox.companyId),
    gt(emailOutbox.createdAt, sql`now() - interval '1 day'`),
  );
  const lastDay = sql<number>`count(*)::int`;
  const [rows, [total], settings] = await Promise.all([
    ctx.db
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
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    ctx.db
      .select({ n: countDistinct(emailOutbox.companyId) })
      .from(emailOutbox)
      .innerJoin(companies, eq(companies.id, emailOutbox.companyId))
      .where(where),
    ctx.settings.current(),
  ]);
  return {
    items: rows.map((r) => {
      const { perHour, perDay } = budgetFor(r.trial, settings.mailBudget);
      return {
        companyId: r.companyId!,
        companyName: r.companyName,
        trial: r.trial,
        lastHour: r.lastHour,
        lastDay: r.lastDay,
        perHour,
        perDay,
        lastMailAt: new Date(r.lastMailAt!).toISOString(),
      };
    }),
    total: total?.n ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}
