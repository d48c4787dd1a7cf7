import { z } from 'zod';
import { defineJob } from '../../jobs/job-definition.ts';
import { answerInbound } from './inbound-answer.ts';
import { sendReply } from './reply-sender.ts';

/** One incoming WhatsApp message, answered once (the webhook queues it with the message row as singleton key). */
export const whatsappInboundJob = defineJob({
  name: 'whatsapp.inbound',
  schema: z.object({ messageId: z.uuid() }),
  retryLimit: 3,
  retryDelaySeconds: 5,
  expireInSeconds: 300,
  async handler({ messageId }, ctx, run) {
    await answerInbound(ctx, messageId, run.isFinalAttempt);
  },
});

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
