import { z } from 'zod';
import { defineJob } from '../../jobs/job-definition.ts';
import { sendReply } from './reply-sender.ts';

/**
 * The parts of one reply, sent in order. Meta's throughput and per-pair limits (130429, 131056), its server errors and
 * the network are retried with backoff; the parts already sent are not sent again.
 */
export const whatsappReplyJob = defineJob({
  name: 'whatsapp.reply',
  schema: z.object({ inboundId: z.uuid() }),
  retryLimit: 5,
  retryDelaySeconds: 2,
  expireInSeconds: 120,
  async handler({ inboundId }, ctx, run) {
    await sendReply(ctx, inboundId, run.isFinalAttempt);
  },
});
