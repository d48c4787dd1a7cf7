import { type Language, QUESTION_MAX_LENGTH } from '@werkwissen/shared';
import { formatPhone, languageOfPhone } from '@werkwissen/shared/phone';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../core/app-error.ts';
import { translate } from '../../i18n/translator.ts';
import { answerQuestion } from '../chat/answer-stream.ts';
import { takePublicQuestionSlot } from '../chat/public-chats.service.ts';
import { questionLanguage } from '../chat/question-language.ts';
import { AUDIO_MAX_BYTES, transcribeAudio } from '../chat/transcription.ts';
import { GraphClient, GraphError } from './graph-client.ts';
import { confirmFromWhatsApp } from './phone-verification.service.ts';
import { replyText, splitMessage } from './reply-text.ts';
import {
  claimInbound,
  type InboundMessage as Inbound,
  inboundMessage,
  insertReplyPart,
  setInboundOutcome,
  setMessageStatus,
} from './whatsapp.queries.ts';
import { askerOf } from './whatsapp-asker.ts';
import { connectionOfCompany, type OpenConnection } from './whatsapp-connection.service.ts';
import { whatsappReplyJob } from './whatsapp-reply.job.ts';

/** Meta lets a business answer freely only within 24 hours of the user's last message. */
const SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Stores the reply's parts (pending) and the question's outcome together, then queues their sending. */
async function queueReply(
  ctx: AppContext,
  inbound: Inbound,
  text: string,
  outcome: 'answered' | 'refused' | 'failed',
  chatMessageId: string | null = null,
): Promise<void> {
  const parts = splitMessage(text);
  await ctx.db.transaction(async (tx) => {
    for (const [index, body] of parts.entries())
      await insertReplyPart(tx, inbound, { index, body, chatMessageId });
    await setInboundOutcome(tx, inbound.id, outcome, chatMessageId);
  });
  // A failed send is the sweep's (`requeueWhatsAppJob`): the question is claimed, so a retry of this job would not
  // queue the reply again.
  await ctx.jobs.sendAfterCommit(
    whatsappReplyJob,
    { inboundId: inbound.id },
    { singletonKey: inbound.id },
    { inboundId: inbound.id },
  );
}

const setStatus = (ctx: AppContext, id: string, status: string, code: string | null = null) =>
  setMessageStatus(ctx.db, id, status, code);

/** The question a message asks: its text, or a voice note's transcript; null for other kinds (pictures, files). */
async function questionOf(
  ctx: AppContext,
  connection: OpenConnection,
  inbound: Inbound,
): Promise<{ question: string; transcript?: string } | null> {
  if (inbound.kind === 'text') return { question: inbound.payload.text?.body?.trim() ?? '' };
  if (inbound.kind !== 'audio' || !inbound.payload.audio?.id) return null;
  // The media URL expires within minutes: it is asked for and downloaded at once, with the same token.
  const media = await new GraphClient(ctx, connection.accessToken).downloadMedia(
    inbound.payload.audio.id,
    AUDIO_MAX_BYTES,
  );
  const transcript = await transcribeAudio(ctx, connection.companyId, media.bytes);
  return { question: transcript, transcript };
}

/**
 * Answers one incoming message once: outside the 24-hour window it is left (expired); a confirmation code from a
 * number waiting for one confirms it (`confirmFromWhatsApp`); from a number a user saved but has not confirmed, the
 * user is told how to confirm it; from a number nobody saved it is refused politely unless the company answers such
 * numbers from a public chat; a picture or a document is pointed to
 * the web app; a text or a voice note (transcribed, then quoted) is answered like the web chat's question, in the
 * asker's WhatsApp chat, and the reply is queued. While it works, the message is marked read with a typing indicator.
 */
