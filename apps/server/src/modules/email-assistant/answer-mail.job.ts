import { and, eq, gt, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { emailInbound, emailSettings } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { translate } from '../../i18n/translator.ts';
import { defineJob, type JobRun } from '../../jobs/job-definition.ts';
import { SecretBox } from '../ai-providers/secret-box.ts';
import { loadUserActor } from '../auth/actor.ts';
import { answerQuestion } from '../chat/answer-stream.ts';
import { chatRecordWhere, ownerScope, threadOf } from '../chat/chats.service.ts';
import { questionLanguage } from '../chat/question-language.ts';
import { smtpTransport } from './mail-connection.ts';
import { composeReply } from './mail-reply.ts';

/** Answers to one sender per hour, and within one thread: beyond these a mail is left unanswered. */
const PER_SENDER_PER_HOUR = 20;
const PER_THREAD_PER_HOUR = 5;

type Setting = typeof emailSettings.$inferSelect;
type Inbound = typeof emailInbound.$inferSelect;

/** Claims a queued mail for this job (a retry of the same job may take it again); null when it is not ours. */
async function claim(ctx: AppContext, inboundId: string, run: JobRun): Promise<Inbound | null> {
  const [row] = await ctx.db
    .update(emailInbound)
    .set({ status: 'answering', claimedBy: run.id })
    .where(
      and(
        eq(emailInbound.id, inboundId),
        sql`(${emailInbound.status} = 'queued' or (${emailInbound.status} = 'answering'
          and ${emailInbound.claimedBy} = ${run.id}))`,
      ),
    )
    .returning();
  return row ?? null;
}

/** Whether the sender or the thread had its share of answers in the last hour. */
async function overLimit(ctx: AppContext, mail: Inbound): Promise<boolean> {
  const hour = sql`now() - interval '1 hour'`;
  const answered = and(
    eq(emailInbound.settingId, mail.settingId),
    eq(emailInbound.status, 'answered'),
    gt(emailInbound.answeredAt, hour),
  );
  const { rows } = await ctx.db.execute<{ sender: number | string; thread: number | string }>(sql`select
      count(*) filter (where ${emailInbound.fromAddress} = ${mail.fromAddress}) as sender,
      count(*) filter (where ${emailInbound.references}->>0 = ${mail.references[0] ?? ''}) as thread
    from ${emailInbound} where ${answered}`);
  return (
    Number(rows[0]?.sender ?? 0) >= PER_SENDER_PER_HOUR || Number(rows[0]?.thread ?? 0) >= PER_THREAD_PER_HOUR
  );
}

/**
 * The chat a setting's conversations land in, made on first use: the owner's, over the setting's division, source
 * "email", private when the setting is (then only its data manager sees it), else public in the company.
 */
async function conversationChat(ctx: AppContext, setting: Setting): Promise<string> {
  if (setting.chatId) return setting.chatId;
  return ctx.db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ id: string }>(sql`insert into chats
        (company_id, owner_id, name, visibility, provider, source)
      values (${setting.companyId}, ${setting.ownerId}, ${setting.fromEmail},
        ${setting.isPrivate ? 'private' : 'public'},
        coalesce((select provider from ai_providers where company_id = ${setting.companyId} and is_default
          limit 1), 'builtin'), 'email')
      returning id`);
    const chatId = rows[0]!.id;
    await tx.execute(
      sql`insert into chat_divisions (chat_id, division_id) values (${chatId}, ${setting.divisionId})`,
    );
    await tx.update(emailSettings).set({ chatId }).where(eq(emailSettings.id, setting.id));
    return chatId;
  });
}

/**
 * Answers one queued mail from the setting's division, as its owner would be answered in the web app (the owner's
 * rules bound what it may draw on), and replies by the setting's SMTP server in the mail's thread.
 */
async function answerMail(ctx: AppContext, inboundId: string, run: JobRun): Promise<void> {
  const mail = await claim(ctx, inboundId, run);
  if (!mail) return;
  const finish = (values: Partial<Inbound>) =>
    ctx.db.update(emailInbound).set(values).where(eq(emailInbound.id, mail.id));
  if (await overLimit(ctx, mail)) {
    ctx.log.info({ inboundId, from: mail.fromAddress }, 'mail not answered: rate limit');
    await finish({ status: 'ignored', reason: 'rate-limited' });
    return;
  }
  const [setting] = await ctx.db.select().from(emailSettings).where(eq(emailSettings.id, mail.settingId));
  const owner = setting ? await loadUserActor(ctx.db, setting.ownerId, null) : null;
  if (!setting || !owner) {
    await finish({ status: 'ignored', reason: 'no-owner' });
    return;
  }
  const chatId = await conversationChat(ctx, setting);
  const chat = await chatRecordWhere(ctx, sql`c.id = ${chatId}`);
  if (!chat) throw new Error('conversation chat vanished');
  const language = questionLanguage(mail.question, owner.language);
  let answer: { text: string; citations: Array<{ n: number; fileName: string; page: number | null }> };
  try {
    const stored = await answerQuestion(
      ctx,
      {
        chat,
        threadId: await threadOf(ctx, chat, owner.userId),
        scope: await ownerScope(ctx, chat),
        language: owner.language,
        ask: { question: mail.question },
      },
      { emit: () => {}, signal: run.signal },
    );
    answer = { text: stored.content || (stored.errorMessage ?? ''), citations: stored.citations };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // What the web app would show before an answer starts (no ready file, no provider, an ended plan).
    answer = { text: translate(language, `errors.${error.code}`), citations: [] };
  }
  const password = new SecretBox(ctx.config.secrets.encryptionKey).open(setting.passwordSealed);
  const reply = composeReply({ mail, setting, answer, language });
  const transport = await smtpTransport(ctx.outbound.policy, { ...setting, password });
  try {
    await transport.sendMail(reply);
  } finally {
    transport.close();
  }
  await finish({ status: 'answered', replyMessageId: reply.messageId, answeredAt: new Date() });
}

export const answerMailJob = defineJob({
  name: 'mail-assistant.answer',
  schema: z.object({ inboundId: z.uuid() }),
  retryLimit: 5,
  retryDelaySeconds: 20,
  expireInSeconds: 300,
  async handler({ inboundId }, ctx, run) {
    try {
      await answerMail(ctx, inboundId, run);
    } catch (error) {
      if (run.isFinalAttempt) {
        await ctx.db
          .update(emailInbound)
          .set({ status: 'failed', reason: error instanceof Error ? error.message.slice(0, 300) : 'failed' })
          .where(eq(emailInbound.id, inboundId));
      }
      throw error;
    }
  },
});
