import { DEFAULT_ROLES, EARLIER_DEFAULT_RULES, USER_KINDS, type UserKind } from '@werkwissen/shared';
import type { Db } from '../../db/database.ts';
import { insertMissingSystemRoles, replaceRulesIfStill } from '../roles/roles.queries.ts';

/**
 * Fills in the role of each user kind that is missing, and upgrades a seeded role whose rules still equal an earlier
 * default (so a tightened default reaches existing installations); roles an Administrator edited are left as they are.
 */
export async function seedRoles(db: Db): Promise<void> {
  await insertMissingSystemRoles(
    db,
    USER_KINDS.map((kind) => ({
      kind,
      description: DEFAULT_ROLES[kind].description,
      rules: DEFAULT_ROLES[kind].rules,
    })),
  );
  for (const [kind, versions] of Object.entries(EARLIER_DEFAULT_RULES) as [UserKind, unknown[][]][]) {
    for (const earlier of versions) await replaceRulesIfStill(db, kind, earlier, DEFAULT_ROLES[kind].rules);
  }
}
