import type { ChatMessage, Citation, Feedback, Language } from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import type { StoredCitation } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';
import { feedbackForMessages } from '../feedback/feedback.service.ts';
import { livePassageTexts } from '../search/passage-texts.ts';

/** How many messages of a thread are shown (the newest). */
const HISTORY_LIMIT = 500;

interface MessageRow extends Record<string, unknown> {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  status: ChatMessage['status'];
  error_code: string | null;
  no_answer: boolean;
  citations: StoredCitation[];
  provider: ChatMessage['provider'];
  model: string | null;
  created_at: string | Date;
}

const messageColumns = sql`m.id, m.role, m.content, m.status, m.error_code, m.no_answer, m.citations, m.provider,
  m.model, m.created_at`;

/** The passages a list of messages cites. */
const citedPassages = (rows: MessageRow[]) => rows.flatMap((r) => r.citations.map((c) => c.passageId));

function present(
  row: MessageRow,
  texts: Map<string, string>,
  feedback: Map<string, Feedback>,
  lang: Language,
): ChatMessage {
  const citations: Citation[] = row.citations.map((c) => ({ ...c, text: texts.get(c.passageId) ?? null }));
  return {
    id: row.id,
    role: row.role,
    content: row.content,
    status: row.status,
    errorCode: row.error_code,
    errorMessage: row.error_code ? translate(lang, `errors.${row.error_code}`) : null,
    noAnswer: row.no_answer,
    citations,
    provider: row.provider,
    model: row.model,
    feedback: feedback.get(row.id) ?? null,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** A thread's messages, oldest first (the newest HISTORY_LIMIT of them). */
export async function threadMessages(
  db: DbOrTx,
  companyId: string,
  threadId: string,
  lang: Language,
): Promise<ChatMessage[]> {
  const { rows } =
    await db.execute<MessageRow>(sql`select * from (select ${messageColumns} from chat_messages m
    where m.thread_id = ${threadId} order by m.created_at desc, m.id desc limit ${HISTORY_LIMIT}) x
    order by x.created_at, x.role desc`);
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
  const { rows } = await db.execute<MessageRow>(
    sql`select ${messageColumns} from chat_messages m where m.id = ${messageId}`,
  );
  const texts = await livePassageTexts(db, companyId, citedPassages(rows));
  return present(rows[0]!, texts, await feedbackForMessages(db, [messageId]), lang);
}

/**
 * Answers that were still streaming when the server stopped are marked interrupted, their partial text kept. (If
 * another API process is still writing one, its final update sets the real status.)
 */
export async function interruptStrandedAnswers(db: DbOrTx): Promise<number> {
  const { rows } = await db.execute(sql`update chat_messages set status = 'interrupted',
    error_code = 'PROVIDER_STREAM_INTERRUPTED', completed_at = now()
    where status = 'streaming' returning id`);
  return rows.length;
}
