import type { PublicUser, PublicUserDetail } from '@werkwissen/shared';
import type { SQL } from 'drizzle-orm';
import { companyAccess } from '../../access/company.access.ts';
import { userAccess } from '../../access/user.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { notFound } from '../../core/app-error.ts';
import {
  type PublicUserRecord,
  personOfVisitor,
  publicUserList,
  publicUserOf,
} from './public-users.queries.ts';

/**
 * Public users are the visitors of public chats who left a name with an e-mail or phone number (see
 * `public-users.queries.ts`). The actor's User rules must allow reading public users (else they see none), and their
 * Company rules decide whose.
 */
function readableCompanies(actor: Actor): SQL | null {
  if (!userAccess.can(actor, 'read', { kind: 'PublicUser', companyId: actor.companyId })) return null;
  return companyAccess.where(actor, 'read', 'c');
}

const present = (r: PublicUserRecord): PublicUser => ({
  ...r,
  firstSeenAt: r.firstSeenAt.toISOString(),
  lastSeenAt: r.lastSeenAt.toISOString(),
});

/** One row per public user the actor may read, searchable by name, e-mail, phone and company, sorted and paged. */
export async function listPublicUsers(
  ctx: AppContext,
  actor: Actor,
  query: { page: number; pageSize: number; q?: string; sort?: string },
) {
  const { items, total } = await publicUserList(ctx.db, readableCompanies(actor), query);
  return { items: items.map(present), total, page: query.page, pageSize: query.pageSize };
}

/** One public user (by any of their visitor records), with how they used each chat. */
export async function getPublicUser(
  ctx: AppContext,
  actor: Actor,
  visitorId: string,
): Promise<PublicUserDetail> {
  const access = readableCompanies(actor);
  const key = await personOfVisitor(ctx.db, visitorId, access);
  if (!key) throw notFound();
  const { user, chatUse } = await publicUserOf(ctx.db, key, access);
  return {
    ...present(user!),
    chatUse: chatUse.map((u) => ({
      ...u,
      firstSeenAt: u.firstSeenAt.toISOString(),
      lastSeenAt: u.lastSeenAt.toISOString(),
    })),
  };
}
