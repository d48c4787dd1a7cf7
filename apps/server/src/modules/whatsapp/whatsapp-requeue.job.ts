import type { AppContext } from '../../app-context.ts';
import { defineSweepJob } from '../../jobs/sweep-job.ts';
import { strandedWhatsApp } from './whatsapp.queries.ts';
import { whatsappInboundJob } from './whatsapp-inbound.job.ts';
import { whatsappReplyJob } from './whatsapp-reply.job.ts';

/** A message or reply part younger than this may still be between its commit and its job's send. */
export const SETTLED_SECONDS = 60;

/**
 * Queues the jobs the WhatsApp work lost: an incoming message never taken up (its job not queued, and Meta did not
 * deliver it again) and a reply whose parts wait with no job to send them (its job's send failed after the answer was
 * stored). Each job's singleton key and claim keep a message answered, and a reply sent, once. Returns how many.
 */
export async function requeueStrandedWhatsApp(
  ctx: AppContext,
  settledSeconds = SETTLED_SECONDS,
): Promise<number> {
  const { unanswered, unsent } = await strandedWhatsApp(
    ctx.db,
    { inboundJob: whatsappInboundJob.name, replyJob: whatsappReplyJob.name },
    settledSeconds,
  );
  for (const id of unanswered)
    await ctx.jobs.send(whatsappInboundJob, { messageId: id }, { singletonKey: id });
  for (const id of unsent) await ctx.jobs.send(whatsappReplyJob, { inboundId: id }, { singletonKey: id });
  return unanswered.length + unsent.length;
}

/** The WhatsApp sweep. */
export const requeueWhatsAppJob = defineSweepJob(
  'whatsapp.requeue',
  (ctx) => requeueStrandedWhatsApp(ctx),
  'queued whatsapp jobs again that were missing',
);
