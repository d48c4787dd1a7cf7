import { emailAccess } from '../../access/email.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { budgetFor } from '../mail/mail-budget.ts';
import { emailSendersPage } from './email-senders.queries.ts';

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
  const [{ items, total }, settings] = await Promise.all([
    emailSendersPage(ctx.db, emailAccess.where(actor, 'read'), query.q, {
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    }),
    ctx.settings.current(),
  ]);
  return {
    items: items.map((r) => {
      const { perHour, perDay } = budgetFor(r.trial, settings.mailBudget);
      return {
        companyId: r.companyId,
        companyName: r.companyName,
        trial: r.trial,
        lastHour: r.lastHour,
        lastDay: r.lastDay,
        perHour,
        perDay,
        lastMailAt: r.lastMailAt.toISOString(),
      };
    }),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}
