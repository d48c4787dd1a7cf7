import type { ChatMessage, Language } from '@werkwissen/shared';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { loadUserActor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { chatMessages, emailInbound, emailSettings } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';
import { defineJob, type JobRun } from '../../jobs/job-definition.ts';
import { answerQuestion } from '../chat/answer-stream.ts';
import { ownerScope } from '../chat/chats.service.ts';
import { oneMessage } from '../chat/messages.service.ts';
import { questionLanguage } from '../chat/question-language.ts';
import { databaseNow, lockIfClaimable } from './email-inbound.queries.ts';
import { type Conversation, conversationOf } from './mail-conversation.ts';
import { failClaimedMail } from './mail-failure-notice.ts';
import { waitForSlot } from './mail-rate-limit.ts';
import { replyMessageId, replyText } from './mail-reply.ts';
import { sendReplyJob } from './send-reply.job.ts';

type Inbound = typeof emailInbound.$inferSelect;

/**
 * Claims a mail for this job in one transaction: a queued mail, a waiting one whose time has come, or one this job
 * claimed before (its retry). A mail without its place under the hourly limits takes one, or waits: then it is
 * stored as waiting until then and null is returned with that time.
 */
async function claim(
  ctx: AppContext,
  inboundId: string,
  run: JobRun,
): Promise<{ mail: Inbound } | { waitUntil: Date } | null> {
  return ctx.db.transaction(async (tx) => {
    if (!(await lockIfClaimable(tx, inboundId, run.id))) return null;
    const [mail] = await tx.select().from(emailInbound).where(eq(emailInbound.id, inboundId));
    if (!mail) return null;
    if (!mail.slotAt) {
      const waitUntil = await waitForSlot(tx, mail);
      if (waitUntil) {
        await tx
          .update(emailInbound)
          .set({ status: 'waiting', reason: 'rate-limited', retryAt: waitUntil, claimedBy: null })
          .where(eq(emailInbound.id, inboundId));
        return { waitUntil };
      }
    }
    const [claimed] = await tx
      .update(emailInbound)
      .set({
        status: 'answering',
        claimedBy: run.id,
        slotAt: mail.slotAt ?? databaseNow,
        reason: null,
        retryAt: null,
      })
      .where(eq(emailInbound.id, inboundId))
      .returning();
    return { mail: claimed! };
  });
}

type Answer = Pick<ChatMessage, 'citations' | 'noAnswer'> & { text: string };

/**
 * The answer of a claimed mail, produced once: `answerQuestion` as the setting's owner would be answered (the
 * owner's rules bound what it may draw on) in the conversation's thread, its stored answer's id kept on the mail the
 * moment it exists. A retry after a crash finds that answer: complete, it is used as it is (no second model call);
 * cut off, it is written again in its place. What refuses before an answer starts (no ready file, no provider, an
 * ended plan, the plan's question cap) is answered with the reason, as the web app would show it.
 */
async function answerOnce(
  ctx: AppContext,
  mail: Inbound,
  conversation: Conversation,
  language: Language,
  run: JobRun,
): Promise<Answer> {
  const { chat, threadId } = conversation;
  let ask: { question: string } | { regenerate: string } = { question: mail.question };
  if (mail.answerMessageId) {
    const [message] = await ctx.db
      .select({ status: chatMessages.status })
      .from(chatMessages)
      .where(and(eq(chatMessages.id, mail.answerMessageId), eq(chatMessages.threadId, threadId)));
    const status = message?.status;
    if (status === 'complete') {
      const stored = await oneMessage(ctx.db, chat.companyId, mail.answerMessageId, language);
      return { text: stored.content, citations: stored.citations, noAnswer: stored.noAnswer };
    }
    if (status) ask = { regenerate: mail.answerMessageId };
  }
  let kept: Promise<unknown> = Promise.resolve();
  try {
    const stored = await answerQuestion(
      ctx,
      { chat, threadId, scope: await ownerScope(ctx, chat), language, ask },
      {
        emit: (event) => {
          if (event.event !== 'start') return;
          kept = ctx.db
            .update(emailInbound)
            .set({ answerMessageId: event.data.messageId })
            .where(eq(emailInbound.id, mail.id))
            .then(() => undefined);
        },
        signal: run.signal,
      },
    );
    await kept;
    return {
      text: stored.content || (stored.errorMessage ?? ''),
      citations: stored.citations,
      noAnswer: stored.noAnswer,
    };
  } catch (error) {
    await kept.catch(() => {});
    if (!(error instanceof AppError)) throw error;
    return {
      text: translate(language, `errors.${error.code}`, error.details),
      citations: [],
      noAnswer: false,
    };
  }
}

/**
 * Answers one mail once and stores the reply for sending: the mail takes its place under the hourly limits (or
 * waits, its job queued again for then), its conversation is found or made, the answer produced once, and the
 * reply's text stored with the mail as `sending`; `mail-assistant.send` then sends it, retried on its own.
 */
async function answerMail(ctx: AppContext, inboundId: string, run: JobRun): Promise<void> {
  const claimed = await claim(ctx, inboundId, run);
  if (!claimed) return;
  if ('waitUntil' in claimed) {
    ctx.log.info({ inboundId, until: claimed.waitUntil }, 'mail waits: hourly limit of its sender or thread');
    const seconds = Math.max(1, Math.ceil((claimed.waitUntil.getTime() - Date.now()) / 1000));
    await ctx.jobs.send(answerMailJob, { inboundId }, { startAfter: seconds });
    return;
  }
  const { mail } = claimed;
  const mine = and(eq(emailInbound.id, mail.id), eq(emailInbound.claimedBy, run.id));
  const [setting] = await ctx.db.select().from(emailSettings).where(eq(emailSettings.id, mail.settingId));
  const owner = setting ? await loadUserActor(ctx.db, setting.ownerId, null) : null;
  if (!setting || !owner) {
    await ctx.db
      .update(emailInbound)
      .set({ status: 'ignored', reason: 'no-owner', claimedBy: null })
      .where(mine);
    return;
  }
  const conversation = await conversationOf(ctx, setting, owner, mail);
  const asker = conversation.account ?? owner;
  const language = questionLanguage(mail.question, asker.language);
  const answer = await answerOnce(ctx, mail, conversation, asker.language, run);
  if (run.signal.aborted) return;
  const { general } = await ctx.settings.current();
  const link = conversation.account ? `${general.publicUrl}/chat?chat=${conversation.chat.id}` : null;
  const stored = await ctx.db
    .update(emailInbound)
    .set({
      status: 'sending',
      conversationId: conversation.id,
      replyText: replyText({ answer, language, link }),
      replyMessageId: replyMessageId(mail, setting.fromEmail),
      claimedBy: null,
    })
    .where(mine)
    .returning({ id: emailInbound.id });
  if (stored.length > 0) await ctx.jobs.send(sendReplyJob, { inboundId: mail.id });
}

export const answerMailJob = defineJob({
  name: 'mail-assistant.answer',
  schema: z.object({ inboundId: z.uuid() }),
  retryLimit: 3,
  retryDelaySeconds: 10,
  expireInSeconds: 300,
  concurrency: (ctx) => ctx.config.MAIL_ASSISTANT_ANSWERS_AT_ONCE,
  async handler({ inboundId }, ctx, run) {
    try {
      await answerMail(ctx, inboundId, run);
    } catch (error) {
      if (run.isFinalAttempt) await failClaimedMail(ctx, inboundId, run, 'answer-failed', error);
      throw error;
    }
  },
});
