import type { AbilityRule, AppAbility, Language, UserKind } from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/database.ts';
import { abilityOf, type RoleVersion } from './ability-cache.ts';

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
  /** `oauth`: an access token the MCP authorization server issued for the user (accepted by the MCP server only). */
  via: 'session' | 'apiKey' | 'oauth';
  sessionId: string | null;
  apiKeyId: string | null;
  /** Set while an operator views the product as this user (an impersonation session): who, and until when. */
  impersonator: Impersonator | null;
}

export interface Impersonator {
  userId: string;
  email: string;
  sessionId: string;
  expiresAt: Date;
}

interface ActorRow extends Record<string, unknown> {
  id: string;
  company_id: string | null;
  kind: UserKind;
  email: string;
  language: Language;
  roles: RoleVersion[] | null;
}

interface SessionRow extends ActorRow {
  impersonator_id: string | null;
  impersonator_email: string | null;
  impersonator_session_id: string | null;
  expires_at: Date | string | null;
}

/**
 * An enabled user whose company (if any) is not suspended: the condition of every way in (session, API key, refresh),
 * so that deactivating a user or suspending their company ends what they hold at the next request.
 */
const admitted = sql`u.disabled_at is null
  and not exists (select 1 from companies c where c.id = u.company_id and c.suspended_at is not null)`;

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
  impersonator: Impersonator | null = null,
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
    impersonator,
  };
}

function impersonatorOf(row: SessionRow): Impersonator | null {
  if (!row.impersonator_id || !row.impersonator_session_id || !row.expires_at) return null;
  return {
    userId: row.impersonator_id,
    email: row.impersonator_email ?? '',
    sessionId: row.impersonator_session_id,
    expiresAt: new Date(row.expires_at),
  };
}

/**
 * The actor of a live session of an admitted user, or null: not revoked, not past its end (an impersonation's time
 * limit), and for an impersonation the operator's own session still open.
 */
export async function loadSessionActor(db: DbOrTx, userId: string, sessionId: string): Promise<Actor | null> {
  const { rows } = await db.execute<SessionRow>(sql`select ${actorColumns},
      i.id as impersonator_id, i.email as impersonator_email, s.impersonator_session_id, s.expires_at
    from auth_sessions s join users u on u.id = s.user_id
    left join auth_sessions o on o.id = s.impersonator_session_id
    left join users i on i.id = o.user_id
    where s.id = ${sessionId} and u.id = ${userId} and s.revoked_at is null and ${admitted}
      and (s.expires_at is null or s.expires_at > now())
      and (s.impersonator_session_id is null or (o.revoked_at is null and i.disabled_at is null))`);
  const row = rows[0];
  return row ? toActor(db, row, 'session', sessionId, null, impersonatorOf(row)) : null;
}

/** The actor of an active personal API key (its owner's permissions), or null. */
export async function loadApiKeyActor(db: DbOrTx, keyHash: string): Promise<Actor | null> {
  const { rows } = await db.execute<
    ActorRow & { key_id: string; use_unrecorded: boolean }
  >(sql`select ${actorColumns},
      k.id as key_id, (k.last_used_at is null or k.last_used_at < now() - interval '1 minute') as use_unrecorded
    from api_keys k join users u on u.id = k.user_id
    where k.key_hash = ${keyHash} and k.revoked_at is null and ${admitted}
      and (k.expires_at is null or k.expires_at > now())`);
  const row = rows[0];
  if (!row) return null;
  // The last use is recorded to the minute: most requests of a busy key cost no write.
  if (row.use_unrecorded)
    await db.execute(sql`update api_keys set last_used_at = now()
      where id = ${row.key_id} and (last_used_at is null or last_used_at < now() - interval '1 minute')`);
  return toActor(db, row, 'apiKey', null, row.key_id);
}

/** The actor of an admitted user holding an OAuth access token of the MCP authorization server (checked by its caller). */
export async function loadOAuthActor(db: DbOrTx, userId: string): Promise<Actor | null> {
  const { rows } = await db.execute<ActorRow>(sql`select ${actorColumns} from users u
    where u.id = ${userId} and ${admitted}`);
  return rows[0] ? toActor(db, rows[0], 'oauth', null, null) : null;
}

/** The actor of a user, for flows that act on their behalf (login, refresh). */
export async function loadUserActor(
  db: DbOrTx,
  userId: string,
  sessionId: string | null,
): Promise<Actor | null> {
  const { rows } = await db.execute<ActorRow>(sql`select ${actorColumns} from users u
    where u.id = ${userId} and ${admitted}`);
  return rows[0] ? toActor(db, rows[0], 'session', sessionId, null) : null;
}
