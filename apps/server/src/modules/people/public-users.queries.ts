import type { PublicUser } from '@werkwissen/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { containsPattern } from '../../db/like.ts';
import type { StoredMessage } from '../chat/chat-messages.queries.ts';

/**
 * Public users are the visitors of public chats who left a name with an e-mail or phone number (`chat_visitors`).
 * A person is everyone of one company with the same e-mail (else the same phone digits), so one record stands for
 * all the chats they used.
 */
export type PublicUserRecord = Omit<PublicUser, 'firstSeenAt' | 'lastSeenAt'> & {
  firstSeenAt: Date;
  lastSeenAt: Date;
};

/** How a public user used one chat. */
export interface ChatUseRecord {
  id: string;
  name: string;
  questions: number;
  firstSeenAt: Date;
  lastSeenAt: Date;
}

/** Which person a visitor record belongs to: their company and their e-mail (else phone digits). */
export interface PersonKey {
  companyId: string;
  person: string;
}

const QUESTION = 'user' satisfies StoredMessage['role'];

const person = sql`coalesce(lower(v.email), regexp_replace(v.phone, '[^0-9+]', '', 'g'))`;

/** The visitors that count as public users, of the companies `access` (a Company rule on `companies c`) lets through. */
const visible = (access: SQL | null): SQL =>
  access
    ? sql`v.name is not null and v.name <> '' and (v.email is not null or v.phone is not null) and ${access}`
    : sql`false`;

interface PersonRow extends Record<string, unknown> {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  company_id: string;
  company_name: string | null;
  chats: Array<{ id: string; name: string }>;
  first_seen_at: Date | string;
  last_seen_at: Date | string;
}

const personColumns = sql`(array_agg(v.id order by v.last_seen_at desc))[1] as id,
  (array_agg(v.name order by v.last_seen_at desc))[1] as name,
  (array_agg(v.email order by v.last_seen_at desc) filter (where v.email is not null))[1] as email,
  (array_agg(v.phone order by v.last_seen_at desc) filter (where v.phone is not null))[1] as phone,
  v.company_id, min(c.name) as company_name,
  jsonb_agg(distinct jsonb_build_object('id', ch.id, 'name', ch.name)) as chats,
  min(v.created_at) as first_seen_at, max(v.last_seen_at) as last_seen_at`;

const fromVisitors = sql`from chat_visitors v join companies c on c.id = v.company_id
  join chats ch on ch.id = v.chat_id`;

const record = (r: PersonRow): PublicUserRecord => ({
  id: r.id,
  name: r.name,
  email: r.email,
  phone: r.phone,
  companyId: r.company_id,
  companyName: r.company_name,
  chats: [...r.chats].sort((a, b) => a.name.localeCompare(b.name)),
  firstSeenAt: new Date(r.first_seen_at),
  lastSeenAt: new Date(r.last_seen_at),
});

const ORDER: Record<string, SQL> = {
  name: sql`lower((array_agg(v.name order by v.last_seen_at desc))[1]) asc`,
  '-name': sql`lower((array_agg(v.name order by v.last_seen_at desc))[1]) desc`,
  lastSeenAt: sql`max(v.last_seen_at) asc`,
  '-lastSeenAt': sql`max(v.last_seen_at) desc`,
};

/**
 * One page of the public users of the companies `access` lets through (none, given null), their name, e-mail, phone
 * or company containing `q`, in the order of `sort` (the most recently seen first by default).
 */
export async function publicUserList(
  db: DbOrTx,
  access: SQL | null,
  query: { page: number; pageSize: number; q?: string; sort?: string },
): Promise<{ items: PublicUserRecord[]; total: number }> {
  const like = query.q ? containsPattern(query.q) : null;
  const where = sql`${visible(access)}${
    like
      ? sql` and (v.name ilike ${like} or v.email ilike ${like} or v.phone ilike ${like} or c.name ilike ${like})`
      : sql``
  }`;
  const order = ORDER[query.sort ?? '-lastSeenAt'] ?? ORDER['-lastSeenAt']!;
  const [items, total] = await Promise.all([
    db.execute<PersonRow>(sql`select ${personColumns} ${fromVisitors} where ${where}
      group by v.company_id, ${person} order by ${order}, 1
      limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`),
    db.execute<{ n: number }>(sql`select count(*)::int as n from (select 1 ${fromVisitors} where ${where}
      group by v.company_id, ${person}) p`),
  ]);
  return { items: items.rows.map(record), total: total.rows[0]?.n ?? 0 };
}

/** The person a visitor record belongs to, if it is a public user `access` lets through. */
export async function personOfVisitor(
  db: DbOrTx,
  visitorId: string,
  access: SQL | null,
): Promise<PersonKey | undefined> {
  const { rows } = await db.execute<{ company_id: string; person: string }>(sql`select v.company_id,
      ${person} as person ${fromVisitors} where v.id = ${visitorId} and ${visible(access)}`);
  return rows[0] && { companyId: rows[0].company_id, person: rows[0].person };
}

/** The public user a person key stands for, with how they used each chat (the most recent first). */
export async function publicUserOf(
  db: DbOrTx,
  key: PersonKey,
  access: SQL | null,
): Promise<{ user: PublicUserRecord | undefined; chatUse: ChatUseRecord[] }> {
  const same = sql`v.company_id = ${key.companyId} and ${person} = ${key.person} and ${visible(access)}`;
  const [{ rows }, { rows: use }] = await Promise.all([
    db.execute<PersonRow>(sql`select ${personColumns} ${fromVisitors} where ${same}
      group by v.company_id, ${person}`),
    db.execute<{
      id: string;
      name: string;
      questions: number;
      first_seen_at: Date | string;
      last_seen_at: Date | string;
    }>(sql`select ch.id, ch.name, min(v.created_at) as first_seen_at, max(v.last_seen_at) as last_seen_at,
        (select count(*)::int from chat_messages m join chat_threads t on t.id = m.thread_id
          where m.role = ${QUESTION} and t.visitor_id = any(array_agg(v.id))) as questions
      ${fromVisitors} where ${same} group by ch.id, ch.name order by max(v.last_seen_at) desc`),
  ]);
  return {
    user: rows[0] && record(rows[0]),
    chatUse: use.map((u) => ({
      id: u.id,
      name: u.name,
      questions: u.questions,
      firstSeenAt: new Date(u.first_seen_at),
      lastSeenAt: new Date(u.last_seen_at),
    })),
  };
}
