import type { ChatMessage, Citation, Feedback, Language } from '@werkwissen/shared';
import { notFound } from '../../core/app-error.ts';
import type { DbOrTx } from '../../db/database.ts';
import { translate } from '../../i18n/translator.ts';
import { feedbackForMessages } from '../feedback/feedback.service.ts';
import { livePassageTexts } from '../search/passage-texts.ts';
import {
  findMessage,
  interruptStreamingAnswers,
  type StoredMessage,
  threadMessageList,
} from './chat-messages.queries.ts';

/** How many messages of a thread are shown (the newest). */
const HISTORY_LIMIT = 500;

/** The passages a list of messages cites. */
const citedPassages = (messages: StoredMessage[]) =>
  messages.flatMap((m) => m.citations.map((c) => c.passageId));

function present(
  message: StoredMessage,
  texts: Map<string, string>,
  feedback: Map<string, Feedback>,
  lang: Language,
): ChatMessage {
  const citations: Citation[] = message.citations.map((c) => ({
    ...c,
    text: texts.get(c.passageId) ?? null,
  }));
  return {
    id: message.id,
    role: message.role,
    content: message.content,
    status: message.status,
    errorCode: message.errorCode,
    errorMessage: message.errorCode ? translate(lang, `errors.${message.errorCode}`) : null,
    noAnswer: message.noAnswer,
    citations,
    provider: message.provider,
    model: message.model,
    feedback: feedback.get(message.id) ?? null,
    createdAt: message.createdAt.toISOString(),
  };
}

/** A thread's messages, oldest first (the newest HISTORY_LIMIT of them). */
export async function threadMessages(
  db: DbOrTx,
  companyId: string,
  threadId: string,
  lang: Language,
): Promise<ChatMessage[]> {
  const rows = await threadMessageList(db, threadId, HISTORY_LIMIT);
  const texts = await livePassageTexts(db, companyId, citedPassages(rows));
  const feedback = await feedbackForMessages(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => present(r, texts, feedback, lang));
}

export async function oneMessage(
  db: DbOrTx,
  companyId: string,
  messageId: string,
  lang: Language,
): Promise<ChatMessage> {
  const message = await findMessage(db, messageId);
  if (!message) throw notFound();
  return presentMessage(db, companyId, message, lang);
}

/** A stored message as the API shows it: its citations with their passages' live text, its feedback. */
export async function presentMessage(
  db: DbOrTx,
  companyId: string,
  message: StoredMessage,
  lang: Language,
): Promise<ChatMessage> {
  const texts = await livePassageTexts(db, companyId, citedPassages([message]));
  return present(message, texts, await feedbackForMessages(db, [message.id]), lang);
}

/**
 * Answers that were still streaming when the server stopped are marked interrupted, their partial text kept. (If
 * another API process is still writing one, its final update sets the real status.)
 */
export async function interruptStrandedAnswers(db: DbOrTx): Promise<number> {
  return interruptStreamingAnswers(db);
}
