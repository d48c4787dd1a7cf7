import { DEFAULT_ROLES, USER_KINDS } from '@werkwissen/shared';
import type { Db } from '../../db/database.ts';
import { roles } from '../../db/schema/index.ts';

/** Fills in the role of each user kind that is missing; roles an Administrator edited are left as they are. */
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
}
