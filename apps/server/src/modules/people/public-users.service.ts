import type { PublicUser, PublicUserDetail } from '@werkwissen/shared';
import { type SQL, sql } from 'drizzle-orm';
import { companyAccess } from '../../access/company.access.ts';
import { userAccess } from '../../access/user.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { notFound } from '../../core/app-error.ts';
import { containsPattern } from '../../db/like.ts';

/**
 * Public users are the visitors of public chats who left a name with an e-mail or phone number (`chat_visitors`).
 * A person is everyone of one company with the same e-mail (else the same phone digits), so one row stands for all
 * the chats they used. The actor's User rules must allow reading public users, and their Company rules decide whose.
 */
const person = sql`coalesce(lower(v.email), regexp_replace(v.phone, '[^0-9+]', '', 'g'))`;

function visible(actor: Actor): SQL {
  if (!userAccess.can(actor, 'read', { kind: 'PublicUser', companyId: actor.companyId })) return sql`false`;
  return sql`v.name is not null and v.name <> '' and (v.email is not null or v.phone is not null)
    and ${companyAccess.where(actor, 'read', 'c')}`;
}

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

const present = (r: PersonRow): PublicUser => ({
  id: r.id,
  name: r.name,
  email: r.email,
  phone: r.phone,
  companyId: r.company_id,
  companyName: r.company_name,
  chats: [...r.chats].sort((a, b) => a.name.localeCompare(b.name)),
  firstSeenAt: new Date(r.first_seen_at).toISOString(),
  lastSeenAt: new Date(r.last_seen_at).toISOString(),
});

const ORDER: Record<string, SQL> = {
  name: sql`lower((array_agg(v.name order by v.last_seen_at desc))[1]) asc`,
  '-name': sql`lower((array_agg(v.name order by v.last_seen_at desc))[1]) desc`,
  lastSeenAt: sql`max(v.last_seen_at) asc`,
  '-lastSeenAt': sql`max(v.last_seen_at) desc`,
};

/** One row per public user the actor may read, searchable by name, e-mail, phone and company, sorted and paged. */
export async function listPublicUsers(
  ctx: AppContext,
  actor: Actor,
  query: { page: number; pageSize: number; q?: string; sort?: string },
) {
  const like = query.q ? containsPattern(query.q) : null;
  const where = sql`${visible(actor)}${
    like
      ? sql` and (v.name ilike ${like} or v.email ilike ${like} or v.phone ilike ${like} or c.name ilike ${like})`
      : sql``
  }`;
  const order = ORDER[query.sort ?? '-lastSeenAt'] ?? ORDER['-lastSeenAt']!;
  const [items, total] = await Promise.all([
    ctx.db.execute<PersonRow>(sql`select ${personColumns} ${fromVisitors} where ${where}
      group by v.company_id, ${person} order by ${order}, 1
      limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`),
    ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from (select 1 ${fromVisitors} where ${where}
      group by v.company_id, ${person}) p`),
  ]);
  return {
    items: items.rows.map(present),
    total: total.rows[0]?.n ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** One public user (by any of their visitor records), with how they used each chat. */
export async function getPublicUser(
  ctx: AppContext,
  actor: Actor,
  visitorId: string,
): Promise<PublicUserDetail> {
  const { rows: found } = await ctx.db.execute<{
    company_id: string;
    person: string;
  }>(sql`select v.company_id,
      ${person} as person ${fromVisitors} where v.id = ${visitorId} and ${visible(actor)}`);
  const key = found[0];
  if (!key) throw notFound();
  const same = sql`v.company_id = ${key.company_id} and ${person} = ${key.person} and ${visible(actor)}`;
  const [{ rows }, { rows: use }] = await Promise.all([
    ctx.db.execute<PersonRow>(sql`select ${personColumns} ${fromVisitors} where ${same}
      group by v.company_id, ${person}`),
    ctx.db.execute<{
      id: string;
      name: string;
      questions: number;
      first_seen_at: Date | string;
      last_seen_at: Date | string;
    }>(sql`select ch.id, ch.name, min(v.created_at) as first_seen_at, max(v.last_seen_at) as last_seen_at,
        (select count(*)::int from chat_messages m join chat_threads t on t.id = m.thread_id
          where m.role = 'user' and t.visitor_id = any(array_agg(v.id))) as questions
      ${fromVisitors} where ${same} group by ch.id, ch.name order by max(v.last_seen_at) desc`),
  ]);
  return {
    ...present(rows[0]!),
    chatUse: use.map((u) => ({
      id: u.id,
      name: u.name,
      questions: u.questions,
      firstSeenAt: new Date(u.first_seen_at).toISOString(),
      lastSeenAt: new Date(u.last_seen_at).toISOString(),
    })),
  };
}
