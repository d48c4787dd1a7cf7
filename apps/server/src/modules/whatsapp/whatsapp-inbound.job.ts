import { z } from 'zod';
import { defineJob } from '../../jobs/job-definition.ts';
import { answerInbound } from './inbound-answer.ts';

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
