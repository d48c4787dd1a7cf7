import type { AbilityRule, AppAbility, Language, UserKind } from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import { abilityOf, type RoleVersion } from '../../access/ability-cache.ts';
import type { DbOrTx } from '../../db/database.ts';

/**
 * Who is making a request, with the permissions of all their roles. Services receive this, never the request, and
 * ask the access modules (src/access) what it may do; `kind` is for presentation only (which sign-in page, which home).
 */
export interface Actor {
  userId: string;
  companyId: string | null;
  kind: UserKind;
  email: string;
  language: Language;
  rules: AbilityRule[];
  ability: AppAbility;
  via: 'session' | 'apiKey';
  sessionId: string | null;
  apiKeyId: string | null;
}

interface ActorRow extends Record<string, unknown> {
  id: string;
  company_id: string | null;
  kind: UserKind;
  email: string;
  language: Language;
  roles: RoleVersion[] | null;
}

// Only which roles in which version: their rules come from the ability cache (ability-cache.ts).
const actorColumns = sql`u.id, u.company_id, u.kind, u.email, u.language,
  (select json_agg(json_build_object('id', r.id, 'version', r.version))
     from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = u.id) as roles`;

async function toActor(
  db: DbOrTx,
  row: ActorRow,
  via: Actor['via'],
  sessionId: string | null,
  apiKeyId: string | null,
): Promise<Actor> {
  const { rules, ability } = await abilityOf(db, { id: row.id, companyId: row.company_id }, row.roles ?? []);
  return {
    userId: row.id,
    companyId: row.company_id,
    kind: row.kind,
    email: row.email,
    language: row.language,
    rules,
    ability,
    via,
    sessionId,
    apiKeyId,
  };
}

/** The actor of a live (not revoked) session of an enabled user, or null. */
export async function loadSessionActor(db: DbOrTx, userId: string, sessionId: string): Promise<Actor | null> {
  const { rows } = await db.execute<ActorRow>(sql`select ${actorColumns}
    from auth_sessions s join users u on u.id = s.user_id
    where s.id = ${sessionId} and u.id = ${userId} and s.revoked_at is null and u.disabled_at is null`);
  return rows[0] ? toActor(db, rows[0], 'session', sessionId, null) : null;
}

/** The actor of an active personal API key (its owner's permissions), or null. */
export async function loadApiKeyActor(db: DbOrTx, keyHash: string): Promise<Actor | null> {
  const { rows } = await db.execute<
    ActorRow & { key_id: string; use_unrecorded: boolean }
  >(sql`select ${actorColumns},
      k.id as key_id, (k.last_used_at is null or k.last_used_at < now() - interval '1 minute') as use_unrecorded
    from api_keys k join users u on u.id = k.user_id
    where k.key_hash = ${keyHash} and k.revoked_at is null and u.disabled_at is null
      and (k.expires_at is null or k.expires_at > now())`);
  const row = rows[0];
  if (!row) return null;
  // The last use is recorded to the minute: most requests of a busy key cost no write.
  if (row.use_unrecorded)
    await db.execute(sql`update api_keys set last_used_at = now()
      where id = ${row.key_id} and (last_used_at is null or last_used_at < now() - interval '1 minute')`);
  return toActor(db, row, 'apiKey', null, row.key_id);
}

/** The actor of a user, for flows that act on their behalf (login, refresh). */
export async function loadUserActor(
  db: DbOrTx,
  userId: string,
  sessionId: string | null,
): Promise<Actor | null> {
  const { rows } = await db.execute<ActorRow>(sql`select ${actorColumns} from users u
    where u.id = ${userId} and u.disabled_at is null`);
  return rows[0] ? toActor(db, rows[0], 'session', sessionId, null) : null;
}
