import type { FileStatus, MessageStatus } from '@werkwissen/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import type { StoredMessage } from '../chat/chat-messages.queries.ts';

const QUESTION = 'user' satisfies StoredMessage['role'];
const ANSWER = 'assistant' satisfies StoredMessage['role'];
const STREAMING: MessageStatus = 'streaming';
const FAILED: FileStatus = 'failed';

/** Whose rows count: every company's, or (a caller who belongs to a company) only theirs. */
export interface FigureScope {
  /** The period's first moment and the first moment after it (UTC). */
  start: string;
  end: string;
  from: string;
  to: string;
  companyId: string | null;
}

/** A condition on a table alias's company column: true for the operator, their company for anyone else. */
const ofCompany = (scope: FigureScope, column: SQL) =>
  scope.companyId ? sql`${column} = ${scope.companyId}` : sql`true`;

/** `column` inside the period. */
const inPeriod = (scope: FigureScope, column: SQL) =>
  sql`${column} >= ${scope.start}::timestamptz and ${column} < ${scope.end}::timestamptz`;

const utcDay = (column: SQL) => sql`(${column} at time zone 'UTC')::date`;

/**
 * Who was active on which day: company users who signed in (a new session) or asked a question. Operators and
 * visitors of public chats are not counted.
 */
const activity = (scope: FigureScope) => sql`
  select ${utcDay(sql`s.created_at`)} as day, s.user_id
  from auth_sessions s join users u on u.id = s.user_id
  where ${inPeriod(scope, sql`s.created_at`)} and u.company_id is not null and ${ofCompany(scope, sql`u.company_id`)}
  union all
  select ${utcDay(sql`m.created_at`)} as day, t.user_id
  from chat_messages m join chat_threads t on t.id = m.thread_id join users u on u.id = t.user_id
  where m.role = ${QUESTION} and ${inPeriod(scope, sql`m.created_at`)} and u.company_id is not null
    and ${ofCompany(scope, sql`m.company_id`)}`;

type Row = Record<string, unknown>;
const n = (value: unknown) => Number(value ?? 0);

/** The figures of each day of the period, every day listed. */
export async function dailyFigures(db: DbOrTx, scope: FigureScope) {
  const { rows } = await db.execute<Row>(sql`
    with days as (
      select d::date as day from generate_series(${scope.from}::timestamp, ${scope.to}::timestamp, interval '1 day') d
    ),
    messages as (
      select ${utcDay(sql`m.created_at`)} as day,
        count(*) filter (where m.role = ${QUESTION}) as questions,
        count(*) filter (where m.role = ${ANSWER} and m.status <> ${STREAMING}) as answers,
        count(*) filter (where m.role = ${ANSWER} and m.status <> ${STREAMING} and not m.no_answer) as answered
      from chat_messages m
      where ${inPeriod(scope, sql`m.created_at`)} and ${ofCompany(scope, sql`m.company_id`)}
      group by 1
    ),
    judged as (
      select ${utcDay(sql`f.created_at`)} as day,
        count(*) filter (where f.liked = true) as likes,
        count(*) filter (where f.liked = false) as dislikes
      from feedback f
      where ${inPeriod(scope, sql`f.created_at`)} and ${ofCompany(scope, sql`f.company_id`)}
      group by 1
    ),
    failed as (
      select ${utcDay(sql`f.updated_at`)} as day, count(*) as failed_files
      from files f
      where f.status = ${FAILED} and ${inPeriod(scope, sql`f.updated_at`)} and ${ofCompany(scope, sql`f.company_id`)}
      group by 1
    ),
    active as (
      select e.day, count(distinct e.user_id) as active_users from (${activity(scope)}) e group by 1
    )
    select to_char(days.day, 'YYYY-MM-DD') as date,
      coalesce(active.active_users, 0)::int as active_users,
      coalesce(messages.questions, 0)::int as questions,
      coalesce(messages.answers, 0)::int as answers,
      coalesce(messages.answered, 0)::int as answered,
      coalesce(judged.likes, 0)::int as likes,
      coalesce(judged.dislikes, 0)::int as dislikes,
      coalesce(failed.failed_files, 0)::int as failed_files
    from days
    left join messages on messages.day = days.day
    left join judged on judged.day = days.day
    left join failed on failed.day = days.day
    left join active on active.day = days.day
    order by days.day`);
  return rows.map((r) => ({
    date: String(r.date),
    activeUsers: n(r.active_users),
    questions: n(r.questions),
    answers: n(r.answers),
    answered: n(r.answered),
    likes: n(r.likes),
    dislikes: n(r.dislikes),
    failedFiles: n(r.failed_files),
  }));
}

