import {
  type AbilityRule,
  type Action,
  buildAbility,
  conditionProblems,
  holdsRight,
  interpolateRules,
  type Subject,
  subjectOf,
} from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import type { Actor } from '../auth/actor.ts';

/** One right a rule grants: an action on a subject, with the rule's conditions and fields. */
interface Grant {
  action: Action;
  subject: Subject;
  conditions?: Record<string, unknown>;
  fields?: string | string[];
}

const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
/** JSON with object keys in order: the database (jsonb) gives stored conditions back in an order of its own. */
const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([k, v]) => [k, canonical(v)]),
        )
      : value;
const keyOf = (g: Grant) =>
  JSON.stringify(canonical([g.action, g.subject, g.conditions ?? null, g.fields ?? null]));

function grantsOf(rules: AbilityRule[]): Grant[] {
  return rules
    .filter((r) => !r.inverted)
    .flatMap((r) =>
      list(r.action).flatMap((action) =>
        list(r.subject).map((subject) => ({ action, subject, conditions: r.conditions, fields: r.fields })),
      ),
    );
}

const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/**
 * Whether the caller holds a right themselves: all of it, or, for a right bound to plain values (`{ companyId: X }`),
 * the resource those values describe. Conservative: a condition of the caller's on any other attribute fails.
 */
function holds(actor: Actor, grant: Grant): boolean {
  if (holdsRight(actor.ability, grant.action, grant.subject)) return true;
  if (grant.fields || !grant.conditions) return false;
  const [bound] = interpolateRules(
    [{ action: grant.action, subject: grant.subject, conditions: grant.conditions }],
    {
      user: { id: actor.userId, companyId: actor.companyId },
    },
  );
  const values = bound!.conditions!;
  if (!Object.values(values).every(isScalar)) return false;
  return actor.ability.can(grant.action, subjectOf(grant.subject, values));
}

/** ROLE_RULES_INVALID unless the server can read every rule's conditions in SQL. */
export function assertReadableRules(rules: AbilityRule[]): void {
  const problems = rules.flatMap(conditionProblems);
  if (problems.length > 0) throw new AppError('ROLE_RULES_INVALID', { problems });
}

/** ROLE_GRANT_EXCEEDS_OWN when `after` grants a right, not in `before`, that the caller does not hold. */
export function assertGrantsHeld(actor: Actor, before: AbilityRule[], after: AbilityRule[]): void {
  const had = new Set(grantsOf(before).map(keyOf));
  const beyond = grantsOf(after).filter((g) => !had.has(keyOf(g)) && !holds(actor, g));
  if (beyond.length > 0) {
    throw new AppError('ROLE_GRANT_EXCEEDS_OWN', {
      rights: beyond.map((g) => `${g.action} ${g.subject}`),
    });
  }
}

/** ROLE_OWN when the caller holds one of these roles. */
export async function assertNotOwnRole(db: DbOrTx, actor: Actor, roleIds: string[]): Promise<void> {
  if (roleIds.length === 0) return;
  const { rows } = await db.execute(sql`select 1 from user_roles
    where user_id = ${actor.userId} and role_id in (${sql.join(
      roleIds.map((id) => sql`${id}`),
      sql`, `,
    )})`);
  if (rows.length > 0) throw new AppError('ROLE_OWN');
}

/**
 * Run inside the transaction of a change, after it: LAST_ADMINISTRATOR when no active user (enabled, with a
 * password) holds the Administrator role any more, ROLE_LOCKOUT when no role held by an active operator (a user of
 * no company: only they reach roles) may change roles.
 * The thrown error rolls the change back.
 */
export async function assertPlatformStillGoverned(tx: DbOrTx): Promise<void> {
  const active = sql`u.disabled_at is null and u.password_hash is not null`;
  const { rows: admins } = await tx.execute(sql`select 1 from users u
    join user_roles ur on ur.user_id = u.id join roles r on r.id = ur.role_id
    where r.kind = 'Administrator' and ${active} limit 1`);
  if (admins.length === 0) throw new AppError('LAST_ADMINISTRATOR');
  const { rows: held } = await tx.execute<{ rules: AbilityRule[] }>(sql`select r.rules from roles r
    where exists (select 1 from user_roles ur join users u on u.id = ur.user_id
      where ur.role_id = r.id and u.company_id is null and ${active})`);
  const governs = held.some(({ rules }) =>
    buildAbility(interpolateRules(rules, { user: { id: '', companyId: null } })).can('update', 'Role'),
  );
  if (!governs) throw new AppError('ROLE_LOCKOUT');
}
