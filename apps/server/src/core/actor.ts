import type { AbilityRule, AppAbility, Language, UserKind } from '@werkwissen/shared';
import type { DbOrTx } from '../db/database.ts';
import { abilityOf } from './ability-cache.ts';
import {
  type ActorUser,
  admittedUser,
  apiKeyUser,
  recordApiKeyUse,
  type SessionImpersonation,
  sessionUser,
} from './actors.queries.ts';

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

async function toActor(
  db: DbOrTx,
  user: ActorUser,
  via: Actor['via'],
  sessionId: string | null,
  apiKeyId: string | null,
  impersonator: Impersonator | null = null,
): Promise<Actor> {
  const { rules, ability } = await abilityOf(db, { id: user.id, companyId: user.companyId }, user.roles);
  return {
    userId: user.id,
    companyId: user.companyId,
    kind: user.kind,
    email: user.email,
    language: user.language,
    rules,
    ability,
    via,
    sessionId,
    apiKeyId,
    impersonator,
  };
}

function impersonatorOf(session: SessionImpersonation): Impersonator | null {
  if (!session.operatorId || !session.operatorSessionId || !session.expiresAt) return null;
  return {
    userId: session.operatorId,
    email: session.operatorEmail ?? '',
    sessionId: session.operatorSessionId,
    expiresAt: session.expiresAt,
  };
}

/**
 * The actor of a live session of an admitted user, or null: not revoked, not past its end (an impersonation's time
 * limit), and for an impersonation the operator's own session still open.
 */
export async function loadSessionActor(db: DbOrTx, userId: string, sessionId: string): Promise<Actor | null> {
  const found = await sessionUser(db, userId, sessionId);
  return found
    ? toActor(db, found.user, 'session', sessionId, null, impersonatorOf(found.impersonation))
    : null;
}

/** The actor of an active personal API key (its owner's permissions), or null. */
export async function loadApiKeyActor(db: DbOrTx, keyHash: string): Promise<Actor | null> {
  const found = await apiKeyUser(db, keyHash);
  if (!found) return null;
  // The last use is recorded to the minute: most requests of a busy key cost no write.
  if (found.useUnrecorded) await recordApiKeyUse(db, found.keyId);
  return toActor(db, found.user, 'apiKey', null, found.keyId);
}

/** The actor of an admitted user holding an OAuth access token of the MCP authorization server (checked by its caller). */
export async function loadOAuthActor(db: DbOrTx, userId: string): Promise<Actor | null> {
  const user = await admittedUser(db, userId);
  return user ? toActor(db, user, 'oauth', null, null) : null;
}

/** The actor of a user, for flows that act on their behalf (login, refresh). */
export async function loadUserActor(
  db: DbOrTx,
  userId: string,
  sessionId: string | null,
): Promise<Actor | null> {
  const user = await admittedUser(db, userId);
  return user ? toActor(db, user, 'session', sessionId, null) : null;
}
