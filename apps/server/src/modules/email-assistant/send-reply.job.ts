import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { companies, emailInbound, emailSettings } from '../../db/schema/index.ts';
import { defineJob, type JobRun } from '../../jobs/job-definition.ts';
import { SecretBox } from '../ai-providers/secret-box.ts';
import { claimForSending } from './email-inbound.queries.ts';
import { smtpTransport } from './mail-connection.ts';
import { errorText, failClaimedMail } from './mail-failure-notice.ts';
import { composeReply } from './mail-reply.ts';

/**
 * Sends the stored reply of one answered mail by the setting's SMTP server, and nothing else: the answer is never
 * produced again here. The mail is claimed by this job (a second job for it does nothing), marked answered once the
 * server took it; a refusal is kept (`error`) and retried by pg-boss with backoff.
 */
async function sendReply(ctx: AppContext, inboundId: string, run: JobRun): Promise<void> {
  const mail = await claimForSending(ctx.db, inboundId, run.id);
  if (!mail?.replyText) return;
  const [setting] = await ctx.db.select().from(emailSettings).where(eq(emailSettings.id, mail.settingId));
  if (!setting) return;
  const [company] = await ctx.db
    .select({ name: companies.name })
    .from(companies)
    .where(eq(companies.id, setting.companyId));
  const reply = composeReply({ mail, setting, text: mail.replyText, companyName: company?.name || null });
  const password = new SecretBox(ctx.config.secrets.encryptionKey).open(setting.passwordSealed);
  const transport = await smtpTransport(ctx.outbound.policy, { ...setting, password });
  try {
    await transport.sendMail(reply);
  } finally {
    transport.close();
  }
  await ctx.db
    .update(emailInbound)
    .set({ status: 'answered', answeredAt: new Date(), claimedBy: null, error: null })
    .where(and(eq(emailInbound.id, mail.id), eq(emailInbound.claimedBy, run.id)));
}

/**
 * Retried from 5 s, doubling, 9 times (about an hour in all): an SMTP server that is down for minutes still gets
 * the one reply. After the last attempt the mail is failed (`send-failed`) and the asker is told by the platform's
 * own mail.
 */
export const sendReplyJob = defineJob({
  name: 'mail-assistant.send',
  schema: z.object({ inboundId: z.uuid() }),
  retryLimit: 9,
  retryDelaySeconds: 5,
  expireInSeconds: 120,
  concurrency: (ctx) => ctx.config.MAIL_ASSISTANT_ANSWERS_AT_ONCE,
  async handler({ inboundId }, ctx, run) {
    try {
      await sendReply(ctx, inboundId, run);
    } catch (error) {
      if (run.isFinalAttempt) await failClaimedMail(ctx, inboundId, run, 'send-failed', error);
      else
        await ctx.db
          .update(emailInbound)
          .set({ error: errorText(error) })
          .where(and(eq(emailInbound.id, inboundId), eq(emailInbound.claimedBy, run.id)));
      throw error;
    }
  },
});