const week = (column: SQL) => sql`date_trunc('week', ${utcDay(column)})::date`;

/** The figures of each week (from Monday) of the period, every week listed, with running totals of the files. */
export async function weeklyFigures(db: DbOrTx, scope: FigureScope) {
  const { rows } = await db.execute<Row>(sql`
    with weeks as (
      select w::date as week
      from generate_series(date_trunc('week', ${scope.from}::timestamp), ${scope.to}::timestamp, interval '1 week') w
    ),
    new_companies as (
      select ${week(sql`c.created_at`)} as week, count(*) as n
      from companies c
      where ${inPeriod(scope, sql`c.created_at`)} and ${ofCompany(scope, sql`c.id`)}
      group by 1
    ),
    sign_ups as (
      select ${week(sql`u.created_at`)} as week, count(*) as n
      from users u
      where ${inPeriod(scope, sql`u.created_at`)} and u.company_id is not null and ${ofCompany(scope, sql`u.company_id`)}
      group by 1
    ),
    added as (
      select ${week(sql`f.created_at`)} as week, count(*) as files, sum(f.size_bytes) as bytes
      from files f
      where ${inPeriod(scope, sql`f.created_at`)} and ${ofCompany(scope, sql`f.company_id`)}
      group by 1
    ),
    earlier as (
      select count(*) as files, coalesce(sum(f.size_bytes), 0) as bytes
      from files f
      where f.created_at < ${scope.start}::timestamptz and ${ofCompany(scope, sql`f.company_id`)}
    ),
    active as (
      select date_trunc('week', e.day)::date as week, count(distinct e.user_id) as n from (${activity(scope)}) e group by 1
    )
    select to_char(weeks.week, 'YYYY-MM-DD') as week,
      coalesce(new_companies.n, 0)::int as new_companies,
      coalesce(sign_ups.n, 0)::int as sign_ups,
      coalesce(active.n, 0)::int as active_users,
      coalesce(added.files, 0)::int as files_added,
      coalesce(added.bytes, 0)::bigint as bytes_added,
      (earlier.files + sum(coalesce(added.files, 0)) over (order by weeks.week))::bigint as files,
      (earlier.bytes + sum(coalesce(added.bytes, 0)) over (order by weeks.week))::bigint as storage_bytes
    from weeks
    cross join earlier
    left join new_companies on new_companies.week = weeks.week
    left join sign_ups on sign_ups.week = weeks.week
    left join added on added.week = weeks.week
    left join active on active.week = weeks.week
    order by weeks.week`);
  return rows.map((r) => ({
    week: String(r.week),
    newCompanies: n(r.new_companies),
    signUps: n(r.sign_ups),
    activeUsers: n(r.active_users),
    filesAdded: n(r.files_added),
    bytesAdded: n(r.bytes_added),
    files: n(r.files),
    storageBytes: n(r.storage_bytes),
  }));
}

/** What no series holds: the companies at the end of the period and the users active in it (each once). */
export async function periodCounts(db: DbOrTx, scope: FigureScope) {
  const { rows } = await db.execute<Row>(sql`select
    (select count(*)::int from companies c
      where c.created_at < ${scope.end}::timestamptz and ${ofCompany(scope, sql`c.id`)}) as companies,
    (select count(distinct e.user_id)::int from (${activity(scope)}) e) as active_users`);
  return { companies: n(rows[0]?.companies), activeUsers: n(rows[0]?.active_users) };
}
