import type { Action, ApiKey } from '@werkwissen/shared';
import { and, asc, count, desc, eq, gt, ilike, isNull, or } from 'drizzle-orm';
import { apiKeyAccess } from '../../access/api-key.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { refuseWhileImpersonating } from '../../core/impersonation-guard.ts';
import { randomToken, sha256 } from '../../core/token-crypto.ts';
import type { DbOrTx } from '../../db/database.ts';
import { containsPattern } from '../../db/like.ts';
import { apiKeys } from '../../db/schema/index.ts';
import { incrementQuestionCount } from './api-keys.queries.ts';

const present = (k: typeof apiKeys.$inferSelect): ApiKey => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
  questionCount: k.questionCount,
  expiresAt: k.expiresAt?.toISOString() ?? null,
});

/**
 * The actor's own unrevoked keys their ApiKey rules allow `action` on. Keys are personal: these routes never show
 * anyone else's, whatever a role allows (the back office would list keys through its own routes).
 */
const ownKeys = (actor: Actor, action: Action) =>
  and(eq(apiKeys.userId, actor.userId), apiKeyAccess.where(actor, action), isNull(apiKeys.revokedAt));

const unexpired = () => or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, new Date()));

const SORTABLE = {
  name: apiKeys.name,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  questionCount: apiKeys.questionCount,
};

/** Lists the actor's own active keys. */
export async function listApiKeys(
  ctx: AppContext,
  actor: Actor,
  query: { page: number; pageSize: number; q?: string; sort?: string },
) {
  const { page, pageSize } = query;
  const where = and(
    ownKeys(actor, 'read'),
    unexpired(),
    query.q ? ilike(apiKeys.name, containsPattern(query.q)) : undefined,
  );
  const sortKey = (query.sort?.replace(/^-/, '') ?? 'createdAt') as keyof typeof SORTABLE;
  const order = query.sort && !query.sort.startsWith('-') ? asc(SORTABLE[sortKey]) : desc(SORTABLE[sortKey]);
  const [items, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(apiKeys)
      .where(where)
      .orderBy(order, desc(apiKeys.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    ctx.db.select({ n: count() }).from(apiKeys).where(where),
  ]);
  return { items: items.map(present), total: total?.n ?? 0, page, pageSize };
}

/**
 * Creates a key; the secret exists only in this answer, the database keeps its SHA-256. Only a signed-in session
 * creates keys: a key that minted keys would outlive its own revocation (403 for a caller authenticated by a key).
 */
export async function createApiKey(ctx: AppContext, actor: Actor, name: string, expiresInDays?: number) {
  if (actor.via === 'apiKey') throw new AppError('FORBIDDEN');
  refuseWhileImpersonating(actor);
  apiKeyAccess.assertCan(actor, 'create', { userId: actor.userId, companyId: actor.companyId });
  const token = `ww_${randomToken(32)}`;
  const [row] = await ctx.db
    .insert(apiKeys)
    .values({
      userId: actor.userId,
      companyId: actor.companyId,
      name,
      prefix: token.slice(0, 10),
      keyHash: sha256(token),
      expiresAt: expiresInDays ? new Date(Date.now() + expiresInDays * 86_400_000) : null,
    })
    .returning();
  return { apiKey: present(row!), token };
}

/**
 * Revokes one of the actor's keys; anyone else's key is 404, as if it did not exist. A key may revoke its owner's
 * keys (itself too): taking access away is never an escalation.
 */
export async function revokeApiKey(ctx: AppContext, actor: Actor, apiKeyId: string): Promise<void> {
  refuseWhileImpersonating(actor);
  const [row] = await ctx.db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, apiKeyId), ownKeys(actor, 'delete')))
    .returning({ id: apiKeys.id });
  if (!row) throw notFound();
}

/** Counts one question asked with a key, for its owner's API keys page. */
export async function countKeyQuestion(ctx: AppContext, apiKeyId: string): Promise<void> {
  await incrementQuestionCount(ctx.db, apiKeyId);
}

/** Revokes every active key of a user, in the caller's transaction (account recovery, a password change on request). */
export async function revokeUserApiKeys(tx: DbOrTx, userId: string): Promise<void> {
  await tx
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
}
