import type { Language, UserKind } from '@werkwissen/shared';
import { and, eq, gt, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/database.ts';
import { apiKeys, authSessions, users } from '../db/schema/index.ts';
import type { RoleVersion } from './ability-cache.ts';

/** An admitted user as an actor is built from: who, of which company, and which roles in which version. */
export interface ActorUser {
  id: string;
  companyId: string | null;
  kind: UserKind;
  email: string;
  language: Language;
  roles: RoleVersion[];
}

/** A live session's impersonation: the operator and their own session, and when it ends. */
export interface SessionImpersonation {
  operatorId: string | null;
  operatorEmail: string | null;
  operatorSessionId: string | null;
  expiresAt: Date | null;
}

/**
 * An enabled user whose company (if any) is not suspended: the condition of every way in (session, API key, refresh),
 * so that deactivating a user or suspending their company ends what they hold at the next request.
 */
const admitted: SQL = sql`${users.disabledAt} is null
  and not exists (select 1 from companies c where c.id = ${users.companyId} and c.suspended_at is not null)`;

// Only which roles in which version: their rules come from the ability cache (ability-cache.ts). The user's id is
// qualified by hand: Drizzle renders a column of a select list's correlated subquery unqualified.
const actorUser = {
  id: users.id,
  companyId: users.companyId,
  kind: users.kind,
  email: users.email,
  language: users.language,
  roles: sql<RoleVersion[] | null>`(select json_agg(json_build_object('id', r.id, 'version', r.version))
     from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = "users"."id")`,
};

const toActorUser = (row: Omit<ActorUser, 'roles'> & { roles: RoleVersion[] | null }): ActorUser => ({
  id: row.id,
  companyId: row.companyId,
  kind: row.kind,
  email: row.email,
  language: row.language,
  roles: row.roles ?? [],
});

const operatorSession = alias(authSessions, 'operator_session');
const operator = alias(users, 'operator');

/**
 * The admitted user of a live session, with its impersonation: not revoked, not past its end (an impersonation's
 * time limit), and for an impersonation the operator's own session still open.
 */
export async function sessionUser(
  db: DbOrTx,
  userId: string,
  sessionId: string,
): Promise<{ user: ActorUser; impersonation: SessionImpersonation } | null> {
  const [row] = await db
    .select({
      ...actorUser,
      operatorId: operator.id,
      operatorEmail: operator.email,
      operatorSessionId: authSessions.impersonatorSessionId,
      expiresAt: authSessions.expiresAt,
    })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .leftJoin(operatorSession, eq(operatorSession.id, authSessions.impersonatorSessionId))
    .leftJoin(operator, eq(operator.id, operatorSession.userId))
    .where(
      and(
        eq(authSessions.id, sessionId),
        eq(users.id, userId),
        isNull(authSessions.revokedAt),
        admitted,
        or(isNull(authSessions.expiresAt), gt(authSessions.expiresAt, sql`now()`)),
        or(
          isNull(authSessions.impersonatorSessionId),
          and(isNull(operatorSession.revokedAt), isNull(operator.disabledAt)),
        ),
      ),
    );
  if (!row) return null;
  const { operatorId, operatorEmail, operatorSessionId, expiresAt, ...user } = row;
  return {
    user: toActorUser(user),
    impersonation: { operatorId, operatorEmail, operatorSessionId, expiresAt },
  };
}

/** A key's use is recorded to the minute: a last use older than this is recorded again. */
const unrecordedSince = sql`now() - interval '1 minute'`;

/** The admitted owner of an active personal API key, with the key's id and whether its last use is to record. */
export async function apiKeyUser(
  db: DbOrTx,
  keyHash: string,
): Promise<{ user: ActorUser; keyId: string; useUnrecorded: boolean } | null> {
  const [row] = await db
    .select({
      ...actorUser,
      keyId: apiKeys.id,
      useUnrecorded: sql<boolean>`(${apiKeys.lastUsedAt} is null or ${apiKeys.lastUsedAt} < ${unrecordedSince})`,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(
      and(
        eq(apiKeys.keyHash, keyHash),
        isNull(apiKeys.revokedAt),
        admitted,
        or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`)),
      ),
    );
  if (!row) return null;
  const { keyId, useUnrecorded, ...user } = row;
  return { user: toActorUser(user), keyId, useUnrecorded };
}

/** Records a key's use, to the minute: a use within the last minute is recorded already. */
export async function recordApiKeyUse(db: DbOrTx, keyId: string): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(eq(apiKeys.id, keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, unrecordedSince))),
    );
}

/** The user with this id, if admitted. */
export async function admittedUser(db: DbOrTx, userId: string): Promise<ActorUser | null> {
  const [row] = await db
    .select(actorUser)
    .from(users)
    .where(and(eq(users.id, userId), admitted));
  return row ? toActorUser(row) : null;
}
