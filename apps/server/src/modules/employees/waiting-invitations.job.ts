import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { defineJob } from '../../jobs/job-definition.ts';
import { lockedBudgetRoom } from '../mail/mail-budget.ts';
import { dispatch } from '../mail/outbox.service.ts';
import { employeesAwaitingInvitation } from './employees.queries.ts';
import { writeInvitation } from './employees.service.ts';

/**
 * Sends the invitations that waited for the data manager (`inviterId`) to confirm their address: as many as the
 * company's mail budget has room for, oldest first; the others keep waiting and the job comes back when the budget
 * has room again. The employees stay listed as invited meanwhile.
 */
export const waitingInvitationsJob = defineJob({
  name: 'employees.waiting-invitations',
  schema: z.object({ companyId: z.uuid(), inviterId: z.uuid() }),
  retryLimit: 5,
  retryDelaySeconds: 10,
  expireInSeconds: 300,
  async handler({ companyId, inviterId }, ctx) {
    const { emailIds, retryAfter } = await ctx.db.transaction(async (tx) => {
      const { room } = await lockedBudgetRoom(ctx, tx, companyId);
      const waiting = await employeesAwaitingInvitation(tx, companyId, room + 1);
      const ids: string[] = [];
      for (const user of waiting.slice(0, room)) {
        ids.push(await writeInvitation(tx, ctx, { ...user, companyId }, inviterId));
      }
      if (waiting.length <= room) return { emailIds: ids, retryAfter: null };
      // More wait than fit: again when the window that is full now (with these) frees a mail.
      const after = await lockedBudgetRoom(ctx, tx, companyId);
      return { emailIds: ids, retryAfter: after.full?.seconds ?? 1 };
    });
    await dispatch(ctx, emailIds);
    if (retryAfter !== null) await sendWaitingInvitations(ctx, companyId, inviterId, retryAfter);
  },
});

/** Queues the waiting invitations of a company (now, or after `startAfter` seconds). */
export async function sendWaitingInvitations(
  ctx: AppContext,
  companyId: string,
  inviterId: string,
  startAfter?: number,
): Promise<void> {
  await ctx.jobs.send(waitingInvitationsJob, { companyId, inviterId }, startAfter ? { startAfter } : {});
}
