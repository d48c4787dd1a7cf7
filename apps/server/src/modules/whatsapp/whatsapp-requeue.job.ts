import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { defineJob } from '../../jobs/job-definition.ts';
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

/** Every five minutes: the WhatsApp sweep. */
export const requeueWhatsAppJob = defineJob({
  name: 'whatsapp.requeue',
  schema: z.object({}),
  retryLimit: 1,
  retryDelaySeconds: 60,
  expireInSeconds: 5 * 60,
  policy: 'short',
  cron: '*/5 * * * *',
  async handler(_data, ctx) {
    const requeued = await requeueStrandedWhatsApp(ctx);
    if (requeued > 0) ctx.log.info({ requeued }, 'queued whatsapp jobs again that were missing');
  },
});
