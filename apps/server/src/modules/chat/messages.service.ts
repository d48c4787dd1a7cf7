import type { ChatMessage, Citation, Language } from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import type { StoredCitation } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';

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
  fb_id: string | null;
  fb_liked: boolean | null;
  fb_mood: 'happy' | 'neutral' | 'negative' | null;
  fb_rating: number | null;
  fb_comment: string | null;
  fb_tag_id: string | null;
  fb_tag_name: string | null;
  fb_updated_at: string | Date | null;
}

const messageColumns = sql`m.id, m.role, m.content, m.status, m.error_code, m.no_answer, m.citations, m.provider,
  m.model, m.created_at, fb.id as fb_id, fb.liked as fb_liked, fb.mood as fb_mood, fb.rating as fb_rating,
  fb.comment as fb_comment, fb.tag_id as fb_tag_id, t.name as fb_tag_name, fb.updated_at as fb_updated_at`;
const messageJoins = sql`left join feedback fb on fb.message_id = m.id left join tags t on t.id = fb.tag_id`;

/** The live text of cited passages (absent once their file was deleted or replaced). */
async function passageTexts(db: DbOrTx, companyId: string, rows: MessageRow[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.flatMap((r) => r.citations.map((c) => c.passageId)))];
  if (ids.length === 0) return new Map();
  const { rows: found } = await db.execute<{
    id: string;
    text: string;
  }>(sql`select p.id, p.text from passages p
    join files f on f.id = p.file_id and f.active_generation = p.generation
    where p.id = any(${sql.param(ids)}::uuid[]) and p.company_id = ${companyId}`);
  return new Map(found.map((p) => [p.id, p.text]));
}

function present(row: MessageRow, texts: Map<string, string>, lang: Language): ChatMessage {
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
    feedback: row.fb_id
      ? {
          id: row.fb_id,
          messageId: row.id,
          liked: row.fb_liked,
          mood: row.fb_mood,
          rating: row.fb_rating,
          comment: row.fb_comment,
          tagId: row.fb_tag_id,
          tagName: row.fb_tag_name,
          updatedAt: new Date(row.fb_updated_at!).toISOString(),
        }
      : null,
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
    ${messageJoins} where m.thread_id = ${threadId} order by m.created_at desc, m.id desc limit ${HISTORY_LIMIT}) x
    order by x.created_at, x.role desc`);
  const texts = await passageTexts(db, companyId, rows);
  return rows.map((r) => present(r, texts, lang));
}

export async function oneMessage(
  db: DbOrTx,
  companyId: string,
  messageId: string,
  lang: Language,
): Promise<ChatMessage> {
  const { rows } = await db.execute<MessageRow>(
    sql`select ${messageColumns} from chat_messages m ${messageJoins} where m.id = ${messageId}`,
  );
  const texts = await passageTexts(db, companyId, rows);
  return present(rows[0]!, texts, lang);
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
