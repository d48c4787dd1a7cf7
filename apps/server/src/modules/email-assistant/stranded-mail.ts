import type { AppContext } from '../../app-context.ts';
import { answerMailJob } from './answer-mail.job.ts';
import { releaseStrandedMail } from './email-inbound.queries.ts';
import { sendReplyJob } from './send-reply.job.ts';

/** A mail younger than this may still be between its commit and its job's send. */
const SETTLE_SECONDS = 30;

/**
 * Queues the jobs of mails whose job went missing (a crash between a commit and the send of its job): a mail
 * queued, being answered or being sent, or waiting with its time come, that no job of either kind is queued or
 * running for. Their claim is cleared in the same statement, so the new job may take them (a second job that finds
 * the mail claimed does nothing). Returns how many were queued.
 */
export async function requeueStrandedMail(ctx: AppContext): Promise<number> {
  const rows = await releaseStrandedMail(ctx.db, [answerMailJob.name, sendReplyJob.name], SETTLE_SECONDS);
  for (const row of rows)
    await ctx.jobs.send(row.status === 'sending' ? sendReplyJob : answerMailJob, { inboundId: row.id });
  return rows.length;
}
