import { type SQL, sql } from 'drizzle-orm';
import { questionOrigin } from '../../access/feedback.access.ts';
import type { DbOrTx } from '../../db/database.ts';
import type { StoredMessage } from '../chat/chat-messages.queries.ts';
import type { FeedbackFilter, ReportScope } from './report-scope.ts';

const QUESTION = 'user' satisfies StoredMessage['role'];
const ANSWER = 'assistant' satisfies StoredMessage['role'];

/**
 * The report filters that apply to chat messages `m` (questions or answers) of thread `t` and user `u`: company,
 * origin and division (a chat over that division). `from`/`to` are left to the caller, which knows which message's
 * time counts.
 */
function messageScope(scope: ReportScope, filter: Pick<FeedbackFilter, 'divisionId' | 'origin'>): SQL {
  const parts: SQL[] = [
    scope.companyId
      ? sql`(${scope.questions} and m.company_id = ${scope.companyId})`
      : sql`(${scope.questions})`,
  ];
  if (filter.origin) parts.push(sql`${questionOrigin} = ${filter.origin}`);
  if (filter.divisionId) {
    parts.push(
      sql`exists (select 1 from chat_divisions cd where cd.chat_id = m.chat_id and cd.division_id = ${filter.divisionId})`,
    );
  }
  return sql.join(parts, sql` and `);
}

/** How many questions in scope were asked on each day (UTC, YYYY-MM-DD) from `from` up to before `until`. */
export async function questionsPerDay(
  db: DbOrTx,
  scope: ReportScope,
  filter: Pick<FeedbackFilter, 'divisionId' | 'origin'>,
  period: { from: Date; until: Date },
): Promise<Map<string, number>> {
  const { rows } = await db.execute<{ day: string; n: number }>(sql`
    select to_char(m.created_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as n
    from chat_messages m
    join chat_threads t on t.id = m.thread_id
    left join users u on u.id = t.user_id
    where m.role = ${QUESTION} and m.created_at >= ${period.from.toISOString()}::timestamptz
      and m.created_at < ${period.until.toISOString()}::timestamptz and ${messageScope(scope, filter)}
    group by 1`);
  return new Map(rows.map((r) => [r.day, Number(r.n)]));
}

/** A question in scope whose answer found no relevant passage. */
export interface UnansweredQuestion {
  answerId: string;
  companyId: string;
  question: string;
  askedAt: Date;
  divisionIds: string[];
}

/**
 * Up to `limit` of the newest questions in scope, asked from `from` up to before `until` (each end if given), whose
 * answer found no relevant passage.
 */
export async function unansweredQuestions(
  db: DbOrTx,
  scope: ReportScope,
  filter: Pick<FeedbackFilter, 'divisionId' | 'origin'>,
  period: { from?: Date; until?: Date },
  limit: number,
): Promise<UnansweredQuestion[]> {
  const asked = [
    period.from ? sql`q.created_at >= ${period.from.toISOString()}::timestamptz` : sql`true`,
    period.until ? sql`q.created_at < ${period.until.toISOString()}::timestamptz` : sql`true`,
  ];
  const { rows } = await db.execute<{
    message_id: string;
    company_id: string;
    question: string;
    asked_at: string | Date;
    division_ids: string[] | null;
  }>(sql`
    select m.id as message_id, m.company_id, q.content as question, q.created_at as asked_at,
      array(select cd.division_id from chat_divisions cd where cd.chat_id = m.chat_id) as division_ids
    from chat_messages m
    join chat_messages q on q.id = m.question_id
    join chat_threads t on t.id = m.thread_id
    left join users u on u.id = t.user_id
    where m.role = ${ANSWER} and m.no_answer and ${messageScope(scope, filter)} and ${sql.join(asked, sql` and `)}
    order by q.created_at desc
    limit ${limit}`);
  return rows.map((r) => ({
    answerId: r.message_id,
    companyId: r.company_id,
    question: r.question,
    askedAt: new Date(r.asked_at),
    divisionIds: r.division_ids ?? [],
  }));
}
