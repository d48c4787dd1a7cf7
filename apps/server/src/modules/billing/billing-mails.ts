import type { MailTemplateKind } from '@werkwissen/shared';
import { and, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { users } from '../../db/schema/index.ts';
import { dispatch, writeToOutbox } from '../mail/outbox.service.ts';
import { claimNotice } from './subscriptions.queries.ts';

/**
 * Mails a lifecycle notice (trial ending, payment failed, final notice, expiry) to the company's data managers, each
 * in their own language, through the outbox; `once` names the notice on its subscription row, so it goes out once.
 */
export async function notifyCompany(
  ctx: AppContext,
  subscriptionId: string,
  kind: MailTemplateKind,
  once: string,
  values: Record<string, string> = {},
): Promise<boolean> {
  const emailIds = await ctx.db.transaction(async (tx) => {
    const companyId = await claimNotice(tx, subscriptionId, once);
    if (!companyId) return [];
    const managers = await tx
      .select()
      .from(users)
      .where(and(eq(users.companyId, companyId), eq(users.kind, 'DataManager'), isNull(users.disabledAt)));
    const ids: string[] = [];
    for (const manager of managers) {
      ids.push(
        await writeToOutbox(tx, ctx, {
          to: manager.email,
          template: kind,
          language: manager.language,
          name: manager.firstName,
          actionPath: '/account-settings/billing',
          values,
          userId: manager.id,
          companyId: companyId,
        }),
      );
    }
    return ids;
  });
  await dispatch(ctx, emailIds);
  return emailIds.length > 0;
}
