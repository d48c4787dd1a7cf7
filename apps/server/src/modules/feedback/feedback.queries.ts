import type { MessageStatus, UserKind } from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import type { StoredCitation } from '../../db/schema/index.ts';
import type { StoredMessage } from '../chat/chat-messages.queries.ts';

/** An answer about to be rated, with what feedback copies of it: its question, chat, divisions and who asked. */
export interface RatedAnswer {
  id: string;
  companyId: string;
  chatId: string;
  chatName: string;
  content: string;
  noAnswer: boolean;
  citations: StoredCitation[];
  question: string | null;
  divisionIds: string[];
  userId: string | null;
  visitorId: string | null;
  userKind: UserKind | null;
  firstName: string | null;
  lastName: string | null;
  visitorName: string | null;
  visitorPhone: string | null;
  visitorEmail: string | null;
}

interface AnswerRow extends Record<string, unknown> {
  id: string;
  company_id: string;
  chat_id: string;
  chat_name: string;
  content: string;
  no_answer: boolean;
  citations: StoredCitation[] | null;
  question: string | null;
  division_ids: string[] | null;
  user_id: string | null;
  visitor_id: string | null;
  user_kind: UserKind | null;
  first_name: string | null;
  last_name: string | null;
  visitor_name: string | null;
  visitor_phone: string | null;
  visitor_email: string | null;
}

const ANSWER = 'assistant' satisfies StoredMessage['role'];
const STREAMING: MessageStatus = 'streaming';

/**
 * The finished answer `messageId` of the asker's own thread (a user's, or a public chat visitor's), if there is one.
 */
export async function answerToRate(
  db: DbOrTx,
  messageId: string,
  asker: { userId: string } | { visitorId: string },
): Promise<RatedAnswer | undefined> {
  const own = 'userId' in asker ? sql`t.user_id = ${asker.userId}` : sql`t.visitor_id = ${asker.visitorId}`;
  const { rows } = await db.execute<AnswerRow>(sql`
    select a.id, a.company_id, a.chat_id, c.name as chat_name, a.content, a.no_answer, a.citations,
      q.content as question,
      array(select cd.division_id from chat_divisions cd where cd.chat_id = a.chat_id order by cd.division_id)
        as division_ids,
      t.user_id, t.visitor_id, u.kind as user_kind, u.first_name, u.last_name,
      v.name as visitor_name, v.phone as visitor_phone, v.email as visitor_email
    from chat_messages a
    join chat_threads t on t.id = a.thread_id
    join chats c on c.id = a.chat_id
    left join chat_messages q on q.id = a.question_id
    left join users u on u.id = t.user_id
    left join chat_visitors v on v.id = t.visitor_id
    where a.id = ${messageId} and a.role = ${ANSWER} and a.status <> ${STREAMING} and ${own}`);
  const r = rows[0];
  if (!r) return undefined;
  return {
    id: r.id,
    companyId: r.company_id,
    chatId: r.chat_id,
    chatName: r.chat_name,
    content: r.content,
    noAnswer: r.no_answer,
    citations: r.citations ?? [],
    question: r.question,
    divisionIds: r.division_ids ?? [],
    userId: r.user_id,
    visitorId: r.visitor_id,
    userKind: r.user_kind,
    firstName: r.first_name,
    lastName: r.last_name,
    visitorName: r.visitor_name,
    visitorPhone: r.visitor_phone,
    visitorEmail: r.visitor_email,
  };
}
