import {
  type AbilityRule,
  type AppAbility,
  abilityRuleSchema,
  buildAbility,
  conditionProblems,
  interpolateRules,
} from '@werkwissen/shared';
import { inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/database.ts';
import { roles as storedRoles } from '../db/schema/index.ts';

/** A role as a user's row names it: which role, in which version of its rules. */
export interface RoleVersion {
  id: string;
  version: number;
}

export interface UserAbility {
  /** The rules of all the user's roles, placeholders filled in (what the browser receives). */
  rules: AbilityRule[];
  ability: AppAbility;
}

const MAX_ENTRIES = 2_000;
const cache = new Map<string, UserAbility>();

const keyOf = (user: { id: string; companyId: string | null }, roles: RoleVersion[]) =>
  `${user.id}|${user.companyId ?? ''}|${[...roles]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((r) => `${r.id}:${r.version}`)
    .join(',')}`;

const storedRules = abilityRuleSchema.array();

/** A role's stored rules, or an error naming what the server cannot read (a rule is never half applied). */
function readRules(role: { id: string; rules: unknown }): AbilityRule[] {
  const parsed = storedRules.safeParse(role.rules);
  const problems = parsed.success
    ? parsed.data.flatMap(conditionProblems)
    : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  // Our fault, not the caller's: logged with the request id, answered as INTERNAL.
  if (problems.length > 0) throw new Error(`role ${role.id} has unreadable rules: ${problems.join('; ')}`);
  return parsed.data!;
}

/**
 * The ability of a user holding these roles. Cached by the user, their company and each role's id and version (a
 * trigger raises the version with every change of the rules), never by session: a changed role takes effect on its
 * holders' next request, and an unchanged one is not read again.
 */
export async function abilityOf(
  db: DbOrTx,
  user: { id: string; companyId: string | null },
  roles: RoleVersion[],
): Promise<UserAbility> {
  const key = keyOf(user, roles);
  const cached = cache.get(key);
  if (cached) {
    cache.delete(key);
    cache.set(key, cached);
    return cached;
  }
  const stored =
    roles.length === 0
      ? []
      : await db
          .select({ id: storedRoles.id, version: storedRoles.version, rules: storedRoles.rules })
          .from(storedRoles)
          .where(
            inArray(
              storedRoles.id,
              roles.map((r) => r.id),
            ),
          );
  const rules = interpolateRules(stored.flatMap(readRules), { user });
  const entry = { rules, ability: buildAbility(rules) };
  // Stored under the versions just read: if a role changed meanwhile, the next request asks for exactly these.
  cache.set(keyOf(user, stored), entry);
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  return entry;
}