export async function answerInbound(
  ctx: AppContext,
  messageId: string,
  finalAttempt: boolean,
): Promise<void> {
  const inbound = await inboundMessage(ctx.db, messageId);
  if (inbound?.status !== 'received') return;
  const connection = await connectionOfCompany(ctx, inbound.company_id);
  if (!connection) return void (await setStatus(ctx, inbound.id, 'failed', 'WHATSAPP_NOT_CONNECTED'));
  const sentAt = Number(inbound.payload.timestamp ?? 0) * 1000;
  if (Date.now() - sentAt > SERVICE_WINDOW_MS) return void (await setStatus(ctx, inbound.id, 'expired'));

  const graph = new GraphClient(ctx, connection.accessToken);
  await graph
    .markReadTyping(connection.phoneNumberId, inbound.wa_message_id)
    .catch((error) => ctx.log.warn({ err: error }, 'whatsapp read receipt failed'));

  const say = (lang: Language, key: string, vars?: Record<string, unknown>) => translate(lang, key, vars);
  // A user confirming their number with the code from their profile.
  const confirmation =
    inbound.kind === 'text'
      ? await confirmFromWhatsApp(ctx, inbound.company_id, inbound.contact, inbound.payload.text?.body ?? '')
      : null;
  if (confirmation) {
    return confirmation.confirmed
      ? queueReply(ctx, inbound, say(confirmation.language, 'whatsapp.reply.phoneConfirmed'), 'answered')
      : queueReply(ctx, inbound, say(confirmation.language, 'whatsapp.reply.phoneCodeWrong'), 'refused');
  }
  const asker = await askerOf(ctx, connection, inbound.contact, inbound.contact_name);
  if (asker.kind === 'unconfirmed') {
    return queueReply(
      ctx,
      inbound,
      say(asker.language, 'whatsapp.reply.phoneUnconfirmed', { url: asker.link }),
      'refused',
    );
  }
  if (asker.kind === 'unknown') {
    // Told in the message's language, else the one the number's country suggests, else the installation's; with
    // the number as WhatsApp sends it, to compare with the one saved in the account (kept left-to-right in Arabic).
    const text = inbound.kind === 'text' ? (inbound.payload.text?.body ?? '') : '';
    const lang = questionLanguage(text, languageOfPhone(inbound.contact) ?? asker.language);
    const number = `\u2066${formatPhone(`+${inbound.contact}`)}\u2069`;
    return queueReply(ctx, inbound, say(lang, 'whatsapp.reply.unknownNumber', { number }), 'refused');
  }

  let asked: Awaited<ReturnType<typeof questionOf>>;
  try {
    asked = await questionOf(ctx, connection, inbound);
  } catch (error) {
    if (error instanceof GraphError && error.retryable && !finalAttempt) throw error;
    const code = error instanceof AppError ? error.code : 'WHATSAPP_MEDIA_FAILED';
    ctx.log.warn({ err: error, messageId }, 'whatsapp voice note not read');
    const text =
      error instanceof AppError
        ? say(asker.language, `errors.${error.code}`)
        : say(asker.language, 'whatsapp.reply.voiceFailed');
    await queueReply(ctx, inbound, text, 'failed');
    await setStatus(ctx, inbound.id, 'failed', code);
    return;
  }
  if (!asked) return queueReply(ctx, inbound, say(asker.language, 'whatsapp.reply.unsupported'), 'refused');
  if (!asked.question)
    return queueReply(ctx, inbound, say(asker.language, 'whatsapp.reply.empty'), 'refused');

  // Claimed before answering: a second run of this job (a lost worker) never answers the same message again.
  if (!(await claimInbound(ctx.db, inbound.id, asked.question))) return;
  const lang = questionLanguage(asked.question, asker.language);
  try {
    // A stranger spends the public chat's question limits like a visitor of its link; their number is the address.
    if (asker.kind === 'visitor')
      await takePublicQuestionSlot(
        ctx,
        asker.request.chat,
        { id: asker.visitorId },
        `whatsapp:${inbound.contact}`,
      );
    const stored = await answerQuestion(
      ctx,
      {
        ...asker.request,
        language: asker.language,
        ask: { question: asked.question.slice(0, QUESTION_MAX_LENGTH) },
      },
      { emit: () => {} },
    );
    await queueReply(
      ctx,
      inbound,
      replyText(lang, stored, asker.link, asked.transcript),
      'answered',
      stored.id,
    );
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // Refused before answering (no ready file, no provider, an ended plan): the reason, in the asker's language.
    await queueReply(ctx, inbound, say(lang, `errors.${error.code}`, error.details), 'refused');
  }
}
