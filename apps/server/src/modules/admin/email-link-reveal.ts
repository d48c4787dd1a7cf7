import { and, eq } from 'drizzle-orm';
import { emailAccess } from '../../access/email.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { emailOutbox } from '../../db/schema/index.ts';
import { confirmFreshCode } from '../auth/second-factor.service.ts';
import { takeSlotsOrRefuse } from '../limits/limit-error.ts';
import { releaseSlots } from '../limits/rate-limiter.ts';
import { realLink } from '../mail/hidden-link.ts';

/** Wrong codes one user may enter here within a quarter of an hour (a right one gives its slot back). */
const WRONG_CODES = { max: 5, windowSeconds: 15 * 60 };

/**
 * Shows the real single-use link of a mail that did not reach its recipient (no SMTP, or the send failed), for an
 * operator who must pass it on by hand: only with `update Email` (the Administrator's; Staff only read the log), a
 * fresh authenticator code (second-factor.service's `confirmFreshCode`), never for a mail that was sent or is being
 * sent (its recipient has the link), and noted in the activity log with the mail it revealed.
 */
export async function revealEmailLink(ctx: AppContext, actor: Actor, emailId: string, code: string) {
  const [row] = await ctx.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.id, emailId), emailAccess.where(actor, 'update')));
  if (!row) throw notFound();
  if (!row.linkSealed) throw new AppError('EMAIL_NO_HIDDEN_LINK');
  if (row.status === 'sent' || row.status === 'queued') throw new AppError('EMAIL_LINK_DELIVERED');
  const slots = await takeSlotsOrRefuse(ctx, [
    { bucket: 'email-link-reveal:user', key: actor.userId, ...WRONG_CODES },
  ]);
  await confirmFreshCode(ctx, actor, code);
  await releaseSlots(ctx, slots.ids);
  const link = realLink(ctx, row);
  if (!link) throw new AppError('EMAIL_NO_HIDDEN_LINK');
  return {
    link,
    change: { before: null, after: { linkRevealed: row.id, to: row.to, template: row.template } },
  };
}
