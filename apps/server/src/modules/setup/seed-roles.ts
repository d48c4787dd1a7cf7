import { DEFAULT_ROLES, EARLIER_DEFAULT_RULES, USER_KINDS, type UserKind } from '@werkwissen/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { roles } from '../../db/schema/index.ts';

/**
 * Fills in the role of each user kind that is missing, and upgrades a seeded role whose rules still equal an earlier
 * default (so a tightened default reaches existing installations); roles an Administrator edited are left as they are.
 */
export async function seedRoles(db: Db): Promise<void> {
  await db
    .insert(roles)
    .values(
      USER_KINDS.map((kind) => ({
        name: kind,
        kind,
        description: DEFAULT_ROLES[kind].description,
        rules: DEFAULT_ROLES[kind].rules,
        isSystem: true,
      })),
    )
    .onConflictDoNothing();
  for (const [kind, versions] of Object.entries(EARLIER_DEFAULT_RULES) as [UserKind, unknown[][]][]) {
    for (const earlier of versions) {
      // jsonb equality: the same rules in the same order, whatever the key order the JSON was written in.
      await db
        .update(roles)
        .set({ rules: DEFAULT_ROLES[kind].rules, updatedAt: new Date() })
        .where(and(eq(roles.kind, kind), sql`${roles.rules} = ${JSON.stringify(earlier)}::jsonb`));
    }
  }
}
